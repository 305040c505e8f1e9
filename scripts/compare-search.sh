#!/usr/bin/env bash
# Search speed (nodes per second) of kirin next to a reference engine, in one run, on the
# same positions, each engine single-threaded with a 64 MiB hash table and the same time
# per position:
#
#   courier   kirin vs Fairy-Stockfish (Debian 11.1, UCI, UCI_Variant courier): the
#             historical start position and the middlegames on non-comment lines 8 and 11 of
#             positions/courier.epd
#   chu       kirin vs HaChu (Debian 0.21, CECP/XBoard): the start position
#
# Reading the output: one row per position with each engine's depth, nodes, seconds and
# nps, then ratio = kirin_nps / reference_nps. A ratio above 1 means kirin visits more
# nodes per second. It is a speed figure only: the engines count nodes differently and
# prune differently, so a higher nps is not a stronger search (compare the depths too).
# The engines run one after the other, so run it on an otherwise quiet machine: the cpu%
# columns (an engine's CPU time over its run time) show when other work took the core
# and the nps is depressed. The last line of each variant is the geometric mean of its
# ratios.
#
# How each engine is timed:
#   kirin            `kirin analyse --movetime MS --threads 1 --hash 64`; nps = nodes / seconds
#                    of its final `best move ... N nodes in S s` line (the whole search,
#                    including the unfinished last iteration; kirin may stop early when it
#                    judges the next iteration would not finish).
#   Fairy-Stockfish  `go movetime MS`; nps, nodes and time of the last `info ... nps` line.
#   HaChu            HaChu 0.21 ignores `st` (its clock comes from `time`, and it stops only
#                    between iterations, so a 3 s target gives 1.9 s or 7.7 s of search), and
#                    it reads no input while thinking after `go`. So it is searched in
#                    `analyze` mode and sent `exit` after MS. Its thinking lines are
#                    `depth score time(centiseconds) nodes pv...`; nps = nodes / time of the
#                    last one (the last completed iteration). Its `setboard` rejects
#                    kirin's chu FEN (`Unknown piece ' '`, then it exits) and with the board
#                    part alone sets up nothing searchable, so the script tries setboard and
#                    falls back to `new` + `variant chu` for the start position; positions
#                    that need setboard are then skipped.
#
# Environment: MOVETIME_MS (default 3000), FSF and HACHU (engine paths, default Debian's
# /usr/games/...; installed with apt-get when missing). Exit status 0 when every row ran,
# 1 when an engine failed, 3 when rows were skipped (an engine could not be installed).
set -euo pipefail
cd "$(dirname "$0")/.."

MOVETIME_MS=${MOVETIME_MS:-3000}
FSF=${FSF:-/usr/games/fairy-stockfish}
HACHU=${HACHU:-/usr/games/hachu}

# ensure_engine PATH PACKAGE: installs PACKAGE when PATH is missing; prints the path, or
# nothing (and a warning on stderr) when it cannot be had.
ensure_engine() {
  local bin=$1 pkg=$2 sudo=""
  if [ ! -x "$bin" ]; then
    echo "$bin is missing: installing Debian's $pkg..." >&2
    [ "$(id -u)" = 0 ] || sudo="sudo -n"
    command -v apt-get >/dev/null && $sudo apt-get install -y -qq "$pkg" >/dev/null || true
  fi
  if [ -x "$bin" ]; then
    echo "$bin"
  else
    echo "WARNING: no $bin and cannot install $pkg (needs apt-get and root or" \
      "passwordless sudo); its rows are skipped." >&2
  fi
}
FSF=$(ensure_engine "$FSF" fairy-stockfish)
HACHU=$(ensure_engine "$HACHU" hachu)

cargo build --release -q
KIRIN=target/release/kirin

# Positions: variant|label|FEN
courier_line() { grep -v '^#' positions/courier.epd | sed -n "${1}p" | sed 's/ *;.*//'; }
POSITIONS=(
  "courier|historical start|rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1"
  "courier|courier.epd #8|$(courier_line 8)"
  "courier|courier.epd #11|$(courier_line 11)"
  "chu|start|lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL w 0 1"
)

echo "search speed, single-threaded, hash 64 MiB, ${MOVETIME_MS} ms per position and engine"

