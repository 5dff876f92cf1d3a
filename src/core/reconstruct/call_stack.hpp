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

#include "model/run.hpp"

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

// The calls of one lane produced on demand, block by block, in call order
// with their depths, straight from the run's columns (which must outlive
// it): no memory per call, or 4 bytes a call for IndexedCalls.
class CallStream {
 public:
  virtual ~CallStream() = default;
  // Starts again from the first call.
  virtual void rewind() = 0;
  // Writes up to `max` next calls (with depth) to `out`; 0 at the end.
  virtual std::size_t next(Call* out, std::size_t max) = 0;
  virtual uint64_t size() const = 0;
  // False once a call was seen that starts inside an open call and ends after it.
  bool nested() const { return nested_; }

  // Read through once (validating the nesting) and remembered, for the
  // writer's plan: regions in order of first appearance, the first start and
  // the end of the last root call.
  struct Summary {
    bool valid = false;  // summarize() ran and the calls nest
    std::vector<uint32_t> regions;
    int64_t first_start_ns = 0;
    int64_t last_root_end_ns = 0;
    std::vector<uint64_t> depth_counts;  // calls at each depth (the timeline's columns)
  };
  // Reads all calls; false (and no summary) when they do not nest.
  bool summarize(std::size_t region_count);
  const Summary& summary() const { return summary_; }

 protected:
  void reset_depths() {
    top_ = 0;
    nested_ = true;
  }
  // The depth of the next call in call order (the stack pass of
  // build_call_arrays: calls still open at its start; doubled times, a
  // zero-length call open at its own start). Inline: it runs for every call.
  uint32_t depth_of(int64_t start, int64_t end) {
    const DoubledTime s2 = DoubledTime{start} * 2;
    while (top_ > 0 && open_end_[top_ - 1] <= s2) --top_;
    const DoubledTime e2 = DoubledTime{end} * 2 + (end == start ? 1 : 0);
    if (top_ > 0 && e2 > open_end_[top_ - 1]) nested_ = false;
    const auto depth = static_cast<uint32_t>(top_);
    if (top_ == open_end_.size()) open_end_.resize(2 * top_ + 64);
    open_end_[top_++] = e2;
    return depth;
  }

 private:
  std::vector<DoubledTime> open_end_;  // doubled ends of the open calls
  std::size_t top_ = 0;
  bool nested_ = true;
  Summary summary_;
};

// The calls of a one-lane rank whose regions all recorded their calls in
// start order, merged from the regions' rows in the columns.
class MergedCalls final : public CallStream {
 public:
  struct Row {
    uint32_t region;   // index into Run::regions
    uint64_t first_k;  // concatenation index of its first call (ties)
    uint64_t offset;   // first event in the run's columns
    uint64_t count;
  };
  MergedCalls(const Run& run, std::vector<Row> rows);
  void rewind() override;
  std::size_t next(Call* out, std::size_t max) override;
  uint64_t size() const override { return size_; }

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
};

// The calls of one lane of a rank whose call order was worked out once: the
// rank's event indices in call order, lane after lane (4 bytes a call,
// shared by the rank's lanes); regions are looked up from the rows.
class IndexedCalls final : public CallStream {
 public:
  struct Rows {
    struct Span {
      uint64_t offset;  // events [offset, offset + count) of the run's columns
      uint64_t count;
      uint32_t region;
    };
    const Run* run = nullptr;
    std::vector<Span> by_offset;  // the rank's rows, ascending offset
    // Event indices, lane after lane, in call order; when `packed`, the row
    // (in concatenation order) in the bits above `shift`.
    std::vector<uint32_t> order;
    bool packed = false;
    int shift = 32;
    uint32_t mask = 0xffffffffu;
    std::vector<uint32_t> region_of_row;  // when packed
  };
  IndexedCalls(std::shared_ptr<const Rows> rows, std::size_t begin, std::size_t end);
  void rewind() override;
  std::size_t next(Call* out, std::size_t max) override;
  uint64_t size() const override { return end_ - begin_; }

 private:
  uint32_t region_of(uint64_t event);
  std::shared_ptr<const Rows> rows_;
  std::size_t begin_, end_, pos_;
  std::size_t last_span_ = 0;
};

struct RankCalls {
  int64_t rank = 0;
  CallVector calls;         // grouped by lane, lanes ascending (empty when streamed)
  std::vector<Lane> lanes;  // only lanes with at least one call
  // Set instead of `calls` (CallStorage::streamed): one stream per lane, in
  // the order of `lanes`, producing the calls from the run's columns when
  // they are written.
  std::vector<std::shared_ptr<CallStream>> streams;
  std::size_t size() const {
    if (streams.empty()) return calls.size();
    std::size_t n = 0;
    for (const auto& s : streams) n += static_cast<std::size_t>(s->size());
    return n;
  }
};

enum class CallStorage {
  materialized,  // RankCalls::calls holds every call (24 bytes a call)
  // RankCalls::streams: a one-lane rank whose rows are in start order is
  // merged from the columns (no memory per call); other ranks keep 4 bytes a
  // call (IndexedCalls), or are materialized when the run has more than
  // 2^32 events.
  streamed,
  // As streamed, with IndexedCalls looking regions up instead of carrying
  // them (what runs do whose event indices leave no room for the row: many
  // rows and tens of millions of events); for the tests.
  streamed_with_lookup,
  // As streamed, but every rank keeps its call order as IndexedCalls (4
  // bytes a call) when the run's event indices fit in 32 bits: a caller that
  // reads the calls twice (the timeline) then merges the rows once.
  indexed,
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
