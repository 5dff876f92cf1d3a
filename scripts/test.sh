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
# the package and the page in the foreground; ctest, the fuzzer, the set-up
# tests and the Node CLI's suites in the background, their output kept in
# build/test-logs/background.log and printed at the end. Each step says how
# long it took.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"
# step <name> <command...>: runs it and says how long it took.
step() {
  local name="$1" start=$SECONDS rc=0
  shift
  # `|| rc=$?`, not set -e: a caller's `step ... || status=$?` turns set -e
  # off inside the function, and a failed suite then returned 0.
  "$@" || rc=$?
  echo "npm test: $name took $((SECONDS - start)) s"
  return "$rc"
}
step setup bash scripts/setup.sh test
step format bash scripts/check-format.sh
step build bash scripts/build.sh

mkdir -p build/test-logs
background_log=build/test-logs/background.log
# The Node CLI's suites (child processes, little waiting) join the background
# lane so the two lanes take about as long (measured: 2026-12-02; ranks and
# compare, the CLIs' imbalance and diff, moved on 2026-12-07: the
# foreground lane took 595 s, the background 552 s).
background_suites=(tests/js/cli.test.mjs tests/js/narrow.test.mjs tests/js/differential.test.mjs
  tests/js/bad_input.test.mjs tests/js/ranks.test.mjs tests/js/compare.test.mjs)
foreground_suites=()
for f in tests/js/*.test.mjs tests/web/*.test.mjs tests/pkg/*.test.mjs; do
  case " ${background_suites[*]} " in *" $f "*) ;; *) foreground_suites+=("$f") ;; esac
done
(
  set -e
  step ctest ctest --preset native -j "$(nproc 2>/dev/null || echo 2)"
  # A fixed seed: the same inputs on every machine, so a finding here is
  # found again by the same command (a longer hunt: scripts/fuzz.sh 600).
  step fuzz bash scripts/fuzz.sh 60 -seed=20261202
  step "node --test (setup, Node CLI)" node --test --test-concurrency=1 tests/setup/ "${background_suites[@]}"
) >"$background_log" 2>&1 &
background=$!

status=0
step "node --test (js, web, pkg)" node --test --test-concurrency=1 "${foreground_suites[@]}" || status=$?
background_status=0
wait "$background" || background_status=$?
echo "npm test: the background lane (ctest, fuzz, set-up, Node CLI), from $background_log:"
grep -E '^(npm test:|[0-9]+% tests passed|The following tests FAILED|fuzz:|# (tests|pass|fail) )' "$background_log" || true
if [ "$background_status" -ne 0 ]; then
  echo "npm test: the background lane failed; its last lines:" >&2
  tail -n 60 "$background_log" >&2
fi
echo "npm test: all took $SECONDS s"
[ "$status" -eq 0 ] && [ "$background_status" -eq 0 ]
