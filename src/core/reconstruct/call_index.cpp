// reconstruct: a rank's call order as event indices (see streams.hpp).
//
// A stable counting sort by lane (rows in concatenation order), then in each
// lane a k-way merge of the rows' runs, each in call order (a row that is
// not is sorted on its own first). Ties (same start and end) go by
// concatenation order. 4 bytes a call, plus 4 a call of the largest lane
// while it is merged.
#include <algorithm>

#include "reconstruct/call_order.hpp"
#include "reconstruct/streams.hpp"

namespace scope_speedscope::detail {
namespace {

// The position of an event's lane among the rank's lanes: a table over a
// dense range of lane ids, else a binary search.
class LanePosition {
 public:
  LanePosition(const Run& run, const Rows& rows, const std::vector<int64_t>& lanes)
      : run_(run), lanes_(lanes), any_(rows.any_lane) {
    const int64_t lo = lanes.front();
    lo_ = lo;
    const uint64_t range = static_cast<uint64_t>(lanes.back()) - static_cast<uint64_t>(lo);
    if (any_ && range <= 4 * static_cast<uint64_t>(lanes.size()) + 4096) {
      dense_.assign(static_cast<std::size_t>(range) + 1, 0);
      for (std::size_t l = 0; l < lanes.size(); ++l) {
        dense_[static_cast<uint64_t>(lanes[l]) - static_cast<uint64_t>(lo)] =
            static_cast<uint32_t>(l);
      }
    }
  }
  std::size_t operator()(uint64_t e) const {
    if (!any_) return 0;
    const int64_t v = run_.lane[e];
    if (!dense_.empty()) return dense_[static_cast<uint64_t>(v) - static_cast<uint64_t>(lo_)];
    return static_cast<std::size_t>(std::lower_bound(lanes_.begin(), lanes_.end(), v) -
                                    lanes_.begin());
  }

