// reconstruct: columns -> nested calls per rank and lane.
// scope-profiler's build_call_arrays + split_by_lane (spec sections 3 and 4):
// the same order, depths, lanes and NestingError messages, in O(n log n).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "run.hpp"

namespace scope_speedscope {

// One reconstructed call. In a Lane, calls are in call_id order (start
// ascending, end descending, then concatenation order), which is also the
// depth-first pre-order of the call tree.
struct Call {
  int64_t start_ns;
  int64_t end_ns;
  uint32_t region;  // index into Run::regions
  uint32_t depth;   // 0 for roots
};

struct Lane {
  int64_t lane;      // -1 when the rank is one stack
  std::size_t begin;  // calls [begin, end) of RankCalls::calls
  std::size_t end;
};

struct RankCalls {
  int64_t rank = 0;
  std::vector<Call> calls;  // grouped by lane, lanes ascending
  std::vector<Lane> lanes;  // only lanes with at least one call
  std::size_t size() const { return calls.size(); }
};

// The calls of `rank` over `regions` (indices into run.regions, in the order
// get_regions returns them), split by lane. Throws Error(nesting).
RankCalls build_call_arrays(const Run& run, const std::vector<uint32_t>& regions, int64_t rank);

namespace detail {
// The spec's algorithm step by step (count-based depth, "latest earlier call
// at depth - 1" parent, proof of nesting), kept as the reference that the fast
// path falls back to on malformed input and that tests compare against.
RankCalls build_call_arrays_literal(const Run& run, const std::vector<uint32_t>& regions,
                                    int64_t rank);
}  // namespace detail

}  // namespace scope_speedscope
