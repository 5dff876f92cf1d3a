#!/usr/bin/env bash
# npm test: checks the formatting, builds everything, then runs every test
# suite and fails when any test fails or no test ran: GoogleTest through
# ctest (the native preset), the JS API, Node CLI and npm package (node
# --test tests/js), the page in headless Chromium (node --test tests/web),
# the package in example apps built by bundlers (node --test tests/pkg), the
# set-up itself (node --test tests/setup: source packages by exact version,
# a real fetch of each, and npm start recovering after a failed configure),
# and 60 s of the fuzzer (scripts/fuzz.sh, which builds the fuzz preset).
#
# After the build, two lanes run side by side (the node suites spend much of
# their time waiting on browsers and child processes): the node suites of
# the package and the page in the foreground; ctest, the fuzzer and the
# set-up tests in the background, their output kept in
# build/test-logs/background.log and printed at the end. Each step says how
# long it took.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"
# step <name> <command...>: runs it and says how long it took.
step() {
  local name="$1" start=$SECONDS
  shift
  "$@"
  echo "npm test: $name took $((SECONDS - start)) s"
}
step setup bash scripts/setup.sh test
step format bash scripts/check-format.sh
step build bash scripts/build.sh

mkdir -p build/test-logs
background_log=build/test-logs/background.log
(
  set -e
  step ctest ctest --preset native -j "$(nproc 2>/dev/null || echo 2)"
  step fuzz bash scripts/fuzz.sh 60
  step "node --test (setup)" node --test --test-concurrency=1 tests/setup/
) >"$background_log" 2>&1 &
background=$!

status=0
step "node --test (js, web, pkg)" node --test --test-concurrency=1 tests/js/ tests/web/ tests/pkg/ || status=$?
background_status=0
wait "$background" || background_status=$?
echo "npm test: the background lane (ctest, fuzz, set-up), from $background_log:"
grep -E '^(npm test:|[0-9]+% tests passed|The following tests FAILED|fuzz:|# (tests|pass|fail) )' "$background_log" || true
if [ "$background_status" -ne 0 ]; then
  echo "npm test: the background lane failed; its last lines:" >&2
  tail -n 60 "$background_log" >&2
fi
echo "npm test: all took $SECONDS s"
[ "$status" -eq 0 ] && [ "$background_status" -eq 0 ]
