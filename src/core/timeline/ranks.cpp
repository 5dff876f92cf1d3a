// timeline: who waits for whom (imbalance, aligned_calls; see timeline.hpp).
// Both read a window as its edges plus whole chunks: per depth, the calls
// overlapping the window are a range of the depth's columns, every call but
// the first and the last lies within the window, and whole chunks of those
// are read from their summaries (build.cpp), so the work is the depths'
// edges and one summary per 256 calls, not the calls.
#include <algorithm>
#include <limits>
#include <string>

#include "model/time.hpp"
#include "timeline/checks.hpp"
#include "timeline/search.hpp"
#include "timeline/timeline.hpp"

namespace scope_speedscope {

// Per frame: calls overlapping a window and their covered time, summed over
// blocks; `touched` lists the frames with calls.
struct Timeline::RankSums {
  const Timeline& tl;
  std::vector<uint64_t> calls;
  std::vector<int64_t> covered;
  std::vector<int32_t> touched;

  explicit RankSums(const Timeline& t)
      : tl(t), calls(t.frames_.size(), 0), covered(t.frames_.size(), 0) {}

  void clear() {
    for (int32_t f : touched) {
      calls[f] = 0;
      covered[f] = 0;
    }
    touched.clear();
  }
  // A call, its covered time cut to [start, end).
  void add_call(uint64_t at, int64_t start, int64_t end) {
    const int32_t f = tl.frame_at(at);
    if (calls[f]++ == 0) touched.push_back(f);
    const int64_t a = std::max(tl.start_at(at), start), z = std::min(tl.end_at(at), end);
    if (!tl.nested(at) && z > a) covered[f] += z - a;
  }
  void add_chunk(uint64_t chunk) {
    for (uint64_t j = tl.summary_begin_[chunk]; j < tl.summary_begin_[chunk + 1]; ++j) {
      const int32_t f = tl.summary_frame_[j];
      if (calls[f] == 0) touched.push_back(f);
      calls[f] += tl.summary_calls_[j];
      covered[f] += tl.summary_covered_[j];
    }
  }
  void add_block(const Block& b, int64_t start, int64_t end);
};

void Timeline::RankSums::add_block(const Block& b, int64_t start, int64_t end) {
  for (uint32_t d = 0; d < b.depths; ++d) {
    const std::size_t k = b.first_depth + d;
    const Slice sl = tl.slice(b, d);
    const std::size_t lo = detail::partition_index(
        0, sl.n, [&](std::size_t i) { return covered_end(sl.s(i), sl.e(i)) <= start; });
    const std::size_t hi =
        detail::partition_index(lo, sl.n, [&](std::size_t i) { return sl.s(i) < end; });
    if (lo >= hi) break;  // nothing deeper overlaps either
    const uint64_t base = tl.depth_begin_[k];
    // Calls [lo + 1, hi - 1) lie within the window: cutting them changes nothing.
    const std::size_t a = lo + 1, z = hi - 1;
    std::size_t i = a;
    if (z > a) {
      const std::size_t first_chunk = (a + kChunk - 1) / kChunk, stop_chunk = z / kChunk;
      for (; i < first_chunk * kChunk && i < z; ++i) add_call(base + i, start, end);
      for (std::size_t c = first_chunk; c < stop_chunk; ++c) add_chunk(tl.chunk_begin_[k] + c);
      i = std::max(i, stop_chunk * kChunk);
    }
    for (; i < z; ++i) add_call(base + i, start, end);
    add_call(base + lo, start, end);
    if (hi - 1 > lo) add_call(base + hi - 1, start, end);
  }
}

std::vector<int64_t> Timeline::ranks() const {
  std::vector<int64_t> out;
  for (const LaneInfo& l : lanes_) out.push_back(l.rank);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Per rank of ranks(), its distinct blocks in lane order.
std::vector<std::vector<std::size_t>> Timeline::rank_blocks() const {
  const std::vector<int64_t> rs = ranks();
  std::vector<std::vector<std::size_t>> out(rs.size());
  for (std::size_t l = 0; l < lanes_.size(); ++l) {
    const auto r = static_cast<std::size_t>(std::lower_bound(rs.begin(), rs.end(), lanes_[l].rank) -
                                            rs.begin());
    auto& blocks = out[r];
    if (std::find(blocks.begin(), blocks.end(), lane_block_[l]) == blocks.end())
      blocks.push_back(lane_block_[l]);
  }
  return out;
}

std::vector<Timeline::RegionImbalance> Timeline::imbalance(int64_t start, int64_t end) const {
  detail::check_window("imbalance", start, end);
  const std::vector<int64_t> rs = ranks();
  const std::vector<std::vector<std::size_t>> blocks_of = rank_blocks();
  const std::size_t R = rs.size();
  std::vector<std::vector<int64_t>> values(frames_.size());  // per frame with calls: per rank
  RankSums sums(*this);
  for (std::size_t r = 0; r < R; ++r) {
    sums.clear();
    for (std::size_t blk : blocks_of[r]) sums.add_block(blocks_[blk], start, end);
    for (int32_t f : sums.touched) {
      if (values[f].empty()) values[f].assign(R, 0);
      values[f][r] = sums.covered[f];
    }
  }
  std::vector<RegionImbalance> out;
  for (std::size_t f = 0; f < values.size(); ++f) {
    const std::vector<int64_t>& v = values[f];
    if (v.empty()) continue;
    const auto lo = std::min_element(v.begin(), v.end());
    const auto hi = std::max_element(v.begin(), v.end());  // the first of the largest
    int128 sum = 0;
    for (int64_t x : v) sum += x;
    RegionImbalance row{};
    row.frame = static_cast<int32_t>(f);
    row.ranks = static_cast<uint32_t>(R);
    row.min_ns = *lo;
    row.max_ns = *hi;
    std::vector<int64_t> sorted = v;
    row.median_ns = detail::median_of(sorted);
    row.mean_ns = static_cast<double>(sum) / static_cast<double>(R);
    row.imbalance = row.max_ns > 0 ? (static_cast<double>(row.max_ns) - row.mean_ns) /
                                         static_cast<double>(row.max_ns)
                                   : 0.0;
    row.slowest_rank = rs[static_cast<std::size_t>(hi - v.begin())];
    out.push_back(row);
  }
  std::stable_sort(out.begin(), out.end(), [](const RegionImbalance& x, const RegionImbalance& y) {
    return static_cast<double>(x.max_ns) - x.mean_ns > static_cast<double>(y.max_ns) - y.mean_ns;
  });
  return out;
}

}  // namespace scope_speedscope
