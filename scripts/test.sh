#!/usr/bin/env bash
# npm test: builds everything, then runs every test suite and fails when any
# test fails or no test ran: GoogleTest through ctest (the native preset), the
# JS API, Node CLI and npm package (node --test tests/js), the page in
# headless Chromium (node --test tests/web), the package in example apps
# built by esbuild and Vite (node --test tests/pkg), and 60 s of the fuzzer
# (scripts/fuzz.sh, which builds the fuzz preset).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"
bash scripts/build.sh
ctest --preset native -j "$(nproc 2>/dev/null || echo 2)"
node --test --test-concurrency=1 tests/js/ tests/web/ tests/pkg/
bash scripts/fuzz.sh 60