python3 - "$KIRIN" "$MOVETIME_MS" "$FSF" "$HACHU" "${POSITIONS[@]}" <<'PY'
import math, queue, re, resource, subprocess, sys, threading, time

kirin, movetime_ms, fsf, hachu = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
positions = [p.split("|", 2) for p in sys.argv[5:]]
CHU_START = ("lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/"
             "PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL w 0 1")
GRACE = 15.0  # seconds an engine may overrun its time before it counts as failed


class Engine:
    """A child process whose stdout lines arrive on a queue, so reads can time out."""

    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for line in self.p.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)  # end of output

    def send(self, text):
        self.p.stdin.write(text + "\n")
        self.p.stdin.flush()

    def read_until(self, done, timeout):
        """Lines up to and including the first one for which done(line) holds."""
        seen, deadline = [], time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise RuntimeError("no answer in %.0f s (last: %r)" % (timeout, seen[-1:]))
            if line is None:
                raise RuntimeError("engine exited (last: %r)" % seen[-1:])
            seen.append(line)
            if done(line):
                return seen

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=3)
        except Exception:
            self.p.kill()
            self.p.wait()


def run_kirin(variant, fen):
    out = subprocess.run([kirin, "analyse", "--variant", variant, "--fen", fen,
                          "--movetime", str(movetime_ms), "--threads", "1", "--hash", "64"],
                         capture_output=True, text=True, timeout=movetime_ms / 1000 + GRACE)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip() or "exit status %d" % out.returncode)
    depth = None
    for line in out.stdout.splitlines():
        tok = line.split()
        # iteration line: depth/seldepth, score (`cp N` or `mate N`), nodes, nps, seconds, pv
        if tok and re.fullmatch(r"\d+/\d+", tok[0]):
            depth = tok[0]
        m = re.match(r"best move .*, (\d+) nodes in ([\d.]+) s$", line)
        if m:
            nodes, secs = int(m[1]), float(m[2])
            return dict(depth=depth, nodes=nodes, secs=secs, nps=nodes / max(secs, 0.01))
    raise RuntimeError("no `best move` line: %r" % out.stdout[-300:])


def run_fsf(variant, fen):
    e = Engine(fsf)
    try:
        e.send("uci")
        e.read_until(lambda l: l == "uciok", 10)
        for opt in ("Threads value 1", "Hash value 64", "UCI_Variant value " + variant):
            e.send("setoption name " + opt)
        e.send("position fen " + fen)
        e.send("isready")
        e.read_until(lambda l: l == "readyok", 10)
        e.send("go movetime %d" % movetime_ms)
        seen = e.read_until(lambda l: l.startswith("bestmove"), movetime_ms / 1000 + GRACE)
    finally:
        e.close()
    info = [l for l in seen if l.startswith("info") and " nps " in l]
    if not info:
        raise RuntimeError("no `info ... nps` line before bestmove")
    f = info[-1].split()
    field = lambda name: f[f.index(name) + 1]
    return dict(depth="%s/%s" % (field("depth"), field("seldepth")), nodes=int(field("nodes")),
                secs=int(field("time")) / 1000, nps=int(field("nps")))


def hachu_start():
    e = Engine(hachu)
    e.send("xboard")
    e.send("protover 2")
    e.read_until(lambda l: l.startswith("feature") and "done=1" in l, 10)
    for cmd in ("variant chu", "memory 64", "post", "force"):  # memory before any search
        e.send(cmd)
    return e


def hachu_setboard_ok(fen):
    """Whether HaChu sets up this FEN: it answers a bad one with tellusererror and exits."""
    e = hachu_start()
    try:
        e.send("setboard " + fen)
        e.send("ping 1")
        seen = e.read_until(lambda l: l.startswith(("pong", "tellusererror", "Error")), 5)
        return seen[-1].startswith("pong")
    except RuntimeError:
        return False
    finally:
        e.close()


THINKING = re.compile(r"^\s*(-?\d+)\s+(-?\d+)\s+(\d+)\s+(\d+)(\s|$)")  # depth score cs nodes


