#!/usr/bin/env bash
# The Courier yardstick of docs/search.md ("Measurements"): kirin held to a number of
# nodes a move against Debian's Fairy-Stockfish 11.1 held to a depth, from a fixed run of
# openings with colours reversed. Neither side looks at a clock, so two of these run side
# by side on the two cores without disturbing each other, and the same build plays the
# same games again: two builds (or two `--variants-file` children) are compared on the
# same openings.
#
#   scripts/courier-yardstick.sh KIRIN NAME [START] [PAIRS] [ENGINE WORDS...]
#
# KIRIN: a kirin binary; NAME: its name in the PGN and the output files; START (default
# 201): the first opening of `kirin openings --variant courier --count 400 --seed 4242`;
# PAIRS (default 50): pairs of games, one opening each. Further words go to kirin's side
# (e.g. `"cmd=KIRIN --variants-file FILE" variant=CHILD`). NODES (default 60000) and
# FSF_DEPTH (default 7) set the two limits. Output: target/yardstick/NAME-START.pgn and
# .log, and the score on standard output.
set -euo pipefail
cd "$(dirname "$0")/.."
KIRIN=$1
NAME=$2
START=${3:-201}
PAIRS=${4:-50}
shift $(( $# > 4 ? 4 : $# ))
FSF=/usr/games/fairy-stockfish
if [ ! -x "$FSF" ]; then
  if [ "$(id -u)" = 0 ]; then apt-get install -y -qq fairy-stockfish >/dev/null
  else sudo -n apt-get install -y -qq fairy-stockfish >/dev/null; fi
fi
OUT=target/yardstick
mkdir -p "$OUT"
OPENINGS="$OUT/courier-400-4242.epd"
[ -s "$OPENINGS" ] || "$KIRIN" openings --variant courier --count 400 --seed 4242 \
  --output "$OPENINGS" 2>/dev/null
LOG="$OUT/$NAME-$START.log"
"$KIRIN" match -variant courier \
  -engine cmd="$KIRIN" name="$NAME" nodes="${NODES:-60000}" "$@" \
  -engine cmd="$FSF" name=fsf depth="${FSF_DEPTH:-7}" \
  -each tc=inf option.Hash=64 -games 2 -rounds "$PAIRS" -repeat -recover -concurrency 1 \
  -openings file="$OPENINGS" format=epd order=sequential start="$START" -maxmoves 200 \
  -pgnout "$OUT/$NAME-$START.pgn" -ratinginterval 0 >"$LOG" 2>&1 || true
grep -E '^(Score of|Elo difference|Ptnml)' "$LOG" | tail -3
