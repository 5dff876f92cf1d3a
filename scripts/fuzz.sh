#!/usr/bin/env bash
# The fuzzer (tests/fuzz): builds the `fuzz` preset (clang, libFuzzer,
# AddressSanitizer and UndefinedBehaviorSanitizer, HDF5 instrumented too)
# and runs the target on the in-memory reader and the whole export.
#
# usage: scripts/fuzz.sh [SECONDS] [extra libFuzzer flags...]
#   SECONDS  how long to fuzz (default 60, what `npm test` runs; 600 or
#            more for a real hunt; 0 = until stopped)
#
# Seeds: every fixture under 256 KB (tests/fixtures/h5 and tests/fixtures/bad),
# the LZF, Zstandard and hostile-chunk files of tests/fixtures/h5/compressed too.
# The corpus it grows is kept in build/fuzz/corpus, so a later run continues
# where this one stopped. A finding (crash, sanitizer report, uncaught
# exception such as std::bad_alloc, timeout over 30 s, more than 2 GiB
# resident with the sanitizers' overhead) stops the run with exit status 1
# and leaves the input in build/fuzz/findings/ (crash-*, timeout-*, oom-*).
# An impossible allocation returns null as it does outside the sanitizers
# (allocator_may_return_null=1): HDF5 asks for sizes read from the file and
# refuses the file when it gets none; our own code must never ask (it would
# end in std::bad_alloc, a finding). Reproduce a finding with
#   build/fuzz/tests/fuzz/scope_speedscope_fuzz build/fuzz/findings/<file>
# and keep it as a regression fixture in tests/fixtures/bad/.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"
seconds="${1:-60}"
shift || true
jobs="$(nproc 2>/dev/null || echo 2)"

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$jobs" --target scope_speedscope_fuzz

work=build/fuzz
mkdir -p "$work/corpus" "$work/findings"
rm -rf "$work/seeds"
mkdir -p "$work/seeds"
# Named by their path (compressed/lzf/x.h5 -> compressed_lzf_x.h5): the
# compressed twins share their originals' names.
find tests/fixtures/h5 tests/fixtures/bad -name '*.h5' -size -256k | while read -r f; do
  rel="${f#tests/fixtures/}"
  cp "$f" "$work/seeds/${rel//\//_}"
done

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
echo "fuzz: ${seconds} s, seeds $(ls "$work/seeds" | wc -l), corpus $(ls "$work/corpus" | wc -l) inputs"
"$work/tests/fuzz/scope_speedscope_fuzz" \
  -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -malloc_limit_mb=2147483647 \
  -max_len=262144 -dict=tests/fuzz/hdf5.dict -artifact_prefix="$work/findings/" \
  -print_final_stats=1 "$@" "$work/corpus" "$work/seeds"
