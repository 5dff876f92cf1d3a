// reconstruct: scope-profiler's build_call_arrays + split_by_lane.
//
// Fast path: the calls of a rank in (lane, start, -end, concatenation order),
// then one stack pass per lane. On properly nested input the stack pass gives
// exactly the spec's count-based depths and "latest earlier call at depth -
// 1" parents. When the stack pass sees a call that starts inside an open call
// and ends after it, the rank is handed to the literal algorithm, which finds
// the same pair scope-profiler blames.
//
// The order is kept in one of three forms: 24-byte records (materialized,
// for the tests and runs of more than 2^32 events); for the export, merged
// on demand from the columns (a one-lane rank whose rows are in start order:
// nothing per call) or as 4-byte event indices (other ranks).
#include "reconstruct/call_stack.hpp"

#include <algorithm>
#include <numeric>
#include <string>
#include <unordered_set>

#include "text/messages.hpp"
#include "text/unicode.hpp"

namespace scope_speedscope {
namespace {

// Restores the heap order of heap[0, size) (a binary min-heap by `less`)
// after its root was replaced: the k-way merges below pop and refill the
// root in place instead of std::pop_heap / std::push_heap.
template <class T, class Less>
void sift_down_root(std::vector<T>& heap, std::size_t size, Less less) {
  std::size_t i = 0;
  const T moving = heap[0];
  while (true) {
    std::size_t child = 2 * i + 1;
    if (child >= size) break;
    if (child + 1 < size && less(heap[child + 1], heap[child])) ++child;
    if (!less(heap[child], moving)) break;
    heap[i] = heap[child];
    i = child;
  }
  heap[i] = moving;
}

// The calls of one rank in concatenation order (spec 3.1): kept regions in
// the given order, each region's calls in stored order.
struct Gathered {
  struct Row {
    uint32_t region;    // index into run.regions
    uint64_t first_k;   // concatenation index of its first call
    uint64_t offset;    // first event in the run's columns
    uint64_t count;
  };
  std::vector<Row> rows;
  uint64_t size = 0;
  bool any_lane = false;

