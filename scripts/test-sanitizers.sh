#!/usr/bin/env bash
# The bad-input suite (every file of tests/fixtures/bad and the seeded
# campaign, through the library and the native CLI; the filter tests) under
# both sanitizer presets: GCC's AddressSanitizer + UndefinedBehaviorSanitizer
# (native-asan) and clang's, with float-cast-overflow (native-clang-san).
# HDF5 is built with AddressSanitizer in both. Pass a ctest -R expression to
# run something else, "." for everything.
# usage: scripts/test-sanitizers.sh [CTEST_REGEX]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"
regex="${1:-bad_input|bad_fixture|damaged_file|pattern}"
jobs="$(nproc 2>/dev/null || echo 2)"
for preset in native-asan native-clang-san; do
  echo "== $preset"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  ctest --preset "$preset" -j "$jobs" -R "$regex"
done
