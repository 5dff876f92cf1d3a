#!/usr/bin/env bash
# Installs what the build and the tests need, only when it is missing:
# Debian packages (apt-get) and the npm devDependencies. The Debian source
# packages of HDF5 (both builds), zlib and PCRE2 (wasm) are fetched by CMake
# (cmake/deps.cmake). Safe to run again: it does nothing when all is there.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"

need_pkgs=()
want() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed" || need_pkgs+=("$1"); }
# clang, libclang-rt-14-dev and llvm: the fuzzer (libFuzzer) and the clang
# sanitizer preset. patch: applies cmake/patches/ to HDF5.
for p in cmake g++ make pkg-config patch zlib1g-dev libpcre2-dev nlohmann-json3-dev libfmt-dev \
         googletest libgtest-dev python3-h5py python3-numpy emscripten chromium fonts-noto-color-emoji time \
         clang libclang-rt-14-dev llvm dpkg-dev ca-certificates; do
  want "$p"
done

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# Source packages (zlib, pcre2) are fetched with `apt-get source`, which needs deb-src
# (HDF5 comes from Debian 13 through a private apt configuration, cmake/deps.cmake).
enable_deb_src() {
  local f=/etc/apt/sources.list.d/debian.sources
  if [ -f "$f" ] && grep -q '^Types: deb$' "$f"; then
    as_root sed -i 's/^Types: deb$/Types: deb deb-src/' "$f"
    return 0
  fi
  return 1
}

updated=0
if enable_deb_src; then updated=1; fi
if [ ${#need_pkgs[@]} -gt 0 ] || [ $updated = 1 ]; then
  echo "setup: apt-get update"
  as_root apt-get update -qq
fi
if [ ${#need_pkgs[@]} -gt 0 ]; then
  echo "setup: installing ${need_pkgs[*]}"
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}" >/dev/null
fi

if [ ! -d "$here/node_modules" ] || [ "$here/package-lock.json" -nt "$here/node_modules/.package-lock.json" ]; then
  echo "setup: npm ci"
  # The lock is the truth: no fallback to npm install (vite is pinned to 8.3.x,
  # whose optional dependencies are all in the registry).
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
fi
