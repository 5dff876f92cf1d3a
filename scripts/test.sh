#!/usr/bin/env bash
# npm test: builds everything, then runs every test suite and fails when any
# test fails or no test ran: GoogleTest through ctest (the native preset), the
# JS API, Node CLI and npm package (node --test tests/js), the page in
# headless Chromium (node --test tests/web), the package in example apps
# built by bundlers (node --test tests/pkg), the set-up itself (node --test
# tests/setup: source packages by exact version, a real fetch of each, and
# npm start recovering after a failed configure), and 60 s of the fuzzer
# (scripts/fuzz.sh, which builds the fuzz preset).
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
step build bash scripts/build.sh
step ctest ctest --preset native -j "$(nproc 2>/dev/null || echo 2)"
step "node --test (js, web, pkg)" node --test --test-concurrency=1 tests/js/ tests/web/ tests/pkg/
step "node --test (setup)" node --test --test-concurrency=1 tests/setup/
step fuzz bash scripts/fuzz.sh 60
echo "npm test: all took $SECONDS s"
