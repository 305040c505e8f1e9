#!/usr/bin/env bash
# Plays a short match in XBoard 4.9.1 under Xvfb and keeps the evidence:
#
#   scripts/xboard-match.sh VARIANT [GAMES] [MINUTES+INCREMENT]
#
# kirin plays a reference engine where one exists (HaChu for `chu`, Fairy-Max for
# `courier`), itself otherwise. VARIANT is a CECP name kirin offers (`kirin` answers
# `protover 2` with the list): besides normal/chess, courier and chu these are the
# engine-defined variants (sho, duodecimal, modern-courier, ...), which kirin describes
# to XBoard with `setup` and `piece` commands; XBoard then draws them and tests legality
# with those definitions. LEGALITY=false switches legality testing off; VARIANTS_FILE=FILE
# passes a definitions file to kirin (`--variants-file`), whose games it then offers.
# Written to target/xboard/VARIANT/: games.pgn (XBoard's PGN, one `{reason} result` per
# game), xboard.debug (all traffic), board-start.png and board.png (screenshots of the
# board near the start and near the end), summary.txt (per game: the result and its
# reason, kirin's own claim, kirin's clock at its last move). Exits non-zero if a game
# ended by a forfeit or an illegal move, if XBoard rejected a claim ("False win claim",
# "False draw claim", "... but bare king"), if a game's result differs from the result
# kirin claimed for it, or if XBoard hung (no game finished within the time limit);
# exits 3, showing the end of XBoard's output and traffic, if XBoard itself crashed.
# Legality testing is on where XBoard can check the variant's rules (courier); Chu's
# Lion-trading rules are beyond XBoard, so there it is off by default, as with HaChu.
# With legality testing on XBoard judges every claim of a win or a draw by its own rules
# (checkmate, and stalemate as it scores it; it knows no bare-king rule outside
# Shatranj): kirin's CECP option "Claim only mate and stalemate", on by default, makes it
# play by those results and claim only them and its own losses. With legality testing
# off XBoard takes every claim, so kirin gets the option switched off and plays and
# claims by the variant's own rules.
set -euo pipefail
cd "$(dirname "$0")/.."

VARIANT=${1:?usage: scripts/xboard-match.sh VARIANT [GAMES] [MINUTES+INCREMENT]}
GAMES=${2:-2}
TC=${3:-0:30+0.2}
BASE=${TC%+*}
INC=${TC#*+}

need=()
[ -x /usr/games/xboard ] || need+=(xboard)
command -v Xvfb >/dev/null || need+=(xvfb)
command -v import >/dev/null || need+=(imagemagick)
case $VARIANT in
  chu) [ -x /usr/games/hachu ] || need+=(hachu) ;;
  courier) [ -x /usr/games/fairymax ] || need+=(fairymax) ;;
esac
if [ ${#need[@]} -gt 0 ]; then
  echo "installing ${need[*]}..." >&2
  as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi; }
  # A fresh machine may have no package lists yet.
  as_root apt-get install -y -qq "${need[@]}" >/dev/null 2>&1 ||
    { as_root apt-get update -qq >/dev/null && as_root apt-get install -y -qq "${need[@]}" >/dev/null; }
fi
cargo build --release -q
KIRIN=$(pwd)/target/release/kirin
# A user's definitions (VARIANTS_FILE=path) make their games playable too.
if [ -n "${VARIANTS_FILE:-}" ]; then
  KIRIN="$KIRIN --variants-file $(cd "$(dirname "$VARIANTS_FILE")" && pwd)/$(basename "$VARIANTS_FILE")"
fi

legality=false
extra=()
kirin_rules=''
case $VARIANT in
  # No 50-move rule in Chu. HaChu refuses every move that repeats a position, even a
  # King's escape from check (docs/rules/chu.md), so kirin plays by that rule against it.
  chu) SECOND=/usr/games/hachu; XVARIANT=chu; extra=(-ruleMoves 0); kirin_rules=repetition_rule=illegal-always ;;
  courier) SECOND=/usr/games/fairymax; XVARIANT=courier; legality=true ;;
  chess|normal) SECOND=$KIRIN; XVARIANT=normal; legality=true ;;
  *)
    offered=$(printf 'xboard\nprotover 2\nquit\n' | $KIRIN | sed -n 's/.*variants="\([^"]*\)".*/\1/p')
    case ",$offered," in
      *",$VARIANT,"*) ;;
      *) echo "kirin does not offer '$VARIANT' to XBoard (it offers: $offered)" >&2; exit 2 ;;
    esac
    SECOND=$KIRIN; XVARIANT=$VARIANT; legality=true
    # Sho's Crown Prince is a second royal: with it either royal may be left attacked,
    # which XBoard cannot know (it forfeits such a King move as moving into check).
    # No 50-move rule in Shogi.
    [ "$VARIANT" = sho ] && legality=false && extra=(-ruleMoves 0)
    # Tamerlane's typed pawns, citadels, King swap and Pawn of Pawns are beyond XBoard:
    # legality testing off, and kirin's own 100-move cutoff instead of XBoard's 50.
    case $VARIANT in tamerlane*) legality=false; extra=(-ruleMoves 0) ;; esac
    ;;
