#!/usr/bin/env bash
# Soak test (issue 19): many fast self-play games of every built-in game through
# `kirin match`, with each engine process kept from game to game (`restart=off`) and its
# hash size and thread count changed before every game (`cycle.`), counting everything
# that is not a game played to its end by the rules.
#
#   scripts/soak.sh [GAMES] [TC] [GAME...]
#
# GAMES per game (default 1000), TC (default 10+0.1), GAME... among `kirin variants`
# (default: all of them). Environment:
#   KIRIN        the kirin binary (default: built here with cargo build --release)
#   SOAK_OUT     where the openings, PGNs, logs and engines' standard error go
#                (default target/soak)
#   CONCURRENCY  games at once (default: one per core, at most 2)
#   HASHES       hash sizes in MiB cycled game by game (default 1,16,64,256; the second
#                engine takes them in reverse order)
#   THREADS      thread counts cycled game by game (default 1,2,2: its length, 3, is
#                coprime to the 4 hash sizes, so that every pair of values meets
#                within 12 games)
#   MAXMOVES     adjudicate a draw after this many moves (default: none)
#
# kirin plays itself over UCI against itself over CECP in every game XBoard can play
# (kirin's CECP `variants` feature), over UCI on both sides in the others. Openings:
# GAMES/2 lines from `kirin openings` (seed 2026, 8 random plies), each played with
# both colours. Every game slot keeps its two processes for all its games; a process
# that failed is replaced (kirin match's -recover), and the failure is counted.
#
# Standard output: a markdown table, one row per game: games played, crashes and
# disconnections, illegal moves, time losses, false claims, stalls, other failures
# (another protocol error), and panics found in the engines' standard error. The exit
# status is 1 if any of these is not 0 or a match did not play all its games.
set -euo pipefail
cd "$(dirname "$0")/.."

