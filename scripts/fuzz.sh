#!/usr/bin/env bash
# Runs kirin's fuzz targets (engine-tests/fuzz) coverage-guided, with libFuzzer through
# cargo-bolero, which it installs if missing (from crates.io; it builds libFuzzer from
# its bundled sources with the machine's C++ compiler).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# SECONDS (default 60) per target; TARGET among those listed below (default: all);
# FUZZ_RUNS=N also ends a target's run after N inputs, whichever comes first.
# Each run starts from the target's corpus in engine-tests/fuzz/__fuzz__/<target>/corpus
# and adds what widens its coverage there, then trims it to the inputs that reach the
# most code edges (scripts/fuzz-trim.py), so that what is committed stays small; a crash is written
# to .../crashes and ends the script with a failure. Under `cargo test` every target replays that corpus and a
# few hundred random inputs, so what a long run found is checked by every test run.
# Prints, per target, the runs made, the runs per second and the coverage reached.
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_PER=${1:-60}
shift $(( $# > 0 ? 1 : 0 ))
ALL=(fen::fen moves::moves definitions::definitions search::search uci::uci uci::usi cecp::cecp
  engine_output::engine_output web::web web::analysis_messages)
TARGETS=("${@:-${ALL[@]}}")

if ! cargo bolero --version >/dev/null 2>&1; then
  cargo install cargo-bolero --version 0.13.5 --locked --no-default-features -q
fi

# Trims TARGET's corpus (scripts/fuzz-trim.py) to the inputs that reach the edges the
# whole corpus reaches, greedily, at most 300 (60 for the slow protocol and web targets, which
# `cargo test` replays too), by a libFuzzer merge run of the target's fuzz binary.
trim() {
  local target=$1 dir="engine-tests/fuzz/__fuzz__/${1//::/__}/corpus" most=300 bin empty
  case $target in uci::*|cecp::*|web::*) most=60 ;; esac
  [ -d "$dir" ] || return 0
  bin=$(ls -t target/fuzz/build_*/x86_64-unknown-linux-gnu/fuzz/deps/fuzz-* | grep -v '\.d$' | head -1)
  empty=$(mktemp -d)
  BOLERO_TEST_NAME=$target BOLERO_LIBTEST_HARNESS=1 \
    BOLERO_LIBFUZZER_ARGS="-merge=1 -merge_control_file=$empty.control $empty $dir" \
    "$bin" "$target" --exact --nocapture --quiet --test-threads 1 >"$LOGS/${target//::/__}.trim.log" 2>&1
  python3 scripts/fuzz-trim.py "$empty.control" "$dir" "$most" >>"$LOGS/${target//::/__}.trim.log"
  rm -rf "$empty" "$empty.control"
}

LOGS=${FUZZ_LOGS:-target/fuzz-logs}
mkdir -p "$LOGS"
printf '| target | runs | runs/s | coverage (libFuzzer cov) | result |\n|---|---|---|---|---|\n'
status=0
for target in "${TARGETS[@]}"; do
  log="$LOGS/${target//::/__}.log"
  # Inputs up to 1 KiB from the start (libFuzzer would otherwise grow its length limit
  # slowly from a few bytes, and a structured case needs dozens to say anything); 4 GiB
  # of memory at most; 120 s for one input is a hang.
  if cargo bolero test -p kirin-fuzz "$target" --engine libfuzzer --sanitizer NONE \
      -T "${SECONDS_PER}sec" ${FUZZ_RUNS:+--runs "$FUZZ_RUNS"} --timeout 120s \
      --engine-args=-max_len=1024 --engine-args=-len_control=0 --engine-args=-rss_limit_mb=4096 >"$log" 2>&1; then
    result=ok
  else
    result="FAILED (see $log)"
    status=1
  fi
  trim "$target" || result="$result (corpus not trimmed)"
  # libFuzzer's last status line: `#RUNS DONE cov: N ft: N ... exec/s: N ...`.
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
  runs=$(sed -E 's/^#([0-9]+).*/\1/' <<<"$last")
  rate=$(grep -oE 'exec/s: [0-9]+' <<<"$last" | awk '{print $2}')
  cov=$(grep -oE 'cov: [0-9]+' <<<"$last" | awk '{print $2}')
  printf '| %s | %s | %s | %s | %s |\n' "$target" "${runs:-?}" "${rate:-?}" "${cov:-?}" "$result"
done
exit $status
