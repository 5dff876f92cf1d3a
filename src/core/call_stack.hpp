// reconstruct: columns -> nested calls per rank and lane.
// scope-profiler's build_call_arrays + split_by_lane (spec sections 3 and 4):
// the same order, depths, lanes and NestingError messages, in O(n log n).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <utility>
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

// Twice a time, as the spec's depth rule compares them (2*start against
// 2*end + 1 for a zero-length call). 128 bits: exact for every int64 time,
// where 64 would overflow beyond 2^62 ns.
using DoubledTime = __int128;

struct Lane {
  int64_t lane;      // -1 when the rank is one stack
  std::size_t begin;  // calls [begin, end) of RankCalls::calls
  std::size_t end;
};

// The calls of a one-lane rank whose regions all recorded their calls in
// start order, produced on demand by merging the regions' rows straight from
// the run's columns: call order and depths without any memory per call. The
// run must outlive it.
class MergedCalls {
 public:
  struct Row {
    uint32_t region;   // index into Run::regions
    uint64_t first_k;  // concatenation index of its first call (ties)
    uint64_t offset;   // first event in the run's columns
    uint64_t count;
  };
  MergedCalls(const Run& run, std::vector<Row> rows);
  // Starts again from the first call.
  void rewind();
  // Writes up to `max` next calls (with depth) to `out`; 0 at the end.
  std::size_t next(Call* out, std::size_t max);
  // False once a call was seen that starts inside an open call and ends after it.
  bool nested() const { return nested_; }
  uint64_t size() const { return size_; }

  // Read through once (validating the nesting) and remembered, for the
  // writer's plan: regions in order of first appearance, the first start and
  // the end of the last root call.
  struct Summary {
    bool valid = false;  // summarize() ran and the calls nest
    std::vector<uint32_t> regions;
    int64_t first_start_ns = 0;
    int64_t last_root_end_ns = 0;
  };
  // Reads all calls; false (and no summary) when they do not nest.
  bool summarize(std::size_t region_count);
  const Summary& summary() const { return summary_; }

 private:
  struct Head {
    int64_t start, end;
    uint64_t k;
    std::size_t row;
    uint64_t next;
  };
  void load(Head& head, std::size_t row, uint64_t j) const;
  const Run* run_;
  std::vector<Row> rows_;
  uint64_t size_ = 0;
  std::vector<Head> heap_;
  std::size_t heap_size_ = 0;
  std::vector<DoubledTime> open_end_;  // doubled ends of the open calls
  std::size_t top_ = 0;
  bool nested_ = true;
  Summary summary_;
};

struct RankCalls {
  int64_t rank = 0;
  CallVector calls;         // grouped by lane, lanes ascending (empty when merged)
  std::vector<Lane> lanes;  // only lanes with at least one call
  // Set instead of `calls` for a one-lane rank with start-ordered regions:
  // the calls are merged from the run's columns when they are written.
  std::shared_ptr<MergedCalls> merged;
  std::size_t size() const { return merged ? static_cast<std::size_t>(merged->size()) : calls.size(); }
};

enum class CallStorage {
  materialized,  // RankCalls::calls holds every call
  merged,        // RankCalls::merged where possible (one lane, regions in start order)
};

// The calls of `rank` over `regions` (indices into run.regions, in the order
// get_regions returns them), split by lane. Throws Error(nesting).
RankCalls build_call_arrays(const Run& run, const std::vector<uint32_t>& regions, int64_t rank,
                            CallStorage storage = CallStorage::materialized);

namespace detail {
// The spec's algorithm step by step (count-based depth, "latest earlier call
// at depth - 1" parent, proof of nesting), kept as the reference that the fast
// path falls back to on malformed input and that tests compare against.
RankCalls build_call_arrays_literal(const Run& run, const std::vector<uint32_t>& regions,
                                    int64_t rank);
}  // namespace detail

}  // namespace scope_speedscope
