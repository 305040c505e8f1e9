#!/usr/bin/env bash
# CI's XBoard session: one short game each of chu (kirin against HaChu), courier (against
# Fairy-Max, legality testing on) and tamerlane (kirin against itself, legality testing
# off) in XBoard 4.9.1 under Xvfb, through scripts/xboard-match.sh, which installs what it
# needs. Fails on a forfeit, an illegal move or a hang (no decided game in time).
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
for run in "chu 0:15+0.15" "courier 0:10+0.1" "tamerlane 0:15+0.15"; do
  set -- $run
  echo "== XBoard: $1 at $2"
  if ! scripts/xboard-match.sh "$1" 1 "$2"; then
    echo "XBoard session failed: $1 (see target/xboard/$1/)" >&2
    status=1
  fi
done
exit $status