esac
legality=${LEGALITY:-$legality}
# kirin's option: XBoard's verifiable results while XBoard tests legality, the variant's
# own rules otherwise.
claims_option="Claim only mate and stalemate=$([ "$legality" = true ] && echo 1 || echo 0)"
options=(-firstOptions "$claims_option${kirin_rules:+,Variant rules=$kirin_rules}")
[ "$SECOND" = "$KIRIN" ] && options+=(-secondOptions "$claims_option")

OUT=target/xboard/$VARIANT
rm -rf "$OUT"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

# A private X display.
DISPLAY_NUM=$(( 90 + RANDOM % 400 ))
Xvfb ":$DISPLAY_NUM" -screen 0 1400x1100x24 >/dev/null 2>&1 &
XVFB=$!
trap 'kill $XVFB 2>/dev/null || true' EXIT
export DISPLAY=":$DISPLAY_NUM"
sleep 1

/usr/games/xboard -variant "$XVARIANT" \
  -fcp "$KIRIN" -fd "$OUT" -scp "$SECOND" -sd "$OUT" \
  -mg "$GAMES" -tc "$BASE" -inc "$INC" -testLegality "$legality" "${extra[@]}" "${options[@]}" \
  -sgf "$OUT/games.pgn" -saveSettingsOnExit false -adjudicateDrawMoves 400 \
  -xponder -defaultHashSize 64 -popupExitMessage false -popupMoveErrors false -debug -nameOfDebugFile "$OUT/xboard.debug" \
  >"$OUT/xboard.out" 2>&1 &
XB=$!

# Wait for the match, screenshotting the board every few seconds; give up after a
# generous limit (each game at most 400 moves of BASE+INC).
limit=$(( GAMES * 600 + 120 ))
start=$SECONDS
while kill -0 $XB 2>/dev/null; do
  sleep 3
  # Keep only screenshots taken while XBoard's window is still up.
  if import -window root "png:$OUT/board.png.tmp" 2>/dev/null && kill -0 $XB 2>/dev/null; then
    # The first screenshot shows the start array, the last one the end of the match.
    [ -e "$OUT/board-start.png" ] || cp "$OUT/board.png.tmp" "$OUT/board-start.png"
    mv "$OUT/board.png.tmp" "$OUT/board.png"
  fi
  if (( SECONDS - start > limit )); then
    echo "XBoard did not finish within ${limit}s: a hang" | tee "$OUT/summary.txt"
    kill $XB
    exit 1
  fi
done

rm -f "$OUT/board.png.tmp"
# XBoard's own end: a signal (above 128) means XBoard itself crashed, not a game
# result; show what it and the engines said last and exit 3, so that a caller can tell
# a crash of the GUI from a fault in a game.
xboard_status=0
wait $XB || xboard_status=$?
if [ "$xboard_status" -gt 128 ]; then
  {
    echo "XBoard crashed (exit status $xboard_status, signal $((xboard_status - 128)))"
    echo "-- the end of XBoard's output:"
    grep -v '^ALSA\|^aplay' "$OUT/xboard.out" | tail -n 15
    echo "-- the end of XBoard's traffic with the engines:"
    tail -n 25 "$OUT/xboard.debug"
  } | tee "$OUT/summary.txt"
  exit 3
fi
finished=$(grep -cE '^\[Result "(1-0|0-1|1\/2-1\/2)"' "$OUT/games.pgn" 2>/dev/null || true)
bad=$(grep -ciE 'forfeit|illegal|false illegal|invalid move' "$OUT/games.pgn" || true)