GAMES=${1:-1000}
TC=${2:-10+0.1}
shift $(( $# > 2 ? 2 : $# ))
if [ -z "${KIRIN:-}" ]; then
  cargo build --release -q
  KIRIN=$(pwd)/${CARGO_TARGET_DIR:-target}/release/kirin
fi
OUT=${SOAK_OUT:-target/soak}
cores=$(nproc 2>/dev/null || echo 1)
CONCURRENCY=${CONCURRENCY:-$(( cores < 2 ? cores : 2 ))}
HASHES=${HASHES:-1,16,64,256}
THREADS=${THREADS:-1,2,2}
mkdir -p "$OUT"

# The games: every variant `kirin variants` lists (its lines that do not start with a
# space; the indented ones are the options of the game above them).
ALL=$("$KIRIN" variants | awk '/^[^ ]/ {print $1}')
WHICH=${*:-$ALL}
for game in $WHICH; do
  grep -qx -- "$game" <<<"$ALL" || { echo "soak: unknown game '$game' (kirin variants)" >&2; exit 2; }
done
# The games kirin offers over CECP (chess is CECP's `normal`).
CECP=$(printf 'xboard\nprotover 2\nquit\n' | "$KIRIN" | sed -n 's/.* variants="\([^"]*\)".*/\1/p' \
  | tr ',' '\n' | sed 's/^normal$/chess/')
reversed=$(tr ',' '\n' <<<"$HASHES" | tac | paste -sd, -)

failed=0
rows=()
for game in $WHICH; do
  pairs=$(( (GAMES + 1) / 2 ))
  openings="$OUT/openings/$game-$pairs.pgn"
  mkdir -p "$OUT/openings"
  if [ ! -s "$openings" ]; then
    "$KIRIN" openings --variant "$game" --count "$pairs" --seed 2026 --format pgn \
      --output "$openings.part" 2>"$OUT/openings/$game.log"
    mv "$openings.part" "$openings"
  fi
  pgn="$OUT/$game.pgn" log="$OUT/$game.log"
  rm -f "$pgn" "$log" "$OUT/$game".*.stderr
  first=(-engine cmd="$KIRIN" name=kirin-uci restart=off
         cycle.Hash="$HASHES" cycle.Threads="$THREADS" stderr="$OUT/$game.uci.stderr")
  if grep -qx -- "$game" <<<"$CECP"; then
    # Kirin's CECP side claims results by the game's own rules (which the referee
    # checks) and starts from the variant's default start, as the openings do.
    second=(-engine cmd="$KIRIN" name=kirin-cecp proto=xboard restart=off
            cycle.memory="$reversed" cycle.cores="$THREADS"
            "option.XBoard start positions=false" "option.Claim only mate and stalemate=false"
            stderr="$OUT/$game.cecp.stderr")
    engines="UCI vs CECP"
  else
    second=(-engine cmd="$KIRIN" name=kirin-uci2 restart=off
            cycle.Hash="$reversed" cycle.Threads="$THREADS" stderr="$OUT/$game.uci2.stderr")
    engines="UCI vs UCI"
  fi
  echo "== $game: $GAMES games at $TC, $engines, concurrency $CONCURRENCY" >&2
  started=$(date +%s)
  status=0
  "$KIRIN" match -variant "$game" "${first[@]}" "${second[@]}" -each tc="$TC" \
    -games "$GAMES" -repeat -recover -concurrency "$CONCURRENCY" \
    -openings file="$openings" format=pgn order=sequential \
    ${MAXMOVES:+-maxmoves "$MAXMOVES"} -ratinginterval 0 -event "kirin soak" \
    -pgnout "$pgn" >"$log" 2>&1 || status=$?
  minutes=$(( ($(date +%s) - started + 30) / 60 ))

  # Each game's end as kirin match says it: `Finished game N (A vs B): RESULT {REASON}`.
  # The reasons of failures are the referee's words (src/arena/referee.rs).
  read -r played crash illegal timeloss claim stall < <(awk '
    /^Finished game / {
      n++
      reason = $0; sub(/^[^{]*\{/, "", reason); sub(/\}[^}]*$/, "", reason)
      if (reason ~ / disconnects$| cannot start /) crash++
      else if (reason ~ / makes an illegal move: /) illegal++
      else if (reason ~ / loses on time /) timeloss++
      else if (reason ~ / makes an invalid result claim: /) claim++
      else if (reason ~ /connection stalls/) stall++
    }
    END { print n+0, crash+0, illegal+0, timeloss+0, claim+0, stall+0 }' "$log")
  # Whatever else the PGN does not call a normal end or an adjudication (another
  # protocol error: a `bestmove (none)`, a rejected command) is counted apart.
  abnormal=$(grep -c '^\[Termination "\(abandoned\|stalled connection\|time forfeit\|rules infraction\)"\]' \
    "$pgn" 2>/dev/null || true)
  other=$(( ${abnormal:-0} - crash - illegal - timeloss - claim - stall ))
  # With panic=abort a panic ends the process (a crash above); its message names where.
  panics=$(cat "$OUT/$game".*.stderr 2>/dev/null | grep -c 'panicked' || true)
  verdict=ok
  if [ "$status" -ne 0 ] || [ "$played" -ne "$GAMES" ] \
    || [ $(( crash + illegal + timeloss + claim + stall + other + panics )) -ne 0 ]; then
    verdict="FAIL"
    [ "$status" -ne 0 ] && verdict+=" (kirin match exit $status)"
    [ "$played" -ne "$GAMES" ] && verdict+=" ($played of $GAMES played)"
    failed=1
  fi
  rows+=("| $game | $engines | $played | $crash | $illegal | $timeloss | $claim | $stall | $other | $panics | $minutes | $verdict |")
  echo "   ${rows[-1]}" >&2
done

echo "Soak at $TC, $GAMES games per game, concurrency $CONCURRENCY; Hash $HASHES MiB (second engine: $reversed), Threads $THREADS, cycled game by game in one process per engine and game slot."
echo
echo "| game | engines | games | crashes | illegal moves | time losses | false claims | stalls | other failures | panics | minutes | result |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
exit "$failed"
