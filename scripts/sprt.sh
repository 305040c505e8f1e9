#!/usr/bin/env bash
# An SPRT between two kirin builds in one game, refereed by `kirin match`: the way every
# search and evaluation change of docs/search.md was accepted or refused.
#
#   scripts/sprt.sh NEW BASE VARIANT [TC] [MAX_GAMES] [ELO0] [ELO1]
#
# NEW and BASE are kirin binaries; TC defaults to 3+0.03; at most MAX_GAMES (default
# 600) games in pairs with colours reversed, from openings made by `kirin openings`
# (kept in target/sprt/), CONCURRENCY games at a time (default 2); the test stops at the
# SPRT's bounds ([ELO0, ELO1], default [0, 10], alpha = beta = 0.05). Extra words for
# `kirin match` can be given in MATCH_ARGS (e.g. a -rule), and engine options of one side
# in NEW_OPTIONS and BASE_OPTIONS. A game still going after MAXMOVES moves (default 1000)
# is adjudicated a draw: in a game without a move rule (Sho) two Kings and a few pieces
# can wander for tens of thousands of moves without repeating a position four times, and
# one such game held a whole test up. Two threads against
# one, the same binary on both sides, one game at a time so that the two threads have
# the two cores:
#
#   NEW_OPTIONS=option.Threads=2 CONCURRENCY=1 MATCH_ARGS="-maxmoves 200 -draw movenumber=60
#   movecount=8 score=10 -resign movecount=4 score=1000" scripts/sprt.sh K K courier 10+0.1 300 0 25
#
# The PGN and the log go to target/sprt/.
set -euo pipefail
cd "$(dirname "$0")/.."
NEW=$1
BASE=$2
VARIANT=$3
TC=${4:-3+0.03}
MAX=${5:-600}
ELO0=${6:-0}
ELO1=${7:-10}
OUT=target/sprt
mkdir -p "$OUT"
OPENINGS="$OUT/$VARIANT-openings.epd"
[ -s "$OPENINGS" ] || "$BASE" openings --variant "$VARIANT" --count 300 --seed 17 \
  --output "$OPENINGS" 2>/dev/null
NAME="$VARIANT-$(date +%H%M%S)"
# shellcheck disable=SC2086
"$NEW" match -variant "$VARIANT" -maxmoves "${MAXMOVES:-1000}" ${MATCH_ARGS:-} \
  -engine cmd="$NEW" name=new ${NEW_OPTIONS:-} -engine cmd="$BASE" name=base ${BASE_OPTIONS:-} \
  -each tc="$TC" -games 2 -rounds $((MAX / 2)) -repeat -concurrency "${CONCURRENCY:-2}" \
  -openings file="$OPENINGS" format=epd order=random -srand 7 \
  -sprt elo0="$ELO0" elo1="$ELO1" alpha=0.05 beta=0.05 -ratinginterval 20 \
  -pgnout "$OUT/$NAME.pgn" >"$OUT/$NAME.log" 2>&1 || true
grep -E '^(Score of|Elo difference|Ptnml|SPRT|Finished match)' "$OUT/$NAME.log" | tail -5
