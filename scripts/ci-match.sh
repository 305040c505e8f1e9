#!/usr/bin/env bash
# CI: short `kirin match` runs against the real reference engines (HaChu in chu over CECP,
# Fairy-Stockfish over UCI and Fairy-Max over CECP in courier) and kirin against itself in
# Tamerlane, two games each at 5+0.05; fails unless every game ended by the rules (no
# illegal move, time loss, false claim, crash or stall).
set -euo pipefail
cd "$(dirname "$0")/.."
export MATCH_OUT=target/ci-matches
scripts/reference-matches.sh 2 5+0.05 chu courier-fsf courier-fairymax tamerlane
games=$(cat "$MATCH_OUT"/*.pgn | grep -c '^\[Termination' || true)
bad=$(cat "$MATCH_OUT"/*.pgn | grep '^\[Termination' | grep -vc '"normal"' || true)
echo "ci-match: $games games, $bad not ended by the rules"
[ "$games" -ge 8 ] && [ "$bad" -eq 0 ]
