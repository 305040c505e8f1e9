#!/usr/bin/env python3
"""How fast kirin answers the commands that end a search (issue 19).

    scripts/latency.py [--kirin PATH] [--games G ...] [--reps N] [--threads T]
                       [--load-threads L] [--seed S] [--no-load] [--only-load]

For every built-in game (`kirin variants`), on that game's largest position (below),
while kirin searches on `--threads` threads (default 2), it measures:

  stop   UCI: from writing `stop` during `go infinite` to reading `bestmove`
  ?      CECP: from writing `?` while the engine thinks on its move (`st` of a day)
         to reading its `move` (in the games kirin offers over CECP)
  quit   from writing `quit` during such a search to the process's exit, over UCI
         and over CECP

each `--reps` times (default 20) after a search of a random 0.2 to 2 s (seeded), and
prints the median, 95th percentile (nearest rank) and maximum in milliseconds per game
as markdown tables: once with the machine otherwise idle, once under load from a second
kirin searching the same position with `go infinite` on `--load-threads` threads
(default 1: the other core of a two-core machine).

The largest position of a game: among its start position and 16 openings of 12 random
plies from `kirin openings --seed 19 --plies 12` (positions an engine meets early in a
game, with the pieces developed), the one with the most pieces on the board, and among
those the most legal moves (kirin's `go perft 1`). The tables name its pieces and moves.

Python 3.11 standard library only. A measurement, not a test: it asserts nothing, and
on a busy machine its numbers include the scheduler's delays.
"""

import argparse
import math
import os
import queue
import random
import re
import statistics
import subprocess
import sys
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# How long an answer that must come (readyok, pong, bestmove after stop) is waited for
# before the script gives up: far beyond any latency worth reporting.
ANSWER_TIMEOUT = 30.0


