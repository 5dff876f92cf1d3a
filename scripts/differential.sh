#!/usr/bin/env bash
# The larger differential run (issue 19), for people who change the reader:
# a seeded campaign of damaged files K times the size of npm test's (K = 10:
# about 2,500 files, a few minutes), plus the shared bad fixtures, each
# through the native CLI and through the WebAssembly module in Node (from
# bytes and from the path). Prints every file whose outcome differs and a
# summary; exits 1 when any differs.
# usage: scripts/differential.sh [SEED] [K]     (default: 20261201 10)
# Needs the builds: npm run build (build/native and dist/).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"
seed="${1:-20261201}"
scale="${2:-10}"
for needed in build/native/scope-speedscope dist/node.js dist/scope-speedscope.wasm; do
  if [ ! -e "$needed" ]; then
    echo "scripts/differential.sh: $needed is missing: run npm run build first" >&2
    exit 2
  fi
done
out="build/differential/seed-$seed-x$scale"
rm -rf "$out"
echo "campaign: seed $seed, $scale times the kinds of npm test's, in $out ($(date -u +%Y-%m-%d))"
/usr/bin/python3 tests/fixtures/gen/make_mutations.py tests/fixtures/h5 "$out" --seed "$seed" --scale "$scale"
node tests/js/compare-builds.mjs --campaign "$out/mutations.json" --bad tests/fixtures/bad --jobs 2