  // The row holding concatenation index k.
  const Row& row_of(uint64_t k) const {
    auto it = std::upper_bound(rows.begin(), rows.end(), k,
                               [](uint64_t v, const Row& r) { return v < r.first_k; });
    return *(it - 1);
  }
};

Gathered gather(const Run& run, const std::vector<uint32_t>& regions, int64_t rank) {
  Gathered g;
  for (uint32_t region : regions) {
    for (const RankSlice& slice : run.regions[region].ranks) {
      if (slice.rank != rank) continue;
      if (slice.count > 0) g.rows.push_back({region, g.size, slice.offset, slice.count});
      g.size += slice.count;
      g.any_lane = g.any_lane || run.lane_column;
      break;
    }
  }
  return g;
}

void check_ends_after_starts(const Run& run, const Gathered& g) {
  for (const auto& row : g.rows) {
    for (uint64_t e = row.offset; e < row.offset + row.count; ++e) {
      if (run.end_ns[e] < run.start_ns[e]) {
        throw Error(Msg::ends_before_starts);
      }
    }
  }
}

DoubledTime doubled(int64_t t) { return DoubledTime{t} * 2; }

DoubledTime doubled_end(int64_t start, int64_t end) {
  return doubled(end) + (end == start ? 1 : 0);  // the zero-length rule
}

std::string describe(const Run& run, const Gathered& g, uint64_t k, int64_t start, int64_t end) {
  const auto& row = g.row_of(k);
  return python_str_repr(run.regions[row.region].name) + " call " +
         std::to_string(k - row.first_k) + " [" + std::to_string(start) + ", " +
         std::to_string(end) + "] ns";
}


// Orders (start ascending, end descending, then concatenation order).
bool call_id_less(const Call& a, const Call& b) {
  if (a.start_ns != b.start_ns) return a.start_ns < b.start_ns;
  if (a.end_ns != b.end_ns) return a.end_ns > b.end_ns;
  return a.region < b.region;
}

bool row_in_order(const Run& run, const Gathered::Row& row) {
  for (uint64_t e = row.offset + 1; e < row.offset + row.count; ++e) {
    const int64_t s0 = run.start_ns[e - 1], s1 = run.start_ns[e];
    if (!(s0 < s1 || (s0 == s1 && run.end_ns[e - 1] >= run.end_ns[e]))) return false;
  }
  return true;
}

bool rows_in_order(const Run& run, const Gathered& g) {
  for (const auto& row : g.rows) {
    if (!row_in_order(run, row)) return false;
  }
  return true;
}

// The calls of a rank in call_id order, then grouped by lane (a stable
// counting sort, so each lane keeps call_id order): a k-way merge of the
// rows. Regions usually record their calls in start order; a row that does
// not is sorted on its own first (O(m log m) for that row only).
void sort_calls(const Run& run, const Gathered& g, const std::vector<int64_t>& lane_values,
                CallVector& calls) {
  const std::size_t n = g.size;
  auto record = [&](uint64_t e, uint64_t k) {
    uint32_t lane_rank = 0;
    if (g.any_lane) {
      lane_rank = static_cast<uint32_t>(
          std::lower_bound(lane_values.begin(), lane_values.end(), run.lane[e]) - lane_values.begin());
    }
    return Call{run.start_ns[e], run.end_ns[e], static_cast<uint32_t>(k), lane_rank};
  };
  // Rows out of order, sorted aside; the others are read from the columns.
  std::vector<CallVector> sorted_rows(g.rows.size());
  for (std::size_t r = 0; r < g.rows.size(); ++r) {
    const auto& row = g.rows[r];
    if (row_in_order(run, row)) continue;
    CallVector& buffer = sorted_rows[r];
    buffer.resize(row.count);
    for (uint64_t j = 0; j < row.count; ++j) buffer[j] = record(row.offset + j, row.first_k + j);
    std::sort(buffer.begin(), buffer.end(), call_id_less);
  }
  auto row_call = [&](std::size_t r, uint64_t j) {
    const auto& row = g.rows[r];
    return sorted_rows[r].empty() ? record(row.offset + j, row.first_k + j) : sorted_rows[r][j];
  };

  CallVector ordered(n);
  std::size_t filled = 0;  // (no push_back in the loops: see event_walk.hpp)
  // A binary heap of the rows' next calls (concatenation order breaks ties,
  // through the index in Call::region). Take the smallest head, put that
  // row's next call in its place and sift it down.
  struct Head {
    Call call;
    std::size_t row;
    uint64_t next;
  };
  std::vector<Head> heap;
  heap.reserve(g.rows.size());
  for (std::size_t r = 0; r < g.rows.size(); ++r) heap.push_back(Head{row_call(r, 0), r, 1});
  std::make_heap(heap.begin(), heap.end(),
                 [](const Head& a, const Head& b) { return call_id_less(b.call, a.call); });
  std::size_t size = heap.size();
  while (size > 0) {
    Head& top = heap.front();
    ordered[filled++] = top.call;
    if (top.next < g.rows[top.row].count) {
      top.call = row_call(top.row, top.next);
      ++top.next;
    } else {
      top = heap[--size];
    }
    sift_down_root(heap, size, [](const Head& a, const Head& b) { return call_id_less(a.call, b.call); });
  }
  sorted_rows.clear();
  if (lane_values.size() <= 1) {
    calls = std::move(ordered);
    return;
  }
  std::vector<std::size_t> start(lane_values.size() + 1, 0);
  for (const Call& c : ordered) ++start[c.depth + 1];
  for (std::size_t l = 1; l < start.size(); ++l) start[l] += start[l - 1];
  calls.resize(n);
  for (const Call& c : ordered) calls[start[c.depth]++] = c;
}


}  // namespace

bool CallStream::summarize(std::size_t region_count) {
  rewind();
  summary_ = Summary{};
  std::vector<bool> seen(region_count, false);
  std::vector<Call> block(4096);
  bool first = true;
  for (std::size_t n; nested_ && (n = next(block.data(), block.size())) > 0;) {
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
  const bool ok = nested_;
  summary_.valid = ok;
  rewind();
  return ok;
}

MergedCalls::MergedCalls(const Run& run, std::vector<Row> rows) : run_(&run), rows_(std::move(rows)) {
  for (const Row& row : rows_) size_ += row.count;
  rewind();
}

void MergedCalls::load(Head& head, std::size_t row, uint64_t j) const {
  const Row& r = rows_[row];
  head.start = run_->start_ns[r.offset + j];
  head.end = run_->end_ns[r.offset + j];
  head.k = r.first_k + j;
  head.row = row;
  head.next = j + 1;
}

namespace {
bool head_less(int64_t s1, int64_t e1, uint64_t k1, int64_t s2, int64_t e2, uint64_t k2) {
  if (s1 != s2) return s1 < s2;
  if (e1 != e2) return e1 > e2;
  return k1 < k2;
}
}  // namespace

void MergedCalls::rewind() {
  heap_.resize(rows_.size());
  for (std::size_t r = 0; r < rows_.size(); ++r) load(heap_[r], r, 0);
  std::make_heap(heap_.begin(), heap_.end(), [](const Head& a, const Head& b) {
    return head_less(b.start, b.end, b.k, a.start, a.end, a.k);
  });
  heap_size_ = heap_.size();
  reset_depths();
}

std::size_t MergedCalls::next(Call* out, std::size_t max) {
  std::size_t n = 0;
  while (n < max && heap_size_ > 0) {
    Head& head = heap_.front();
    out[n++] = Call{head.start, head.end, rows_[head.row].region, depth_of(head.start, head.end)};

    if (head.next < rows_[head.row].count) {
      load(head, head.row, head.next);
    } else {
      head = heap_[--heap_size_];
    }
    std::size_t i = 0;
    const Head moving = heap_[0];
    const std::size_t size = heap_size_;
    while (true) {
      std::size_t child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size &&
          head_less(heap_[child + 1].start, heap_[child + 1].end, heap_[child + 1].k,
                    heap_[child].start, heap_[child].end, heap_[child].k)) {
        ++child;
      }
      if (!head_less(heap_[child].start, heap_[child].end, heap_[child].k, moving.start,
                     moving.end, moving.k)) {
        break;
      }
      heap_[i] = heap_[child];
      i = child;
    }
    heap_[i] = moving;
  }
  return n;
}

IndexedCalls::IndexedCalls(std::shared_ptr<const Rows> rows, std::size_t begin, std::size_t end)
    : rows_(std::move(rows)), begin_(begin), end_(end), pos_(begin) {}

void IndexedCalls::rewind() {
  pos_ = begin_;
  last_span_ = 0;
  reset_depths();
}

uint32_t IndexedCalls::region_of(uint64_t event) {
  const auto& spans = rows_->by_offset;
  const auto& last = spans[last_span_];
  if (event >= last.offset && event - last.offset < last.count) return last.region;
  // The last span that starts at or before the event.
  const auto it = std::upper_bound(spans.begin(), spans.end(), event,
                                   [](uint64_t e, const Rows::Span& s) { return e < s.offset; });
  last_span_ = static_cast<std::size_t>(it - spans.begin()) - 1;
  return spans[last_span_].region;
}

std::size_t IndexedCalls::next(Call* out, std::size_t max) {
  const Run& run = *rows_->run;
  const uint32_t* order = rows_->order.data();
  std::size_t n = 0;
  if (rows_->packed) {  // entries carry their row
    const uint32_t mask = rows_->mask;
    const int shift = rows_->shift;
    const uint32_t* region_of_row = rows_->region_of_row.data();
    while (n < max && pos_ < end_) {
      const uint32_t v = order[pos_++];
      const uint32_t e = v & mask;
      const int64_t start = run.start_ns[e], end = run.end_ns[e];
      const uint32_t region = region_of_row[v >> shift];
      out[n++] = Call{start, end, region, depth_of(start, end)};
    }
    return n;
  }
  while (n < max && pos_ < end_) {
    const uint64_t e = order[pos_++];
    const int64_t start = run.start_ns[e], end = run.end_ns[e];
    out[n++] = Call{start, end, region_of(e), depth_of(start, end)};
  }
  return n;
}

namespace {

// The call order of a rank's events, lane after lane (lanes ascending), as
// event indices: a stable counting sort by lane (rows in concatenation
// order), then in each lane a k-way merge of the rows' runs, each in start
// order (a row that is not is sorted on its own first). Ties (same start and
// end) go by concatenation order. When the run's event indices leave room in
// 32 bits, each entry also carries its row (so the writer needs no lookup).
// 4 bytes a call, plus 4 a call of the largest lane while it is merged.
std::shared_ptr<IndexedCalls::Rows> index_calls(const Run& run, const Gathered& g,
                                                const std::vector<int64_t>& lane_values,
                                                std::vector<Lane>& lanes, bool may_pack) {
  auto rows = std::make_shared<IndexedCalls::Rows>();
  rows->run = &run;
  const std::size_t n = g.size;
  const std::size_t L = lane_values.size();
  // Lane position of an event: a table over a dense range of lane ids, else
  // a binary search.
  const int64_t lo = lane_values.front();
  const uint64_t range = static_cast<uint64_t>(lane_values.back()) - static_cast<uint64_t>(lo);
  const bool dense = g.any_lane && range <= 4 * static_cast<uint64_t>(L) + 4096;
  std::vector<uint32_t> dense_position;
  if (dense) {
    dense_position.assign(static_cast<std::size_t>(range) + 1, 0);
    for (std::size_t l = 0; l < L; ++l) {
      dense_position[static_cast<uint64_t>(lane_values[l]) - static_cast<uint64_t>(lo)] =
          static_cast<uint32_t>(l);
    }
  }
  auto lane_of = [&](uint64_t e) -> std::size_t {
    if (!g.any_lane) return 0;
    const int64_t v = run.lane[e];
    if (dense) return dense_position[static_cast<uint64_t>(v) - static_cast<uint64_t>(lo)];
    return static_cast<std::size_t>(std::lower_bound(lane_values.begin(), lane_values.end(), v) -
                                    lane_values.begin());
  };
  std::vector<std::size_t> begin(L + 1, 0);
  for (const auto& row : g.rows) {
    for (uint64_t e = row.offset; e < row.offset + row.count; ++e) ++begin[lane_of(e) + 1];
  }
  for (std::size_t l = 0; l < L; ++l) begin[l + 1] += begin[l];
  std::vector<uint32_t>& order = rows->order;
  order.resize(n);
  {
    std::vector<std::size_t> fill(begin.begin(), begin.end() - 1);
    for (const auto& row : g.rows) {
      for (uint64_t e = row.offset; e < row.offset + row.count; ++e) {
        order[fill[lane_of(e)]++] = static_cast<uint32_t>(e);
      }
    }
  }
  // Room for the row in the high bits? (bits: enough for every event index)
  int bits = 1;
  while (bits < 32 && (uint64_t{1} << bits) < run.start_ns.size()) ++bits;
  if (may_pack && bits < 32 && static_cast<uint64_t>(g.rows.size()) <= (uint64_t{1} << (32 - bits))) {
    rows->packed = true;
    rows->shift = bits;
    rows->mask = static_cast<uint32_t>((uint64_t{1} << bits) - 1);
    for (const auto& row : g.rows) rows->region_of_row.push_back(row.region);
  }
  const bool packed = rows->packed;
  const uint32_t mask = rows->mask;
  const int shift = rows->shift;

  std::vector<char> in_order(g.rows.size());
  std::size_t largest = 0;
  for (std::size_t r = 0; r < g.rows.size(); ++r) in_order[r] = row_in_order(run, g.rows[r]) ? 1 : 0;
  for (std::size_t l = 0; l < L; ++l) largest = std::max(largest, begin[l + 1] - begin[l]);

  auto less = [&](uint32_t a, uint32_t b) {  // within one row: event order is concatenation order
    const int64_t sa = run.start_ns[a], sb = run.start_ns[b];
    if (sa != sb) return sa < sb;
    const int64_t ea = run.end_ns[a], eb = run.end_ns[b];
    if (ea != eb) return ea > eb;
    return a < b;
  };
  struct Piece {
    std::size_t begin, end;  // positions in `order`
    std::size_t row;         // in g.rows
  };
  std::vector<Piece> pieces;
  std::vector<uint32_t> merged;
  struct Head {
    int64_t start, end;
    std::size_t piece;  // concatenation order of the rows
    std::size_t at;
  };
  auto head_before = [](const Head& a, const Head& b) {  // a comes first
    if (a.start != b.start) return a.start < b.start;
    if (a.end != b.end) return a.end > b.end;
    return a.piece < b.piece;
  };
  std::vector<Head> heap;
  for (std::size_t l = 0; l < L; ++l) {
    if (begin[l] == begin[l + 1]) continue;
    lanes.push_back(Lane{lane_values[l], begin[l], begin[l + 1]});
    // The lane's runs, one per row, in concatenation order: a new one starts
    // where an event is not in the current run's row.
    pieces.clear();
    std::size_t row = 0;
    auto in_row = [&](uint64_t e, std::size_t r) {
      return e >= g.rows[r].offset && e - g.rows[r].offset < g.rows[r].count;
    };
    for (std::size_t i = begin[l]; i < begin[l + 1]; ++i) {
      const uint64_t e = order[i];
      if (!pieces.empty() && in_row(e, pieces.back().row)) continue;
      while (!in_row(e, row)) ++row;
      if (!pieces.empty()) pieces.back().end = i;
      pieces.push_back(Piece{i, begin[l + 1], row});
    }
    for (const Piece& piece : pieces) {
      if (!in_order[piece.row]) {  // sorted on its own
        std::sort(order.begin() + static_cast<std::ptrdiff_t>(piece.begin),
                  order.begin() + static_cast<std::ptrdiff_t>(piece.end), less);
      }
      if (packed) {
        const uint32_t tag = static_cast<uint32_t>(piece.row) << shift;
        for (std::size_t i = piece.begin; i < piece.end; ++i) order[i] |= tag;
      }
    }
    if (pieces.size() == 1) continue;
    if (merged.size() < largest) merged.resize(largest);
    heap.clear();
    auto load = [&](Head& h) {
      const uint32_t e = order[h.at] & mask;
      h.start = run.start_ns[e];
      h.end = run.end_ns[e];
    };
    for (std::size_t p = 0; p < pieces.size(); ++p) {
      heap.push_back(Head{0, 0, p, pieces[p].begin});
      load(heap.back());
    }
    auto heap_less = [&](const Head& a, const Head& b) { return head_before(b, a); };
    std::make_heap(heap.begin(), heap.end(), heap_less);
    std::size_t out = 0;
    std::size_t size = heap.size();
    while (size > 0) {
      Head& top = heap.front();
      merged[out++] = order[top.at];
      if (++top.at < pieces[top.piece].end) {
        load(top);
      } else {
        top = heap[--size];
      }
      sift_down_root(heap, size, head_before);
    }
    std::copy(merged.begin(), merged.begin() + static_cast<std::ptrdiff_t>(out),
              order.begin() + static_cast<std::ptrdiff_t>(begin[l]));
  }
  for (const auto& row : g.rows) rows->by_offset.push_back({row.offset, row.count, row.region});
  std::sort(rows->by_offset.begin(), rows->by_offset.end(),
            [](const auto& a, const auto& b) { return a.offset < b.offset; });
  return rows;
}

}  // namespace

namespace detail {

RankCalls build_call_arrays_literal(const Run& run, const std::vector<uint32_t>& regions,
                                    int64_t rank) {
  RankCalls out;
  out.rank = rank;
  const Gathered g = gather(run, regions, rank);
  const std::size_t n = g.size;
  if (n == 0) return out;

  // Concatenated columns.
  std::vector<int64_t> start(n), end(n), lane;
  if (g.any_lane) lane.resize(n);
  for (const auto& row : g.rows) {
    for (uint64_t j = 0; j < row.count; ++j) {
      start[row.first_k + j] = run.start_ns[row.offset + j];
      end[row.first_k + j] = run.end_ns[row.offset + j];
      if (g.any_lane) lane[row.first_k + j] = run.lane[row.offset + j];
    }
  }
  check_ends_after_starts(run, g);

  // call_id order: start ascending, end descending, stable.
  std::vector<uint64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](uint64_t a, uint64_t b) {
    if (start[a] != start[b]) return start[a] < start[b];
    return end[a] > end[b];
  });