class Engine:
    """A kirin process; every line it writes is read on a thread and stamped with the
    moment it arrived, so that a latency is measured to the line's arrival and not to
    when the script got round to reading it."""

    def __init__(self, kirin):
        self.proc = subprocess.Popen(
            [kirin],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put((time.perf_counter(), line.rstrip("\n")))
        self.lines.put((time.perf_counter(), None))

    def send(self, line):
        """Writes a line; returns the moment just before it was written (an answer can
        arrive before `write` returns to this thread)."""
        before = time.perf_counter()
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return before

    def until(self, test, what):
        """Reads lines until one passes `test`; returns (arrival time, line)."""
        deadline = time.monotonic() + ANSWER_TIMEOUT
        while True:
            try:
                stamp, line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise RuntimeError(f"no {what} within {ANSWER_TIMEOUT} s") from None
            if line is None:
                raise RuntimeError(f"kirin exited while waiting for {what}")
            if test(line):
                return stamp, line

    def drain(self):
        """Drops the lines read so far."""
        while not self.lines.empty():
            self.lines.get_nowait()

    def quit_and_time(self):
        """Writes `quit` and waits for the process to end; returns milliseconds."""
        sent = self.send("quit")
        self.proc.wait(timeout=ANSWER_TIMEOUT)
        return (time.perf_counter() - sent) * 1000.0

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def uci_engine(kirin, variant, fen, threads, hash_mb=64):
    e = Engine(kirin)
    e.send("uci")
    e.until(lambda l: l == "uciok", "uciok")
    e.send(f"setoption name UCI_Variant value {variant}")
    e.send(f"setoption name Threads value {threads}")
    e.send(f"setoption name Hash value {hash_mb}")
    e.send(f"position fen {fen}")
    e.send("isready")
    e.until(lambda l: l == "readyok", "readyok")
    return e


def cecp_engine(kirin, cecp_name, fen, threads, hash_mb=64):
    e = Engine(kirin)
    e.send("xboard")
    e.send("protover 2")
    e.until(lambda l: "done=1" in l, "feature done=1")
    for line in ("new", f"variant {cecp_name}", "force", f"memory {hash_mb}",
                 f"cores {threads}", "post", "easy", "st 86400"):
        e.send(line)
    set_board(e, fen)
    return e


def set_board(e, fen):
    """`setboard` in force mode, checked by a `ping` (an error would come before the
    `pong`)."""
    e.send("force")
    e.send(f"setboard {fen}")
    e.send("ping 1")
    _, line = e.until(lambda l: l == "pong 1" or l.startswith("Error")
                      or l.startswith("tellusererror"), "pong 1")
    if line != "pong 1":
        raise RuntimeError(f"setboard refused: {line}")


def xboard_fen(fen, height):
    """kirin's FEN in XBoard's style (`rules::fen::FenStyle`): the same but for the
    en-passant squares of a ten-rank board, which XBoard counts from rank 0."""
    if height != 10:
        return fen
    fields = fen.split()
    if len(fields) > 3 and fields[3] != "-":
        fields[3] = re.sub(r"([a-z])(\d+)", lambda m: f"{m[1]}{int(m[2]) - 1}", fields[3])
    return " ".join(fields)


def board_pieces(fen):
    """Pieces on the board: the letters of the board field, reserves (`[...]`) left out."""
    board = re.sub(r"\[[^\]]*\]", "", fen.split()[0])
    return sum(c.isalpha() for c in board)


def legal_moves(e, fen):
    e.send(f"position fen {fen}")
    e.send("go perft 1")
    _, line = e.until(lambda l: l.startswith("Nodes searched:"), "perft total")
    return int(line.split(":")[1])


def largest_position(kirin, variant):
    """The position measured (the module's doc): (fen, pieces, legal moves, where)."""
    e = Engine(kirin)
    e.send("uci")
    e.until(lambda l: l == "uciok", "uciok")
    e.send(f"setoption name UCI_Variant value {variant}")
    _, line = e.until(lambda l: l.startswith("info string variant "), "variant line")
    start = line.split(" startpos ", 1)[1]
    openings = subprocess.run(
        [kirin, "openings", "--variant", variant, "--count", "16", "--plies", "12",
         "--seed", "19"],
        check=True, capture_output=True, text=True,
    ).stdout.split("\n")
    candidates = [(start, "start")] + [
        (f, f"opening {i + 1}") for i, f in enumerate(l.strip() for l in openings) if f
    ]
    best = None
    for fen, where in candidates:
        key = (board_pieces(fen), legal_moves(e, fen))
        if best is None or key > best[0]:
            best = (key, fen, where)
    e.send("quit")
    e.proc.wait()
    (pieces, moves), fen, where = best
    return fen, pieces, moves, where


def measure(kirin, game, cecp_name, fen, height, args, rng):
    """The samples (ms) of each command for one game: {"stop": [...], ...}."""
    samples = {"stop": [], "?": [], "quit uci": [], "quit cecp": []}

    def think():
        time.sleep(rng.uniform(args.min_search, args.max_search))

    e = uci_engine(kirin, game, fen, args.threads)
    try:
        for _ in range(args.reps):
            e.send(f"position fen {fen}")
            e.send("go infinite")
            think()
            sent = e.send("stop")
            stamp, _ = e.until(lambda l: l.startswith("bestmove"), "bestmove")
            samples["stop"].append((stamp - sent) * 1000.0)
            e.drain()
    finally:
        e.kill()
    for _ in range(args.reps):
        e = uci_engine(kirin, game, fen, args.threads)
        try:
            e.send("go infinite")
            think()
            samples["quit uci"].append(e.quit_and_time())
        finally:
            e.kill()

    if cecp_name is None:
        return samples
    xfen = xboard_fen(fen, height)
    e = cecp_engine(kirin, cecp_name, xfen, args.threads)
    try:
        for _ in range(args.reps):
            set_board(e, xfen)
            e.send("go")
            think()
            sent = e.send("?")
            stamp, _ = e.until(lambda l: l.startswith("move "), "move")
            samples["?"].append((stamp - sent) * 1000.0)
            e.drain()
    finally:
        e.kill()
    for _ in range(args.reps):
        e = cecp_engine(kirin, cecp_name, xfen, args.threads)
        try:
            e.send("go")
            think()
            samples["quit cecp"].append(e.quit_and_time())
        finally:
            e.kill()
    return samples


def summary(values):
    """`median / p95 / max` in ms, p95 by nearest rank; a dash for no samples."""
    if not values:
        return "—"
    s = sorted(values)
    p95 = s[max(0, math.ceil(0.95 * len(s)) - 1)]
    return f"{statistics.median(s):.1f} / {p95:.1f} / {s[-1]:.1f}"


def games_and_sizes(kirin):
    """(name, height) of every game `kirin variants` lists."""
    out = subprocess.run([kirin, "variants"], check=True, capture_output=True,
                         text=True).stdout
    games = []
    for line in out.splitlines():
        m = re.match(r"^(\S+)\s+(\d+)x(\d+)\s", line)
        if m:
            games.append((m[1], int(m[3])))
    return games


def cecp_names(kirin):
    """kirin's name -> CECP name of the games kirin offers over CECP."""
    out = subprocess.run([kirin], input="xboard\nprotover 2\nquit\n", check=True,
                         capture_output=True, text=True).stdout
    m = re.search(r'variants="([^"]*)"', out)
    names = m[1].split(",") if m else []
    return {("chess" if n == "normal" else n): n for n in names}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kirin", default=os.environ.get("KIRIN"),
                    help="the kirin binary (default: $KIRIN, else built with cargo)")
    ap.add_argument("--games", nargs="*", help="games to measure (default: all)")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--load-threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--min-search", type=float, default=0.2, help="seconds")
    ap.add_argument("--max-search", type=float, default=2.0, help="seconds")
    ap.add_argument("--no-load", action="store_true", help="only the idle machine")
    ap.add_argument("--only-load", action="store_true", help="only under load")
    args = ap.parse_args()
    kirin = args.kirin
    if not kirin:
        subprocess.run(["cargo", "build", "--release", "-q"], cwd=REPO, check=True)
        target = os.environ.get("CARGO_TARGET_DIR", os.path.join(REPO, "target"))
        kirin = os.path.join(target, "release", "kirin")

    games = games_and_sizes(kirin)
    if args.games:
        unknown = set(args.games) - {g for g, _ in games}
        if unknown:
            sys.exit(f"unknown games: {' '.join(sorted(unknown))} (kirin variants)")
        games = [g for g in games if g[0] in args.games]
    cecp = cecp_names(kirin)
    positions = {}
    for game, _ in games:
        positions[game] = largest_position(kirin, game)
        fen, pieces, moves, where = positions[game]
        print(f"{game}: {where}, {pieces} pieces, {moves} legal moves: {fen}",
              file=sys.stderr)

    conditions = []
    if not args.only_load:
        conditions.append(("idle", 0))
    if not args.no_load:
        conditions.append(("load", args.load_threads))
    for name, load_threads in conditions:
        rng = random.Random(args.seed)
        rows = []
        for game, height in games:
            fen, pieces, moves, where = positions[game]
            load = None
            if load_threads:
                # The second process searches the same position for as long as the game
                # is measured.
                load = uci_engine(kirin, game, fen, load_threads, hash_mb=16)
                load.send("go infinite")
            try:
                s = measure(kirin, game, cecp.get(game), fen, height, args, rng)
            finally:
                if load:
                    load.kill()
            worst = max(s["stop"] + s["?"])
            rows.append(
                f"| {game} | {where}: {pieces} pieces, {moves} moves | {summary(s['stop'])} "
                f"| {summary(s['?'])} | {summary(s['quit uci'])} | {summary(s['quit cecp'])} "
                f"| {'yes' if worst <= 50.0 else 'NO'} |"
            )
            print(rows[-1], file=sys.stderr)
        label = ("no second kirin" if not load_threads else
                 f"under load: a second kirin searching on {load_threads} thread(s)")
        # Other work on the machine delays the answers too: say how busy it was.
        busy = os.getloadavg()[0]
        print(f"\nkirin searching on {args.threads} threads, {label} (load average "
              f"{busy:.1f} on {os.cpu_count()} cores at the end); {args.reps} samples "
              f"each after {args.min_search}-{args.max_search} s of search; "
              "median / p95 / max in ms.\n")
        print("| game | position | UCI `stop` → `bestmove` | CECP `?` → `move` "
              "| UCI `quit` → exit | CECP `quit` → exit | stop within 50 ms |")
        print("|---|---|---|---|---|---|---|")
        for r in rows:
            print(r)


if __name__ == "__main__":
    main()
