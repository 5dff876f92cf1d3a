// reconstruct: the streams of a lane's calls (see streams.hpp).
#include "reconstruct/streams.hpp"

#include <algorithm>

namespace scope_speedscope {

bool CallStream::summarize(std::size_t region_count) {
  rewind();
  summary_ = Summary{};
  std::vector<bool> seen(region_count, false);
  std::vector<Call> block(4096);
  bool first = true;
  for (std::size_t n; nested() && (n = next(block.data(), block.size())) > 0;) {
    if (first) summary_.first_start_ns = block[0].start_ns;
    first = false;
    for (std::size_t i = 0; i < n; ++i) {
      const Call& c = block[i];
      if (!seen[c.region]) {
        seen[c.region] = true;
        summary_.regions.push_back(c.region);
      }
      if (c.depth == 0) summary_.last_root_end_ns = c.end_ns;
      if (c.depth >= summary_.depth_counts.size()) summary_.depth_counts.resize(c.depth + 1, 0);
      ++summary_.depth_counts[c.depth];
    }
  }
  const bool ok = nested();
  summary_.valid = ok;
  rewind();
  return ok;
}

// ---- merged from the rows ------------------------------------------------------------

MergedCalls::MergedCalls(const Run& run, std::vector<detail::Rows::Row> rows)
    : run_(&run), rows_(std::move(rows)) {
  for (const auto& row : rows_) size_ += row.count;
  rewind();
}

void MergedCalls::load(Head& head, std::size_t row, uint64_t j) const {
  const auto& r = rows_[row];
  head.start = run_->start_ns[r.offset + j];
  head.end = run_->end_ns[r.offset + j];
  head.k = r.first_k + j;
  head.row = row;
  head.next = j + 1;
}

void MergedCalls::rewind() {
  heap_.heads().resize(rows_.size());
  for (std::size_t r = 0; r < rows_.size(); ++r) load(heap_.heads()[r], r, 0);
  heap_.start();
  stack_.reset();
}

std::size_t MergedCalls::next(Call* out, std::size_t max) {
  std::size_t n = 0;
  while (n < max && !heap_.empty()) {
    Head& head = heap_.top();
    out[n++] =
        Call{head.start, head.end, rows_[head.row].region, stack_.depth_of(head.start, head.end)};
    if (head.next < rows_[head.row].count) {
      load(head, head.row, head.next);
      heap_.sifted();
    } else {
      heap_.pop();
    }
  }
  return n;
}

// ---- through the call order's event indices ------------------------------------------

IndexedCalls::IndexedCalls(std::shared_ptr<const Order> order, std::size_t begin, std::size_t end)
    : order_(std::move(order)), begin_(begin), end_(end), pos_(begin) {}

void IndexedCalls::rewind() {
  pos_ = begin_;
  last_span_ = 0;
  stack_.reset();
}

uint32_t IndexedCalls::region_of(uint64_t event) {
  const auto& spans = order_->by_offset;
  const auto& last = spans[last_span_];
  if (event >= last.offset && event - last.offset < last.count) return last.region;
  // The last span that starts at or before the event.
  const auto it = std::upper_bound(spans.begin(), spans.end(), event,
                                   [](uint64_t e, const Order::Span& s) { return e < s.offset; });
  last_span_ = static_cast<std::size_t>(it - spans.begin()) - 1;
  return spans[last_span_].region;
}

std::size_t IndexedCalls::next(Call* out, std::size_t max) {
  const Run& run = *order_->run;
  const uint32_t* events = order_->events.data();
  std::size_t n = 0;
  if (order_->packed) {  // entries carry their row
    const uint32_t mask = order_->mask;
    const int shift = order_->shift;
    const uint32_t* region_of_row = order_->region_of_row.data();
    while (n < max && pos_ < end_) {
      const uint32_t v = events[pos_++];
      const uint32_t e = v & mask;
      const int64_t start = run.start_ns[e], end = run.end_ns[e];
      out[n++] = Call{start, end, region_of_row[v >> shift], stack_.depth_of(start, end)};
    }
    return n;
  }
  while (n < max && pos_ < end_) {
    const uint64_t e = events[pos_++];
    const int64_t start = run.start_ns[e], end = run.end_ns[e];
    out[n++] = Call{start, end, region_of(e), stack_.depth_of(start, end)};
  }
  return n;
}

}  // namespace scope_speedscope
