#!/usr/bin/env bash
# Builds everything: the native library, CLI and tests (build/native), the
# WebAssembly module with HDF5 and zlib from Debian's sources (build/wasm),
# the npm package files (dist/), the static site (dist/web/) and the
# single-file page (dist/scope-speedscope.html).
# usage: scripts/build.sh [native|wasm|dist|all]   (default all)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"
what="${1:-all}"
jobs="$(nproc 2>/dev/null || echo 2)"

bash scripts/setup.sh

if [ "$what" = native ] || [ "$what" = all ]; then
  cmake --preset native >/dev/null
  cmake --build --preset native -j "$jobs"
fi
if [ "$what" = wasm ] || [ "$what" = all ] || [ "$what" = dist ]; then
  if [ ! -f build/wasm/CMakeCache.txt ]; then cmake --preset wasm >/dev/null; fi
  cmake --build --preset wasm -j "$jobs"
fi
if [ "$what" = dist ] || [ "$what" = all ]; then
  node scripts/build-dist.mjs
  node scripts/build-web.mjs
  node scripts/build-single.mjs
fi