  // Lanes ascending; positions of each lane's calls in call_id order.
  std::vector<int64_t> lane_values;
  if (g.any_lane) {
    lane_values = lane;
    std::sort(lane_values.begin(), lane_values.end());
    lane_values.erase(std::unique(lane_values.begin(), lane_values.end()), lane_values.end());
  } else {
    lane_values.push_back(-1);
  }
  std::vector<std::vector<uint64_t>> members(lane_values.size());
  for (uint64_t id = 0; id < n; ++id) {
    const uint64_t k = order[id];
    const std::size_t li =
        g.any_lane ? static_cast<std::size_t>(
                         std::lower_bound(lane_values.begin(), lane_values.end(), lane[k]) -
                         lane_values.begin())
                   : 0;
    members[li].push_back(id);
  }

  // Depth per lane (spec 3.4): k - number of ends (doubled) <= start (doubled).
  std::vector<int64_t> depth(n), parent(n, -1);
  for (const auto& ids : members) {
    const std::size_t m = ids.size();
    std::vector<DoubledTime> ends(m);
    for (std::size_t j = 0; j < m; ++j) ends[j] = doubled_end(start[order[ids[j]]], end[order[ids[j]]]);
    std::sort(ends.begin(), ends.end());
    int64_t min_depth = 0;
    for (std::size_t j = 0; j < m; ++j) {
      const DoubledTime s2 = doubled(start[order[ids[j]]]);
      const auto closed = std::upper_bound(ends.begin(), ends.end(), s2) - ends.begin();
      depth[ids[j]] = static_cast<int64_t>(j) - closed;
      min_depth = std::min(min_depth, depth[ids[j]]);
    }
    if (m > 0 && min_depth < 0) throw Error(Msg::not_properly_nested);
  }
  // Parent (spec 3.5): the latest earlier call of the lane at depth - 1.
  for (const auto& ids : members) {
    std::vector<int64_t> last_at_depth;
    for (uint64_t id : ids) {
      const int64_t d = depth[id];
      if (d > 0 && static_cast<std::size_t>(d - 1) < last_at_depth.size()) {
        parent[id] = last_at_depth[static_cast<std::size_t>(d - 1)];
      }
      if (last_at_depth.size() <= static_cast<std::size_t>(d)) last_at_depth.resize(d + 1, -1);
      last_at_depth[static_cast<std::size_t>(d)] = static_cast<int64_t>(id);
    }
  }
  // Proof of nesting (spec 3.6): the first call that outlives its parent.
  for (uint64_t id = 0; id < n; ++id) {
    if (parent[id] < 0) continue;
    const uint64_t k = order[id];
    const uint64_t pk = order[static_cast<uint64_t>(parent[id])];
    if (end[pk] < end[k]) {
      throw Error(Msg::calls_overlap, {{"child", describe(run, g, k, start[k], end[k])},
                                       {"parent", describe(run, g, pk, start[pk], end[pk])}});
    }
  }

