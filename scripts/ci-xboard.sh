#!/usr/bin/env bash
# CI's XBoard session: one short game each of chu (kirin against HaChu), courier (against
# Fairy-Max, legality testing on) and Tamerlane (kirin against itself, legality testing
# off) in XBoard 4.9.1 under Xvfb, through scripts/xboard-match.sh, which installs what it
# needs. Fails on a forfeit, an illegal move or a hang (no decided game in time).
# Tamerlane is played without the King swap (scripts/tamerlane-xboard.toml): XBoard has
# no move that exchanges two pieces, so a swap would leave its board behind the game's.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
for run in "chu 0:15+0.15" "courier 0:10+0.1" "tamerlane-noswap 0:15+0.15"; do
  set -- $run
  echo "== XBoard: $1 at $2"
  if ! VARIANTS_FILE=scripts/tamerlane-xboard.toml scripts/xboard-match.sh "$1" 1 "$2"; then
    echo "XBoard session failed: $1 (see target/xboard/$1/)" >&2
    status=1
  fi
done
exit $status
