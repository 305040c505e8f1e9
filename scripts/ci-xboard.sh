#!/usr/bin/env bash
# CI's XBoard session: one short game each of chu (kirin against HaChu), courier (against
# Fairy-Max, legality testing on) and Tamerlane (kirin against itself, legality testing
# off) in XBoard 4.9.1 under Xvfb, through scripts/xboard-match.sh, which installs what it
# needs. Fails on a forfeit, an illegal move, a claim XBoard rejected ("False win claim",
# "... but bare king"), a result other than the one kirin claimed, or a hang (no decided
# game in time). A chu game with legality testing on (LEGALITY=true), where XBoard judges
# kirin's claims by its own rules, comes first; its evidence is kept in
# target/xboard/chu-legality-true/.
# Tamerlane is played without the King swap (scripts/tamerlane-xboard.toml): XBoard has
# no move that exchanges two pieces, so a swap would leave its board behind the game's.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
for run in "chu 0:15+0.15 true" "chu 0:15+0.15" "courier 0:10+0.1" "tamerlane-noswap 0:15+0.15"; do
  set -- $run
  echo "== XBoard: $1 at $2${3:+, legality testing $3}"
  out=target/xboard/$1
  ok=true
  # A crash of XBoard itself (exit 3) fails too: its evidence (the end of XBoard's
  # output and traffic) is printed, as for the heap overflow in XBoard's string options
  # that kirin's feature line now avoids (docs/protocols.md).
  LEGALITY=${3:-} VARIANTS_FILE=scripts/tamerlane-xboard.toml scripts/xboard-match.sh "$1" 1 "$2" || ok=false
  if [ -n "${3:-}" ]; then
    # Keep the evidence apart from the default run's, which would overwrite it.
    rm -rf "$out-legality-$3"
    if [ -d "$out" ]; then mv "$out" "$out-legality-$3"; fi
    out=$out-legality-$3
  fi
  if [ "$ok" = false ]; then
    echo "XBoard session failed: $1 (see $out/)" >&2
    status=1
  fi
done
exit $status
