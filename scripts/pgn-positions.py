#!/usr/bin/env python3
"""Quiet positions of finished games, as `kirin datagen` lines for `kirin label`.

    scripts/pgn-positions.py KIRIN VARIANT GAMES.pgn [JOBS] > positions.txt

KIRIN is a kirin binary, VARIANT the game of the PGN (as `kirin match -pgnout` writes
it: a [FEN] tag where a game starts from an opening position, SAN moves, scores in
comments). Every second position of each game past its book (from the sixth turn of a
game without a [FEN] tag) is written when the side to move is not in check and the move
played from it neither captures nor promotes: `FEN <tab> result <tab> 0`, the result
(1, 0.5, 0) from White's view. The third column is a placeholder for `kirin label`,
which scores the positions with a judge; `kirin tune --result-weight 0` then fits the
game's numbers to the judge's scores (docs/tuning.md, fourth round).

Each position is set up by `kirin analyse --moves` (a search of depth 1, whose printed
FEN is kept), JOBS (default 2) at a time. Only the standard library is used.
"""
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

RESULTS = {"1-0": "1", "0-1": "0", "1/2-1/2": "0.5"}


def positions(pgn):
    """(start FEN or None, SAN moves before the position, result) per quiet position."""
    for game in re.split(r"\n(?=\[Event )", pgn):
        if "\n\n" not in game:
            continue
        result = RESULTS.get(re.search(r'\[Result "([^"]*)"', game).group(1))
        if result is None:
            continue
        start = re.search(r'\[FEN "([^"]+)"', game)
        start = start.group(1) if start else None
        body = re.sub(r"\{[^}]*\}", "", game.split("\n\n", 1)[1])
        moves = [t for t in body.split() if not re.match(r"^\d+\.+$", t) and t not in RESULTS and t != "*"]
        first = 2 if start else 10
        for n in range(first, len(moves) - 1, 2):
            before, played = moves[n - 1], moves[n]
            if "+" in before or "#" in before or "x" in played or "=" in played:
                continue
            yield start, moves[:n], result


def fen_of(kirin, variant, job):
    start, moves, result = job
    cmd = [kirin, "analyse", "--variant", variant, "--moves", " ".join(moves), "--depth", "1"]
    if start:
        cmd += ["--fen", start]
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    found = re.search(r"to move\s+(\S.*)$", out, re.M)
    return f"{found.group(1).strip()}\t{result}\t0" if found else None


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    kirin, variant, path = sys.argv[1:4]
    jobs = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    with open(path) as f:
        todo = list(positions(f.read()))
    with ThreadPoolExecutor(jobs) as pool:
        for line in pool.map(lambda job: fen_of(kirin, variant, job), todo):
            if line:
                print(line, flush=False)


if __name__ == "__main__":
    main()
