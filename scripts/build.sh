#!/usr/bin/env bash
# Builds the project: the native library, CLI and tests (build/native), the
# WebAssembly module with HDF5, zlib and PCRE2 from Debian's sources
# (build/wasm), the npm package files (dist/), the static site (dist/web/)
# and the single-file page (dist/scope-speedscope.html).
# usage: scripts/build.sh [native|wasm|dist|all]   (default all)
#   dist   what serving the page needs (wasm + dist/): `npm start`;
#   all    everything the tests need too: `npm test`.
# A build tree whose configure failed or never ran (no build system in it)
# is configured again, so a run after a fixed cause recovers by itself;
# CMake re-runs its own configure when a CMake file changed.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"
what="${1:-all}"
jobs="$(nproc 2>/dev/null || echo 2)"

case "$what" in
  native|all) bash scripts/setup.sh test ;;
  wasm|dist) bash scripts/setup.sh serve ;;
  *) echo "usage: scripts/build.sh [native|wasm|dist|all]" >&2; exit 2 ;;
esac

# configure <preset>: unless build/<preset> holds a generated build system
# (a configure that failed leaves CMakeCache.txt but no Makefile).
configure() {
  local dir="build/$1"
  if [ ! -f "$dir/Makefile" ] && [ ! -f "$dir/build.ninja" ]; then
    cmake --preset "$1" >/dev/null
  fi
}

if [ "$what" = native ] || [ "$what" = all ]; then
  configure native
  cmake --build --preset native -j "$jobs"
fi
if [ "$what" = wasm ] || [ "$what" = all ] || [ "$what" = dist ]; then
  configure wasm
  cmake --build --preset wasm -j "$jobs"
fi
if [ "$what" = dist ] || [ "$what" = all ]; then
  node scripts/build-dist.mjs
  node scripts/build-web.mjs
  node scripts/build-single.mjs
fi
