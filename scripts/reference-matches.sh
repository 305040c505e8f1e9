#!/usr/bin/env bash
# The matches of docs/match.md: kirin against the reference engines in the games they
# play, and kirin against itself where no other engine exists, all refereed by
# `kirin match`, with openings from `kirin openings`.
#
#   scripts/reference-matches.sh [GAMES] [TC] [WHICH...]
#
# GAMES (default 20) per match, TC (default 5+0.05); WHICH picks matches among
# chu courier-fsf courier-fairymax sho tamerlane duodecimal (default: all).
# Engines: Debian's hachu, fairymax and fairy-stockfish (installed if missing, as root);
# Sho needs Fairy-Stockfish built from its source (Debian's 11.1 has no `shoshogi`): set
# FSF_SOURCE to that binary. KIRIN names a kirin binary (default: built here);
# KIRIN_OPTIONS adds engine words to kirin's side against another engine (e.g.
# KIRIN_OPTIONS=option.Contempt=50); FSF_OPTIONS the same for Fairy-Stockfish 11.1 in
# courier-fsf (FSF_OPTIONS=nodes=15000 holds it to 15 000 nodes a move: at 10+0.1 a
# yardstick near 50%, where a change of kirin's shows; docs/search.md, "Where the gap to
# Fairy-Stockfish lies").
# CONCURRENCY (default 1) games of a match at once: 2 fills the two cores, each game
# having one engine thinking at a time.
# Output: target/matches/<match>.pgn and .log, and the score lines on standard output.
set -euo pipefail
cd "$(dirname "$0")/.."

GAMES=${1:-20}
TC=${2:-5+0.05}
shift $(( $# > 2 ? 2 : $# ))
WHICH=${*:-chu courier-fsf courier-fairymax sho tamerlane duodecimal}
if [ -z "${KIRIN:-}" ]; then
  cargo build --release -q
  KIRIN=$(pwd)/target/release/kirin
fi
need=()
for pkg in hachu fairymax fairy-stockfish; do
  [ -x /usr/games/$pkg ] || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then apt-get install -y -qq "${need[@]}" >/dev/null
  else sudo -n apt-get install -y -qq "${need[@]}" >/dev/null; fi
fi
OUT=${MATCH_OUT:-target/matches}
mkdir -p "$OUT"

# Openings: PGN move lines (every engine can take moves; Fairy-Max has no setboard,
# HaChu's FEN letters are its own), 8 random plies kept within 100 cp by a depth-6 search.
openings() { # variant file [start]
  [ -s "$2" ] || "$KIRIN" openings --variant "$1" ${3:+--start "$3"} --count "$GAMES" \
    --seed 2026 --format pgn --output "$2" 2>/dev/null
}

run() { # name, then kirin match's words
  local name=$1; shift
  rm -f "$OUT/$name.pgn"
  echo "== $name: kirin match $*" | sed "s|$KIRIN|kirin|g"
  "$KIRIN" match "$@" -concurrency "${CONCURRENCY:-1}" -pgnout "$OUT/$name.pgn" -ratinginterval 0 >"$OUT/$name.log" 2>&1 || true
  grep -E '^(Score of|White wins|Elo difference|Ptnml|SPRT|Finished match)' "$OUT/$name.log" \
    | tail -6 || true
  grep -h '^\[Termination' "$OUT/$name.pgn" | sort | uniq -c || true
}

ROUNDS=$(( GAMES / 2 ))
for which in $WHICH; do
  case $which in
    chu)
      # HaChu refuses every move that repeats a position (even out of check), so the
      # referee and kirin play that repetition rule here.
      openings chu "$OUT/chu-openings.pgn"
      run chu -variant chu -rule repetition_rule=illegal-always \
        -engine cmd="$KIRIN" name=kirin option.VariantRules=repetition_rule=illegal-always ${KIRIN_OPTIONS:-} \
        -engine cmd=/usr/games/hachu name=hachu proto=xboard \
        -each tc="$TC" -games 2 -rounds "$ROUNDS" -repeat -recover \
        -openings file="$OUT/chu-openings.pgn" format=pgn ;;
    courier-fsf)
      openings courier "$OUT/courier-openings.pgn"
      run courier-fsf -variant courier \
        -engine cmd="$KIRIN" name=kirin ${KIRIN_OPTIONS:-} \
        -engine cmd=/usr/games/fairy-stockfish name=fairy-stockfish-11.1 ${FSF_OPTIONS:-} \
        -each tc="$TC" -games 2 -rounds "$ROUNDS" -repeat -recover \
        -openings file="$OUT/courier-openings.pgn" format=pgn ;;
    courier-fairymax)
      # Fairy-Max starts Courier from XBoard's array and cannot be given a position.
      openings courier "$OUT/courier-xboard-openings.pgn" xboard
      run courier-fairymax -variant courier -start xboard \
        -engine cmd="$KIRIN" name=kirin ${KIRIN_OPTIONS:-} \
        -engine cmd=/usr/games/fairymax name=fairymax proto=xboard start=xboard \
        -each tc="$TC" -games 2 -rounds "$ROUNDS" -repeat -recover \
        -openings file="$OUT/courier-xboard-openings.pgn" format=pgn ;;
    sho)
      if [ -z "${FSF_SOURCE:-}" ] || [ ! -x "$FSF_SOURCE" ]; then
        echo "== sho: set FSF_SOURCE to Fairy-Stockfish built from its source (shoshogi)" >&2
        continue
      fi
      openings sho "$OUT/sho-openings.pgn"
      run sho -variant sho \
        -engine cmd="$KIRIN" name=kirin ${KIRIN_OPTIONS:-} \
        -engine cmd="$FSF_SOURCE" name=fairy-stockfish-source variant=shoshogi \
        -each tc="$TC" -games 2 -rounds "$ROUNDS" -repeat -recover \
        -openings file="$OUT/sho-openings.pgn" format=pgn ;;
    tamerlane|duodecimal)
      # No other engine plays these: kirin over UCI against kirin over CECP.
      openings "$which" "$OUT/$which-openings.pgn"
      run "$which" -variant "$which" \
        -engine cmd="$KIRIN" name=kirin-uci \
        -engine cmd="$KIRIN" name=kirin-cecp proto=xboard \
          "option.Claim only mate and stalemate=false" \
        -each tc="$TC" -games 2 -rounds "$ROUNDS" -repeat -recover \
        -openings file="$OUT/$which-openings.pgn" format=pgn ;;
    *) echo "unknown match '$which'" >&2; exit 2 ;;
  esac
done
