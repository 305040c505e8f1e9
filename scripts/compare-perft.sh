#!/usr/bin/env bash
# Runs kirin and Fairy-Stockfish on the same positions in one run, single-threaded, and
# prints both node counts (they must match) and the speed ratio (FSF time / kirin time,
# so a ratio above 1 means kirin is faster).
#
#   scripts/compare-perft.sh            start positions of chess, courier (both starts) and
#                                       modern-courier at depth 5
#   scripts/compare-perft.sh --suites   also every suite line whose deepest count is at most
#                                       $MAX_NODES (default 20000000), at that depth
#
# Environment: FSF (default: Debian's /usr/games/fairy-stockfish, installed if missing),
# FSF_SHO (a Fairy-Stockfish built from current source, which has `shoshogi`; sho rows are
# skipped without it), REPEAT (best of N timings, default 3).
# Times: kirin's own perft timer, and for FSF the time from sending `go perft` to its
# `Nodes searched` line on an engine that is already initialised.
set -euo pipefail
cd "$(dirname "$0")/.."

FSF=${FSF:-/usr/games/fairy-stockfish}
REPEAT=${REPEAT:-3}
MAX_NODES=${MAX_NODES:-20000000}
SUITES=0
[ "${1:-}" = "--suites" ] && SUITES=1

if [ ! -x "$FSF" ]; then
  echo "installing Debian's fairy-stockfish..." >&2
  if [ "$(id -u)" = 0 ]; then apt-get install -y -qq fairy-stockfish >/dev/null; else sudo apt-get install -y -qq fairy-stockfish >/dev/null; fi
fi
cargo build --release -q
KIRIN=target/release/kirin

# Savard's modern Courier for Fairy-Stockfish, the same rules as kirin's `modern-courier`.
INI=$(mktemp --suffix=.ini)
trap 'rm -f "$INI"' EXIT
cat > "$INI" <<'INI'
[modern-courier:courier]
startFen = rnebwfkmbenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNEBWFKMBENR w - - 0 1
doubleStep = true
doubleStepRegionWhite = *2
doubleStepRegionBlack = *7
enPassantRegion = *3 *6
promotionPieceTypes = f
castling = false
INI

# fsf_perft BINARY UCI_VARIANT FEN DEPTH -> "nodes seconds" (best of $REPEAT)
fsf_perft() {
  local bin=$1 variant=$2 fen=$3 depth=$4 best="" nodes="" line t0 t1 i
  coproc FSFPROC { "$bin" 2>&1; }
  printf 'uci\nsetoption name Threads value 1\nsetoption name VariantPath value %s\nsetoption name UCI_Variant value %s\nposition fen %s\nisready\n' \
    "$INI" "$variant" "$fen" >&"${FSFPROC[1]}"
  while read -r line <&"${FSFPROC[0]}"; do [ "$line" = readyok ] && break; done
  for ((i = 0; i < REPEAT; i++)); do
    t0=$(date +%s.%N)
    printf 'go perft %s\n' "$depth" >&"${FSFPROC[1]}"
    while read -r line <&"${FSFPROC[0]}"; do
      case $line in "Nodes searched: "*) nodes=${line#Nodes searched: }; break ;; esac
    done
    t1=$(date +%s.%N)
    best=$(echo "$t0 $t1 ${best:-1e9}" | awk '{d=$2-$1; print (d<$3)?d:$3}')
  done
  printf 'quit\n' >&"${FSFPROC[1]}"
  wait "$FSFPROC_PID" 2>/dev/null || true
  echo "$nodes $best"
}

# kirin_perft VARIANT FEN DEPTH -> "nodes seconds" (best of $REPEAT)
kirin_perft() {
  local variant=$1 fen=$2 depth=$3 best="" nodes="" out i t
  for ((i = 0; i < REPEAT; i++)); do
    out=$("$KIRIN" perft --variant "$variant" --fen "$fen" --depth "$depth")
    nodes=$(sed -n 's/^Nodes searched: //p' <<<"$out")
    t=$(sed -n 's/^Time: \([0-9.]*\) s.*/\1/p' <<<"$out")
    best=$(echo "$t ${best:-1e9}" | awk '{print ($1<$2)?$1:$2}')
  done
  echo "$nodes $best"
}

rows=()
add() { rows+=("$1|$2|$3|$4"); } # kirin-variant | fsf-variant | fen | depth
add chess chess "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" 5
add courier courier "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1" 5
add courier courier "rnebmkfwbenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNEBMKFWBENR w - - 0 1" 5
add modern-courier modern-courier "rnebwfkmbenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNEBWFKMBENR w - - 0 1" 5
[ -n "${FSF_SHO:-}" ] && add sho shoshogi "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL w 0 1" 5

if [ $SUITES = 1 ]; then
  for suite in chess courier modern-courier sho; do
    fsfv=$suite; [ $suite = sho ] && fsfv=shoshogi
    [ $suite = sho ] && [ -z "${FSF_SHO:-}" ] && continue
    while IFS= read -r line; do
      case $line in "#"* | "") continue ;; esac
      fen=${line%%;*}; fen=${fen% }
      best=$(grep -o ';D[0-9]* [0-9]*' <<<"${line%%#*}" | awk -v max="$MAX_NODES" '$2<=max {d=substr($1,3)} END {print d}')
      [ -n "$best" ] && add "$suite" "$fsfv" "$fen" "$best"
    done <"positions/$suite.epd"
  done
fi

printf '%-15s %-5s %12s %12s %-5s %9s %9s %7s  %s\n' variant depth kirin fsf match kirin-s fsf-s ratio fen
fail=0
sum_k=0 sum_f=0
for r in "${rows[@]}"; do
  IFS='|' read -r kv fv fen depth <<<"$r"
  bin=$FSF; [ "$fv" = shoshogi ] && bin=$FSF_SHO
  read -r kn kt < <(kirin_perft "$kv" "$fen" "$depth")
  read -r fn ft < <(fsf_perft "$bin" "$fv" "$fen" "$depth")
  match=yes; [ "$kn" = "$fn" ] || { match=NO; fail=1; }
  ratio=$(awk -v k="$kt" -v f="$ft" 'BEGIN {printf "%.2f", f/k}')
  sum_k=$(awk -v a="$sum_k" -v b="$kt" 'BEGIN {print a+b}')
  sum_f=$(awk -v a="$sum_f" -v b="$ft" 'BEGIN {print a+b}')
  printf '%-15s %-5s %12s %12s %-5s %9.3f %9.3f %7s  %s\n' "$kv" "$depth" "$kn" "$fn" "$match" "$kt" "$ft" "$ratio" "$fen"
done
awk -v k="$sum_k" -v f="$sum_f" 'BEGIN {printf "total time: kirin %.3f s, fairy-stockfish %.3f s, ratio %.2f (above 1: kirin faster)\n", k, f, f/k}'
exit $fail