def run_hachu(fen, use_setboard):
    e = hachu_start()
    try:
        if use_setboard:
            e.send("setboard " + fen)
        else:
            e.send("new")
            e.send("variant chu")
            e.send("post")
            e.send("force")
        e.send("ping 1")
        e.read_until(lambda l: l.startswith("pong"), 10)
        t0 = time.monotonic()
        e.send("analyze")
        time.sleep(movetime_ms / 1000)
        e.send("exit")
        wall = time.monotonic() - t0
        seen = e.read_until(lambda l: l.startswith("# best="), GRACE)
    finally:
        e.close()
    last = None
    for line in seen:
        m = THINKING.match(line)
        if m and int(m[1]) > 0:
            last = m
    if not last:
        raise RuntimeError("no thinking line")
    depth, cs, nodes = int(last[1]), int(last[3]), int(last[4])
    if cs / 100 > wall + 0.5:  # the time field is not centiseconds after all
        raise RuntimeError("thinking line %r: time %d cs exceeds the %.1f s searched"
                           % (last[0], cs, wall))
    return dict(depth=str(depth), nodes=nodes, secs=cs / 100, nps=nodes / max(cs / 100, 0.01))


def with_cpu_share(run, *args):
    """run(*args), plus `cpu`: the engine process's CPU time over its lifetime. Well
    below 100% means other work on the machine took the core and the nps is low."""
    cpu = lambda: (lambda u: u.ru_utime + u.ru_stime)(resource.getrusage(resource.RUSAGE_CHILDREN))
    c0, t0 = cpu(), time.monotonic()
    result = run(*args)
    result["cpu"] = 100 * (cpu() - c0) / (time.monotonic() - t0)
    return result


rows, failures, skipped = [], 0, 0
setboard_ok = None
for variant, label, fen in positions:
    ref_name, ref = {"courier": ("Fairy-Stockfish", fsf), "chu": ("HaChu", hachu)}[variant]
    if not ref:
        print("skipped %s %s: %s is not installed" % (variant, label, ref_name), flush=True)
        skipped += 1
        continue
    use_setboard = False
    if variant == "chu":
        if setboard_ok is None:
            setboard_ok = hachu_setboard_ok(fen)
            print("HaChu setboard %s kirin's chu FEN%s" % (
                "accepts" if setboard_ok else "rejects",
                "" if setboard_ok else "; using `new` + `variant chu` (start position only)"),
                flush=True)
        use_setboard = setboard_ok
        if not setboard_ok and fen != CHU_START:
            print("skipped chu %s: HaChu cannot set it up" % label, flush=True)
            skipped += 1
            continue
    print("running %s %s ..." % (variant, label), flush=True)
    try:
        k = with_cpu_share(run_kirin, variant, fen)
        r = (with_cpu_share(run_fsf, variant, fen) if variant == "courier"
             else with_cpu_share(run_hachu, fen, use_setboard))
    except (RuntimeError, subprocess.TimeoutExpired, OSError) as err:
        print("FAILED %s %s: %s" % (variant, label, err), flush=True)
        failures += 1
        continue
    rows.append((variant, label, k, ref_name, r, k["nps"] / r["nps"]))

print()
head = "%-8s %-17s %7s %10s %5s %4s %9s  %-15s %7s %10s %5s %4s %9s %6s" % (
    "variant", "position", "depth", "nodes", "s", "cpu%", "kirin nps",
    "reference", "depth", "nodes", "s", "cpu%", "ref nps", "ratio")
print(head)
print("-" * len(head))
for variant in dict.fromkeys(v for v, *_ in rows):
    ratios = []
    for v, label, k, ref_name, r, ratio in rows:
        if v != variant:
            continue
        ratios.append(ratio)
        print("%-8s %-17s %7s %10d %5.2f %4.0f %9.0f  %-15s %7s %10d %5.2f %4.0f %9.0f %6.2f" % (
            v, label, k["depth"], k["nodes"], k["secs"], k["cpu"], k["nps"],
            ref_name, r["depth"], r["nodes"], r["secs"], r["cpu"], r["nps"], ratio))
    geo = math.exp(sum(map(math.log, ratios)) / len(ratios))
    print(("%-8s %s" % (variant, "geometric mean")).ljust(len(head) - 6) + "%6.2f" % geo)
print("\nratio = kirin nps / reference nps (above 1: kirin searches more nodes per second);"
      "\ncpu% = the engine's CPU time over its run time (well below 100: the machine was busy)")
sys.exit(1 if failures else 3 if skipped else 0)
PY
