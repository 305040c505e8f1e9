#!/usr/bin/env bash
# cutechess-cli matches of kirin against Fairy-Stockfish in `courier` and `chess`, with
# kirin over UCI and over CECP, every game starting from an explicitly sent FEN (programs
# disagree on Courier's start: this uses the historical one, as cutechess and FSF do).
#
#   scripts/cutechess-match.sh [GAMES] [TC]       (default 20 games, 10+0.1 seconds)
#
# Environment: VARIANTS (default "courier standard") limits the variants played,
# PROTOCOLS (default "uci xboard") the protocols kirin speaks; KIRIN
# names a kirin binary to use instead of building target/release/kirin (so that a match
# can run on a frozen copy while the tree is rebuilt).
#
# cutechess-cli is not packaged by Debian; it builds from its public source against
# Debian's Qt (see docs/protocols.md). Set CUTECHESS to its path, or put it on the PATH.
# Output: target/cutechess/<variant>-<protocol>.pgn and the score lines; exits non-zero
# if a game was lost on time, by an illegal move, by a disconnect or by an invalid result
# claim (cutechess checks every claim against its own rules and forfeits a false one).
# cutechess knows Courier's own rules (bare King, stalemate loses), so over CECP kirin
# gets its option "Claim only mate and stalemate" (meant for XBoard, which knows neither)
# switched off and plays and claims by the variant's rules.
set -euo pipefail
cd "$(dirname "$0")/.."

GAMES=${1:-20}
TC=${2:-10+0.1}
CUTECHESS=${CUTECHESS:-$(command -v cutechess-cli || true)}
if [ -z "$CUTECHESS" ] || [ ! -x "$CUTECHESS" ]; then
  echo "cutechess-cli is missing: build it from https://github.com/cutechess/cutechess" >&2
  echo "(Debian does not package it) and set CUTECHESS=/path/to/cutechess-cli." >&2
  exit 3
fi
FSF=${FSF:-/usr/games/fairy-stockfish}
if [ ! -x "$FSF" ]; then
  if [ "$(id -u)" = 0 ]; then apt-get install -y -qq fairy-stockfish >/dev/null; else sudo -n apt-get install -y -qq fairy-stockfish >/dev/null; fi
fi
if [ -z "${KIRIN:-}" ]; then
  cargo build --release -q
  KIRIN=$(pwd)/target/release/kirin
fi
VARIANTS=${VARIANTS:-courier standard}
OUT=target/cutechess
mkdir -p "$OUT"

# cutechess sends a FEN only when the board differs from its own start position, and
# otherwise trusts the engine's start for the variant. Over CECP kirin starts `courier`
# from XBoard's raw array unless its option "XBoard start positions" is off, so the CECP
# engine gets that option switched off; over UCI `startpos` is the historical start.
declare -A START=(
  [courier]="rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 5"
  [standard]="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
)
status=0
for variant in $VARIANTS; do
  fens="$OUT/$variant.epd"
  echo "${START[$variant]}" >"$fens"
  for proto in ${PROTOCOLS:-uci xboard}; do
    options=()
    [ "$proto" = xboard ] && options=("option.XBoard start positions=false"
      "option.Claim only mate and stalemate=false")
    pgn="$OUT/$variant-$proto.pgn"
    rm -f "$pgn"
    log="$OUT/$variant-$proto.log"
    "$CUTECHESS" -variant "$variant" \
      -engine cmd="$KIRIN" proto="$proto" name="kirin-$proto" "${options[@]}" \
      -engine cmd="$FSF" proto=uci name=fairy-stockfish \
      -each tc="$TC" -games "$GAMES" -repeat -recover \
      -openings file="$fens" format=epd order=sequential \
      -pgnout "$pgn" >"$log" 2>&1 || true
    echo "== $variant, kirin over $proto"
    grep -E '^(Score of|Elo difference|Finished match)' "$log" || tail -5 "$log"
    forfeit='loses on time|illegal move|disconnects|connection stalls|invalid result claim'
    if grep -qiE "$forfeit" "$pgn" "$log"; then
      echo "!! forfeits in $variant/$proto:"
      grep -hiE "$forfeit" "$pgn" "$log" | sort | uniq -c
      status=1
    fi
  done
done
exit $status
