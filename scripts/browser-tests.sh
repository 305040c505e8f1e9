#!/usr/bin/env bash
# Browser tests of `kirin serve`'s web board: a headless Chromium, driven through
# playwright-core from Node's own test runner (engine-tests/browser/*.test.mjs), plays the
# page as a person would and checks it against the server's JSON API (docs/web.md).
#
#   scripts/browser-tests.sh             builds kirin (cargo build --release) and runs them
#   KIRIN=path/to/kirin scripts/...      uses that binary, no build
#
# Installs what is missing (as root or through sudo -n): Debian's chromium, and nodejs and
# npm; then playwright-core, pinned by engine-tests/browser/package-lock.json, into
# target/browser-tests/node_modules (no browser download: Debian's /usr/bin/chromium is the
# browser). Starts the server on a free port of 127.0.0.1, stops it at the end whatever
# happens, and exits non-zero on any failure. Screenshots of every game and of the tested
# moves land in target/browser-tests/screenshots/ (CI keeps them).
# Environment: KIRIN, CHROMIUM (default /usr/bin/chromium), KIRIN_ASSETS_DIR (passed on to
# the server when set: it then serves the page files from that folder, for development).
set -euo pipefail
case "${KIRIN:-}" in ""|/*) ;; */*) KIRIN=$PWD/$KIRIN ;; esac
cd "$(dirname "$0")/.."
ROOT=$PWD
WORK=$ROOT/target/browser-tests
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
export CHROMIUM

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi; }
apt_install() {
  echo "browser-tests: installing $* (Debian)" >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null 2>&1 ||
    { as_root apt-get update -qq >/dev/null &&
      as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null; }
}

need=()
[ -x "$CHROMIUM" ] || need+=(chromium)
command -v node >/dev/null || need+=(nodejs)
command -v npm >/dev/null || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then apt_install "${need[@]}"; fi
[ -x "$CHROMIUM" ] || { echo "browser-tests: no Chromium at $CHROMIUM" >&2; exit 1; }
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 20 ] || { echo "browser-tests: Node 20 or later needed (node $(node --version))" >&2; exit 1; }

# playwright-core, as the lock file pins it, outside the repository's sources.
mkdir -p "$WORK"
if ! cmp -s engine-tests/browser/package-lock.json "$WORK/package-lock.json" ||
   ! cmp -s engine-tests/browser/package.json "$WORK/package.json" ||
   [ ! -f "$WORK/node_modules/playwright-core/package.json" ]; then
  cp engine-tests/browser/package.json engine-tests/browser/package-lock.json "$WORK/"
  (cd "$WORK" && { npm ci --no-audit --no-fund --loglevel=error ||
                   npm install --no-audit --no-fund --loglevel=error; }) >&2
fi

if [ -z "${KIRIN:-}" ]; then
  cargo build --release --quiet
  KIRIN=$ROOT/target/release/kirin
fi
[ -x "$KIRIN" ] || { echo "browser-tests: no kirin binary at $KIRIN" >&2; exit 1; }

SHOTS=$WORK/screenshots
rm -rf "$SHOTS"
mkdir -p "$SHOTS"
LOG=$WORK/server.log
server_pid=
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$server_pid" 2>/dev/null || true
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Starts the server on port $1 and sets KIRIN_URL once it answers; fails if the port is
# taken, or the server died or never answered.
start_server() {
  local port=$1 url
  "$KIRIN" serve --port "$port" >"$LOG" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 150); do
    if ! kill -0 "$server_pid" 2>/dev/null; then
      wait "$server_pid" 2>/dev/null || true
      server_pid=
      return 1
    fi
    url=$(grep -o "http://127\.0\.0\.1:$port" "$LOG" | head -n 1 || true)
    if [ -n "$url" ] &&
       node -e 'fetch(process.argv[1]).then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))' \
         "$url/api/variants"; then
      KIRIN_URL=$url/
      return 0
    fi
    sleep 0.2
  done
  cleanup
  server_pid=
  return 1
}

KIRIN_URL=
for _ in 1 2 3 4 5 6; do
  port=$((20000 + RANDOM % 20000))
  start_server "$port" && break
  echo "browser-tests: kirin serve --port $port did not come up:" >&2
  tail -n 5 "$LOG" >&2 || true
done
[ -n "$KIRIN_URL" ] || { echo "browser-tests: could not start kirin serve" >&2; exit 1; }
echo "browser-tests: kirin serve at $KIRIN_URL${KIRIN_ASSETS_DIR:+ (page files from $KIRIN_ASSETS_DIR)}" >&2

export KIRIN_URL PLAYWRIGHT_DIR=$WORK SCREENSHOT_DIR=$SHOTS
status=0
node --test --test-concurrency=1 engine-tests/browser/*.test.mjs || status=$?
if ! kill -0 "$server_pid" 2>/dev/null; then
  echo "browser-tests: kirin serve died during the tests; its log:" >&2
  tail -n 30 "$LOG" >&2
  status=1
fi
echo "browser-tests: screenshots in ${SHOTS#"$ROOT"/}: $(cd "$SHOTS" && ls | tr '\n' ' ')" >&2
exit $status
