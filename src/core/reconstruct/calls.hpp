// reconstruct: columns -> nested calls per rank and lane. scope-profiler's
// build_call_arrays + split_by_lane (spec sections 3 and 4): the same order,
// depths, lanes and NestingError messages, in O(n log n).
//
// A rank's calls are never copied into records: for each lane a CallStream
// produces them, in call order with their depths, from the run's columns,
// either merged on the fly from the regions' rows (a one-lane rank whose rows
// are in start order: nothing a call) or through the call order kept as one
// 4-byte event index a call (call_index.cpp). The spec's own algorithm
// (reference.cpp) finds the pair of calls to blame when they do not nest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "model/run.hpp"

namespace scope_speedscope {

// One reconstructed call. In a lane, calls are in call order (start
// ascending, end descending, then concatenation order), which is also the
// depth-first pre-order of the call tree.
struct Call {
  int64_t start_ns;
  int64_t end_ns;
  uint32_t region;  // index into Run::regions
  uint32_t depth;   // 0 for roots
};

// A vector whose new elements are left uninitialised (they are all written
// right away): no memset of hundreds of megabytes before the real work.
template <class T>
struct UninitializedAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <class U>
  UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

using CallVector = std::vector<Call, UninitializedAllocator<Call>>;

struct Lane {
  int64_t lane;       // -1 when the rank is one stack
  std::size_t begin;  // calls [begin, end) of RankCalls::calls (the reference's output)
  std::size_t end;
};

class CallStream;  // streams.hpp

struct RankCalls {
  int64_t rank = 0;
  std::vector<Lane> lanes;  // only lanes with at least one call, ascending
  // One stream per lane, in the order of `lanes`...
  std::vector<std::shared_ptr<CallStream>> streams;
  // ... or, from the reference algorithm, every call, grouped by lane.
  CallVector calls;
  std::size_t size() const;
};

enum class CallStorage {
  // A one-lane rank whose rows are in start order is merged from the columns
  // (nothing a call); other ranks keep their call order as 4-byte event
  // indices.
  streamed,
  // Every rank keeps its call order as 4-byte event indices: a caller that
  // reads the calls twice (the timeline) then merges the rows once.
  indexed,
};

// The calls of `rank` over `regions` (indices into run.regions, in the order
// get_regions returns them), split by lane. Throws Error(nesting), or
// Error(too_many_calls) for a run of more than 2^32 events.
RankCalls build_call_arrays(const Run& run, const std::vector<uint32_t>& regions, int64_t rank,
                            CallStorage storage = CallStorage::streamed);

namespace detail {
// The spec's algorithm step by step (count-based depth, "latest earlier call
// at depth - 1" parent, proof of nesting): what build_call_arrays falls back
// to when the calls do not nest, to blame the pair scope-profiler blames.
RankCalls build_call_arrays_literal(const Run& run, const std::vector<uint32_t>& regions,
                                    int64_t rank);
}  // namespace detail

}  // namespace scope_speedscope