# Each game against kirin's own account of it. The PGN gives XBoard's result and reason
# ({reason} result at the end of a game); the debug log gives, per game (from `new` to
# the `result` XBoard sends at its end), kirin's claims (its output lines `1-0 {reason}`,
# a claim that arrives after the game ended counting for that game) and the clock XBoard
# last gave kirin (`time`, centiseconds). A game fails if XBoard rejected a claim or if
# its result is not the one kirin claimed.
kirin_labels=first
[ "$SECOND" = "$KIRIN" ] && kirin_labels="first second"
games_report() {
  awk -v labels="$kirin_labels" '
    function finish_pgn() {
      if (!in_game) return
      text = movetext
      gsub(/[ \t\r\n]+/, " ", text)
      sub(/ +$/, "", text)
      reason[games] = "(none)"
      if (match(text, /\{[^}]*\} *(1-0|0-1|1\/2-1\/2|\*)$/)) {
        tail = substr(text, RSTART)
        reason[games] = substr(tail, 2, index(tail, "}") - 2)
      }
      in_game = 0
    }
    BEGIN { n = split(labels, l, " "); for (i = 1; i <= n; i++) kirin[l[i]] = 1 }
    FNR == NR {
      if ($0 ~ /^\[Event /) { finish_pgn(); games++; in_game = 1; movetext = ""; next }
      if ($0 ~ /^\[Result /) { r = $2; gsub(/[]"]/, "", r); result[games] = r; next }
      if ($0 !~ /^\[/) movetext = movetext " " $0
      next
    }
    FNR == 1 { finish_pgn() }
    $0 ~ /^[0-9]+ [<>](first|second) ?: / {
      dir = substr($2, 1, 1)
      who = ($2 ~ /first/) ? "first" : "second"
      msg = $0
      sub(/^[0-9]+ [<>](first|second) ?: /, "", msg)
      if (dir == ">" && who == "first" && msg == "new") started = 1
      else if (dir == ">" && who == "first" && msg ~ /^result /) {
        ended++; started = 0; clock[ended] = last_time; last_time = ""
        split(msg, w, " "); xresult[ended] = w[2]
      } else if (dir == ">" && who == "first" && msg ~ /^time [0-9]+$/) {
        split(msg, w, " "); last_time = w[2]
      } else if (dir == "<" && kirin[who] && msg ~ /^(1-0|0-1|1\/2-1\/2) \{/) {
        g = started ? ended + 1 : ended
        if (g < 1) g = 1
        claims[g] = claims[g] (claims[g] == "" ? "" : "; ") msg
      }
    }
    END {
      finish_pgn()
      total = games > ended ? games : ended
      for (g = 1; g <= total; g++) {
        r = (g in result) ? result[g] : xresult[g]
        line = sprintf("game %d: %s {%s}", g, r, reason[g])
        line = line "; kirin claimed: " (claims[g] == "" ? "nothing" : claims[g])
        if (clock[g] != "") line = line sprintf("; kirin'"'"'s clock at its last move: %.1f s", clock[g] / 100)
        why = ""
        if (reason[g] ~ /False|but bare king|[Ff]orfeit|[Ii]llegal/)
          why = "XBoard rejected a claim or forfeited a player: {" reason[g] "}"
        n = split(claims[g], c, "; ")
        for (i = 1; i <= n; i++) {
          split(c[i], w, " ")
          if (w[1] != r) why = why (why == "" ? "" : "; ") "kirin claimed \"" c[i] "\", the game ended " r
        }
        print line
        if (why != "") { print "  FAIL game " g ": " why; failed++ }
      }
      exit failed > 0
    }' "$OUT/games.pgn" "$OUT/xboard.debug"
}
{
  echo "variant $VARIANT: $finished of $GAMES games finished; first engine kirin, second $(basename "${SECOND%% *}"); legality testing $legality, kirin option \"$claims_option\""
  grep -E '^\[(White|Black|Result) ' "$OUT/games.pgn" | paste - - -
  echo "forfeits or illegal moves: $bad"
} | tee "$OUT/summary.txt"
checked=0
games_report | tee -a "$OUT/summary.txt" || checked=1
[ "$finished" -ge 1 ] && [ "$bad" -eq 0 ] && [ "$checked" -eq 0 ]
