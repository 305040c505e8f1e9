#!/usr/bin/env bash
# The same Courier match under cutechess-cli and under `kirin match`: the same openings,
# engines (kirin over UCI against Debian's Fairy-Stockfish 11.1) and time control, with
# the same command line but for the program. Then each runner reads the other's PGN: kirin
# replays cutechess's games under its rules (`kirin match --merge`), and cutechess-cli
# replays kirin's as openings (`-openings format=pgn`), reporting any move it cannot read.
#
#   scripts/cutechess-compare.sh [GAMES] [TC]      (default 20 games, 5+0.05)
#
# cutechess-cli is not packaged by Debian: build it from its public source against
# Debian's Qt (`cmake .. && make cli`) and set CUTECHESS to it. KIRIN names a kirin binary
# (default: built here). Output under target/compare/.
set -euo pipefail
cd "$(dirname "$0")/.."

GAMES=${1:-20}
TC=${2:-5+0.05}
CUTECHESS=${CUTECHESS:-$(command -v cutechess-cli || true)}
if [ -z "$CUTECHESS" ] || [ ! -x "$CUTECHESS" ]; then
  echo "cutechess-cli is missing: build it from its source and set CUTECHESS" >&2
  exit 3
fi
FSF=/usr/games/fairy-stockfish
if [ ! -x "$FSF" ]; then
  if [ "$(id -u)" = 0 ]; then apt-get install -y -qq fairy-stockfish >/dev/null
  else sudo -n apt-get install -y -qq fairy-stockfish >/dev/null; fi
fi
if [ -z "${KIRIN:-}" ]; then
  cargo build --release -q
  KIRIN=$(pwd)/target/release/kirin
fi
OUT=target/compare
mkdir -p "$OUT"
OPENINGS=$OUT/courier.epd
[ -s "$OPENINGS" ] || "$KIRIN" openings --variant courier --count $((GAMES / 2)) --seed 2026 \
  --output "$OPENINGS" 2>/dev/null

# One command line for both runners.
words=(-variant courier
  -engine cmd="$KIRIN" name=kirin proto=uci
  -engine cmd="$FSF" name=fairy-stockfish proto=uci
  -each tc="$TC" -games 2 -rounds $((GAMES / 2)) -repeat -recover
  -openings file="$OPENINGS" format=epd order=sequential -ratinginterval 0)

status=0
rm -f "$OUT/cutechess.pgn" "$OUT/kirin.pgn"
echo "== cutechess-cli"
"$CUTECHESS" "${words[@]}" -pgnout "$OUT/cutechess.pgn" >"$OUT/cutechess.log" 2>&1 || status=1
grep -E '^(Score of|Elo difference)' "$OUT/cutechess.log" | tail -2
echo "== kirin match"
"$KIRIN" match "${words[@]}" -pgnout "$OUT/kirin.pgn" >"$OUT/kirin.log" 2>&1 || status=1
grep -E '^(Score of|Elo difference|Ptnml)' "$OUT/kirin.log" | tail -3

echo "== kirin reads cutechess's PGN"
"$KIRIN" match --merge "$OUT/cutechess.pgn" -repeat | grep -E '^(Replayed|Merged|Score of)' || status=1

echo "== cutechess-cli reads kirin's PGN (every move of every game as an opening line)"
"$CUTECHESS" -variant courier \
  -engine cmd="$KIRIN" name=a proto=uci -engine cmd="$KIRIN" name=b proto=uci \
  -each depth=1 tc=inf -games "$GAMES" -openings file="$OUT/kirin.pgn" format=pgn order=sequential \
  plies=100000 -maxmoves 1 -ratinginterval 0 -pgnout "$OUT/reread.pgn" >"$OUT/reread.log" 2>&1 || true
if grep -qiE 'illegal move|invalid|error' "$OUT/reread.log"; then
  grep -iE 'illegal move|invalid|error' "$OUT/reread.log" | head
  status=1
else
  echo "read $(grep -c '^\[Event' "$OUT/reread.pgn" || echo 0) games with no warning"
fi
exit $status