 private:
  const Run& run_;
  const std::vector<int64_t>& lanes_;
  bool any_;
  int64_t lo_ = 0;
  std::vector<uint32_t> dense_;
};

// The rank's events grouped by lane (stable: rows in concatenation order);
// returns where each lane begins (lanes + 1 entries).
std::vector<std::size_t> group_by_lane(const Rows& rows, const LanePosition& lane_of,
                                       std::size_t lanes, std::vector<uint32_t>& events) {
  std::vector<std::size_t> begin(lanes + 1, 0);
  for (const auto& row : rows.rows) {
    for (uint64_t e = row.offset; e < row.offset + row.count; ++e) ++begin[lane_of(e) + 1];
  }
  for (std::size_t l = 0; l < lanes; ++l) begin[l + 1] += begin[l];
  events.resize(rows.size);
  std::vector<std::size_t> fill(begin.begin(), begin.end() - 1);
  for (const auto& row : rows.rows) {
    for (uint64_t e = row.offset; e < row.offset + row.count; ++e) {
      events[fill[lane_of(e)]++] = static_cast<uint32_t>(e);
    }
  }
  return begin;
}

// Room for the row in the high bits of the event indices? Then the order
// carries it, and the streams need no lookup.
void pack_rows_if_room(const Run& run, const Rows& rows, IndexedCalls::Order& order) {
  int bits = 1;  // enough for every event index
  while (bits < 32 && (uint64_t{1} << bits) < run.start_ns.size()) ++bits;
  if (bits < 32 && static_cast<uint64_t>(rows.rows.size()) <= (uint64_t{1} << (32 - bits))) {
    order.packed = true;
    order.shift = bits;
    order.mask = static_cast<uint32_t>((uint64_t{1} << bits) - 1);
    for (const auto& row : rows.rows) order.region_of_row.push_back(row.region);
  }
}

struct Piece {
  std::size_t begin, end;  // positions in the event indices
  std::size_t row;         // in rows.rows
};

// The lane's runs [begin, end), one per row, in concatenation order: a new
// one starts where an event is not in the current run's row.
void split_by_row(const Rows& rows, const std::vector<uint32_t>& events, std::size_t begin,
                  std::size_t end, std::vector<Piece>& pieces) {
  pieces.clear();
  std::size_t row = 0;
  auto in_row = [&](uint64_t e, std::size_t r) {
    return e >= rows.rows[r].offset && e - rows.rows[r].offset < rows.rows[r].count;
  };
  for (std::size_t i = begin; i < end; ++i) {
    const uint64_t e = events[i];
    if (!pieces.empty() && in_row(e, pieces.back().row)) continue;
    while (!in_row(e, row)) ++row;
    if (!pieces.empty()) pieces.back().end = i;
    pieces.push_back(Piece{i, end, row});
  }
}

// Puts each piece in call order (sorted on its own when its row is not),
// tagged with its row when the order is packed.
void order_pieces(const Run& run, const std::vector<Piece>& pieces,
                  const std::vector<char>& in_order, IndexedCalls::Order& order) {
  auto before = [&](uint32_t a, uint32_t b) {  // within one row: event order is concatenation order
    return call_before(run.start_ns[a], run.end_ns[a], a, run.start_ns[b], run.end_ns[b], b);
  };
  for (const Piece& piece : pieces) {
    auto first = order.events.begin() + static_cast<std::ptrdiff_t>(piece.begin);
    auto last = order.events.begin() + static_cast<std::ptrdiff_t>(piece.end);
    if (!in_order[piece.row]) std::sort(first, last, before);
    if (order.packed) {
      const uint32_t tag = static_cast<uint32_t>(piece.row) << order.shift;
      for (auto it = first; it != last; ++it) *it |= tag;
    }
  }
}

struct Head {
  int64_t start, end;
  std::size_t piece;  // concatenation order of the rows
  std::size_t at;
};
struct HeadBefore {
  bool operator()(const Head& a, const Head& b) const {
    return call_before(a.start, a.end, a.piece, b.start, b.end, b.piece);
  }
};

// Merges the lane's pieces (each in call order) into [pieces' begin, ...).
void merge_pieces(const Run& run, const std::vector<Piece>& pieces, IndexedCalls::Order& order,
                  std::vector<uint32_t>& merged) {
  const uint32_t mask = order.mask;
  auto load = [&](Head& h) {
    const uint32_t e = order.events[h.at] & mask;
    h.start = run.start_ns[e];
    h.end = run.end_ns[e];
  };
  MergeHeap<Head, HeadBefore> heap{HeadBefore{}};
  for (std::size_t p = 0; p < pieces.size(); ++p) {
    heap.heads().push_back(Head{0, 0, p, pieces[p].begin});
    load(heap.heads().back());
  }
  heap.start();
  std::size_t out = 0;
  while (!heap.empty()) {
    Head& top = heap.top();
    merged[out++] = order.events[top.at];
    if (++top.at < pieces[top.piece].end) {
      load(top);
      heap.sifted();
    } else {
      heap.pop();
    }
  }
  std::copy(merged.begin(), merged.begin() + static_cast<std::ptrdiff_t>(out),
            order.events.begin() + static_cast<std::ptrdiff_t>(pieces.front().begin));
}

}  // namespace

std::shared_ptr<IndexedCalls::Order> index_calls(const Run& run, const Rows& rows,
                                                 const std::vector<int64_t>& lanes,
                                                 std::vector<Lane>& out_lanes) {
  auto order = std::make_shared<IndexedCalls::Order>();
  order->run = &run;
  const LanePosition lane_of(run, rows, lanes);
  const std::vector<std::size_t> begin = group_by_lane(rows, lane_of, lanes.size(), order->events);
  pack_rows_if_room(run, rows, *order);

  std::vector<char> in_order(rows.rows.size());
  for (std::size_t r = 0; r < rows.rows.size(); ++r)
    in_order[r] = row_in_order(run, rows.rows[r]) ? 1 : 0;
  std::size_t largest = 0;
  for (std::size_t l = 0; l < lanes.size(); ++l)
    largest = std::max(largest, begin[l + 1] - begin[l]);

  std::vector<Piece> pieces;
  std::vector<uint32_t> merged;
  for (std::size_t l = 0; l < lanes.size(); ++l) {
    if (begin[l] == begin[l + 1]) continue;
    out_lanes.push_back(Lane{lanes[l], begin[l], begin[l + 1]});
    split_by_row(rows, order->events, begin[l], begin[l + 1], pieces);
    order_pieces(run, pieces, in_order, *order);
    if (pieces.size() == 1) continue;
    if (merged.size() < largest) merged.resize(largest);
    merge_pieces(run, pieces, *order, merged);
  }
  for (const auto& row : rows.rows) order->by_offset.push_back({row.offset, row.count, row.region});
  std::sort(order->by_offset.begin(), order->by_offset.end(),
            [](const auto& a, const auto& b) { return a.offset < b.offset; });
  return order;
}

}  // namespace scope_speedscope::detail
