#!/usr/bin/env bash
# Installs what the build needs, only when it is missing: Debian packages
# (apt-get install, by name) and the npm devDependencies (npm ci). It never
# edits the machine's apt configuration: the Debian *source* packages of
# HDF5, zlib and PCRE2 are fetched by exact version through a private apt
# configuration by CMake (cmake/deps.cmake). Safe to run again: it does
# nothing when all is there.
# usage: scripts/setup.sh [serve|test]   (default test)
#   serve  what `npm start` needs: the wasm build and the page;
#   test   also the native build, GoogleTest, the fixtures' Python, the
#          fuzzer's clang and the browser of the tests.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
what="${1:-test}"

serve_pkgs=(cmake make g++ patch ca-certificates ccache nlohmann-json3-dev libfmt-dev emscripten)
# pkg-config, zlib1g-dev, libpcre2-dev, libcpp-httplib-dev (serve): the native build. googletest: the C++
# tests. python3-h5py, python3-numpy: the generated fixtures. clang,
# libclang-rt-14-dev, llvm: the fuzzer (libFuzzer) and the clang sanitizer
# preset. chromium, fonts-noto-color-emoji: the page's tests. time: the
# benchmarks' peak memory. clang-format: the formatting check.
# universal-ctags: the functions' lengths (tests/js/code-shape.test.mjs).
test_pkgs=(pkg-config zlib1g-dev libpcre2-dev libcpp-httplib-dev googletest libgtest-dev python3-h5py python3-numpy
           chromium fonts-noto-color-emoji time clang libclang-rt-14-dev llvm clang-format
           universal-ctags)

case "$what" in
  serve) pkgs=("${serve_pkgs[@]}") ;;
  test) pkgs=("${serve_pkgs[@]}" "${test_pkgs[@]}") ;;
  *) echo "usage: scripts/setup.sh [serve|test]" >&2; exit 2 ;;
esac

need_pkgs=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need_pkgs+=("$p")
done

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if [ ${#need_pkgs[@]} -gt 0 ]; then
  echo "setup: installing ${need_pkgs[*]}"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}" >/dev/null
fi

if [ ! -d "$here/node_modules" ] || [ "$here/package-lock.json" -nt "$here/node_modules/.package-lock.json" ]; then
  echo "setup: npm ci"
  # The lock is the truth: no fallback to npm install.
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
fi
