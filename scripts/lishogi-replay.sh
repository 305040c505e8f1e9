#!/usr/bin/env bash
# Replays kirin's Chu Shogi games (USI, VariantRules preset=lishogi) through lishogi's
# rules library shogiops and checks every position (SFEN) and move (USI text) against it.
# See scripts/lishogi-replay.mjs and docs/protocols.md ("Replaying kirin's Chu games through lishogi").
#
# Usage: scripts/lishogi-replay.sh [GAMES] [PLIES] [extra options of lishogi-replay.mjs]
#   GAMES  games to play (default 20: half random, half kirin's own choice)
#   PLIES  the longest game in plies (default 200)
#   e.g.   scripts/lishogi-replay.sh 40 300 --seed 7 --verbose
#
# Environment:
#   KIRIN         the kirin binary (default $CARGO_TARGET_DIR or target, /release/kirin;
#                 built with cargo build --release when missing)
#   SHOGIOPS_DIR  npm prefix for shogiops (default target/lishogi-replay, untracked)
#
# shogiops is pinned; it is installed with `npm install --no-save --prefix`, never into
# the repository's tracked files. Exit status: 0 all identical, 1 a difference, 2 setup.
set -euo pipefail

SHOGIOPS_VERSION=0.18.0

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

die() {
  echo "lishogi-replay: $*" >&2
  exit 2
}

games=${1:-20}
plies=${2:-200}
shift $(($# < 2 ? $# : 2))
[[ $games =~ ^[0-9]+$ ]] || die "GAMES must be a number, got '$games'"
[[ $plies =~ ^[0-9]+$ ]] || die "PLIES must be a number, got '$plies'"

command -v node >/dev/null 2>&1 || die "node is not installed (Node.js 18 or later is needed)"
command -v npm >/dev/null 2>&1 || die "npm is not installed (it comes with Node.js)"
node_major=$(node -p 'process.versions.node.split(".")[0]')
((node_major >= 18)) || die "Node.js 18 or later is needed, found $(node --version)"

prefix=${SHOGIOPS_DIR:-$root/target/lishogi-replay}
pkg=$prefix/node_modules/shogiops/package.json
installed=$( [[ -f $pkg ]] && node -p "require('$pkg').version" 2>/dev/null || true)
if [[ $installed != "$SHOGIOPS_VERSION" ]]; then
  echo "lishogi-replay: installing shogiops@$SHOGIOPS_VERSION into $prefix" >&2
  mkdir -p "$prefix"
  npm install --no-save --no-audit --no-fund --prefix "$prefix" "shogiops@$SHOGIOPS_VERSION" >&2 ||
    die "npm install shogiops@$SHOGIOPS_VERSION into $prefix failed"
  [[ -f $pkg ]] || die "npm reported success but $pkg is missing"
fi

kirin=${KIRIN:-${CARGO_TARGET_DIR:-target}/release/kirin}
if [[ ! -x $kirin ]]; then
  [[ -z ${KIRIN:-} ]] || die "KIRIN=$kirin is not an executable file"
  echo "lishogi-replay: building $kirin" >&2
  cargo build --release >&2 || die "cargo build --release failed"
fi

exec node scripts/lishogi-replay.mjs --kirin "$kirin" --shogiops "$prefix" \
  --games "$games" --plies "$plies" "$@"