  out.calls.reserve(n);
  for (std::size_t li = 0; li < members.size(); ++li) {
    if (members[li].empty()) continue;
    const std::size_t begin = out.calls.size();
    for (uint64_t id : members[li]) {
      const uint64_t k = order[id];
      out.calls.push_back(Call{start[k], end[k], g.row_of(k).region, static_cast<uint32_t>(depth[id])});
    }
    out.lanes.push_back(Lane{lane_values[li], begin, out.calls.size()});
  }
  return out;
}

}  // namespace detail

RankCalls build_call_arrays(const Run& run, const std::vector<uint32_t>& regions, int64_t rank,
                            CallStorage storage) {
  RankCalls out;
  out.rank = rank;
  const Gathered g = gather(run, regions, rank);
  const std::size_t n = g.size;
  if (n == 0) return out;
  check_ends_after_starts(run, g);

  // Distinct lanes, ascending (a rank without a lane column is lane -1).
  std::vector<int64_t> lane_values;
  if (g.any_lane) {
    // No copy of the lane column: the values met, in a small sorted vector
    // while there are few of them, then in a hash set.
    std::unordered_set<int64_t> many;
    auto see = [&](int64_t v) {
      if (!many.empty()) {
        many.insert(v);
        return;
      }
      const auto at = std::lower_bound(lane_values.begin(), lane_values.end(), v);
      if (at != lane_values.end() && *at == v) return;
      lane_values.insert(at, v);
      if (lane_values.size() > 64) many.insert(lane_values.begin(), lane_values.end());
    };
    for (const auto& row : g.rows) {
      for (uint64_t e = row.offset; e < row.offset + row.count; ++e) see(run.lane[e]);
    }
    if (!many.empty()) {
      lane_values.assign(many.begin(), many.end());
      std::sort(lane_values.begin(), lane_values.end());
    }
  } else {
    lane_values.push_back(-1);
  }

  if (storage != CallStorage::materialized) {
    // One lane and every row in start order: merge from the columns when
    // writing, after a first merge here proves the nesting.
    const bool index_anyway = storage == CallStorage::indexed && run.start_ns.size() <= UINT32_MAX;
    if (!index_anyway && lane_values.size() == 1 && rows_in_order(run, g)) {
      std::vector<MergedCalls::Row> rows;
      rows.reserve(g.rows.size());
      for (const auto& row : g.rows) rows.push_back({row.region, row.first_k, row.offset, row.count});
      auto merged = std::make_shared<MergedCalls>(run, std::move(rows));
      if (!merged->summarize(run.regions.size())) {
        return detail::build_call_arrays_literal(run, regions, rank);
      }
      out.streams.push_back(std::move(merged));
      out.lanes.push_back(Lane{lane_values[0], 0, static_cast<std::size_t>(n)});
      return out;
    }
    // Otherwise the call order as event indices, 4 bytes a call.
    if (run.start_ns.size() <= UINT32_MAX) {
      std::shared_ptr<const IndexedCalls::Rows> rows =
          index_calls(run, g, lane_values, out.lanes, storage != CallStorage::streamed_with_lookup);
      for (const Lane& lane : out.lanes) {
        auto stream = std::make_shared<IndexedCalls>(rows, lane.begin, lane.end);
        if (!stream->summarize(run.regions.size())) {
          return detail::build_call_arrays_literal(run, regions, rank);
        }
        out.streams.push_back(std::move(stream));
      }
      return out;
    }
  }

  // Records in call_id order: region holds the concatenation index and depth
  // the lane's rank until the stack pass.
  CallVector& calls = out.calls;
  if (n > UINT32_MAX) {
    throw Error(Msg::too_many_calls);
  }
  sort_calls(run, g, lane_values, calls);

  // Lane boundaries.
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j < n && calls[j].depth == calls[i].depth) ++j;
    out.lanes.push_back(Lane{lane_values[calls[i].depth], i, j});
    i = j;
  }

  // Stack pass per lane: depth = calls still open; a call that outlives the
  // innermost open call breaks the nesting.
  std::vector<DoubledTime> open_end;  // doubled ends of the open calls, innermost last
  bool nested = true;
  for (const Lane& lane : out.lanes) {
    std::size_t top = 0;
    for (std::size_t i = lane.begin; i < lane.end && nested; ++i) {
      const DoubledTime s2 = doubled(calls[i].start_ns);
      while (top > 0 && open_end[top - 1] <= s2) --top;
      const DoubledTime e2 = doubled_end(calls[i].start_ns, calls[i].end_ns);
      if (top > 0 && e2 > open_end[top - 1]) nested = false;
      calls[i].depth = static_cast<uint32_t>(top);
      if (top == open_end.size()) open_end.resize(2 * top + 64);
      open_end[top++] = e2;
    }
  }
  if (!nested) return detail::build_call_arrays_literal(run, regions, rank);
  // Concatenation index -> region.
  for (Call& call : calls) call.region = g.row_of(call.region).region;
  return out;
}

}  // namespace scope_speedscope
