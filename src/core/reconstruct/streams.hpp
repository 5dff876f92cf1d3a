// reconstruct: the calls of one lane produced on demand, block by block, in
// call order with their depths, straight from the run's columns (which must
// outlive the stream).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "model/run.hpp"
#include "reconstruct/call_order.hpp"
#include "reconstruct/calls.hpp"
#include "reconstruct/rows.hpp"

namespace scope_speedscope {

class CallStream {
 public:
  virtual ~CallStream() = default;
  // Starts again from the first call.
  virtual void rewind() = 0;
  // Writes up to `max` next calls (with depth) to `out`; 0 at the end.
  virtual std::size_t next(Call* out, std::size_t max) = 0;
  virtual uint64_t size() const = 0;
  // False once a call was seen that starts inside an open call and ends after it.
  bool nested() const { return stack_.nested(); }

  // Read through once (validating the nesting) and remembered, for the
  // writer's plan: regions in order of first appearance, the first start and
  // the end of the last root call, the calls at each depth.
  struct Summary {
    bool valid = false;  // summarize() ran and the calls nest
    std::vector<uint32_t> regions;
    int64_t first_start_ns = 0;
    int64_t last_root_end_ns = 0;
    std::vector<uint64_t> depth_counts;
  };
  // Reads all calls; false (and no summary) when they do not nest.
  bool summarize(std::size_t region_count);
  const Summary& summary() const { return summary_; }

 protected:
  StackPass stack_;

 private:
  Summary summary_;
};

// The calls of a one-lane rank whose rows are all in call order, merged
// from the rows in the columns.
class MergedCalls final : public CallStream {
 public:
  MergedCalls(const Run& run, std::vector<detail::Rows::Row> rows);
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
  struct HeadBefore {
    bool operator()(const Head& a, const Head& b) const {
      return call_before(a.start, a.end, a.k, b.start, b.end, b.k);
    }
  };
  void load(Head& head, std::size_t row, uint64_t j) const;
  const Run* run_;
  std::vector<detail::Rows::Row> rows_;
  uint64_t size_ = 0;
  MergeHeap<Head, HeadBefore> heap_{HeadBefore{}};
};

// The calls of one lane of a rank whose call order was worked out once: the
// rank's event indices in call order, lane after lane (4 bytes a call,
// shared by the rank's lanes); regions are looked up from the rows.
class IndexedCalls final : public CallStream {
 public:
  struct Order {
    struct Span {
      uint64_t offset;  // events [offset, offset + count) of the run's columns
      uint64_t count;
      uint32_t region;
    };
    const Run* run = nullptr;
    std::vector<Span> by_offset;  // the rank's rows, ascending offset
    // Event indices, lane after lane, in call order; when `packed`, the row
    // (in concatenation order) in the bits above `shift`.
    std::vector<uint32_t> events;
    bool packed = false;
    int shift = 32;
    uint32_t mask = 0xffffffffu;
    std::vector<uint32_t> region_of_row;  // when packed
  };
  IndexedCalls(std::shared_ptr<const Order> order, std::size_t begin, std::size_t end);
  void rewind() override;
  std::size_t next(Call* out, std::size_t max) override;
  uint64_t size() const override { return end_ - begin_; }

 private:
  uint32_t region_of(uint64_t event);
  std::shared_ptr<const Order> order_;
  std::size_t begin_, end_, pos_;
  std::size_t last_span_ = 0;
};

namespace detail {
// The call order of a rank's events, lane after lane (`lanes` ascending;
// the lanes with calls are appended to `out_lanes`), as event indices. Its
// rows go in the indices' spare high bits when they fit.
std::shared_ptr<IndexedCalls::Order> index_calls(const Run& run, const Rows& rows,
                                                 const std::vector<int64_t>& lanes,
                                                 std::vector<Lane>& out_lanes);
}  // namespace detail

}  // namespace scope_speedscope
