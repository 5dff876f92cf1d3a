// timeline: the queries over one instant and over a window (stack_at,
// regions); bars are in bars.cpp.
#include <algorithm>
#include <string>

#include "model/time.hpp"
#include "timeline/checks.hpp"
#include "timeline/search.hpp"
#include "timeline/timeline.hpp"

namespace scope_speedscope {

std::vector<Timeline::StackEntry> Timeline::stack_at(std::size_t lane, int64_t time) const {
  check_lane(lane);
  const Block& b = blocks_[lane_block_[lane]];
  std::vector<StackEntry> out;
  for (uint32_t d = 0; d < b.depths; ++d) {
    const Slice sl = slice(b, d);
    const std::size_t after =
        detail::partition_index(0, sl.n, [&](std::size_t i) { return sl.s(i) <= time; });
    if (after == 0) break;
    const std::size_t i = after - 1;
    if (covered_end(sl.s(i), sl.e(i)) <= time) break;
    out.push_back(StackEntry{sl.f(i), sl.s(i), sl.e(i), d, self_of(b, d, i)});
  }
  return out;
}

int64_t Timeline::self_ns(std::size_t lane, uint32_t depth, std::size_t index) const {
  check_lane(lane);
  const Block& b = blocks_[lane_block_[lane]];
  if (depth >= b.depths || index >= slice(b, depth).n) {
    detail::bad_argument("self_ns: no call " + std::to_string(index) + " at depth " +
                         std::to_string(depth) + " of lane " + std::to_string(lane));
  }
  return self_of(b, depth, index);
}

// Its duration less its children's: the calls one depth down that start
// within it (from its start to its covered end), summed in wrapping
// arithmetic as the durations' int64 differences are.
int64_t Timeline::self_of(const Block& b, uint32_t depth, std::size_t index) const {
  const Slice sl = slice(b, depth);
  auto duration = [](int64_t s, int64_t e) {
    return static_cast<uint64_t>(e) - static_cast<uint64_t>(s);
  };
  uint64_t self = duration(sl.s(index), sl.e(index));
  if (depth + 1 >= b.depths) return static_cast<int64_t>(self);
  const Slice kids = slice(b, depth + 1);
  const int64_t from = sl.s(index), until = covered_end(sl.s(index), sl.e(index));
  const std::size_t lo =
      detail::partition_index(0, kids.n, [&](std::size_t i) { return kids.s(i) < from; });
  const std::size_t hi =
      detail::partition_index(lo, kids.n, [&](std::size_t i) { return kids.s(i) < until; });
  return static_cast<int64_t>(self - duration_sum(b, depth + 1, lo, hi));
}

uint64_t Timeline::duration_sum(const Block& b, uint32_t depth, std::size_t lo,
                                std::size_t hi) const {
  const Slice sl = slice(b, depth);
  auto duration = [&](std::size_t i) {
    return static_cast<uint64_t>(sl.e(i)) - static_cast<uint64_t>(sl.s(i));
  };
  const std::size_t k = b.first_depth + depth;
  const std::size_t first_chunk = (lo + kChunk - 1) / kChunk, stop_chunk = hi / kChunk;
  uint64_t sum = 0;
  std::size_t i = lo;
  if (first_chunk < stop_chunk) {
    for (; i < first_chunk * kChunk; ++i) sum += duration(i);
    for (std::size_t c = first_chunk; c < stop_chunk; ++c) {
      sum += static_cast<uint64_t>(chunk_duration_[chunk_begin_[k] + c]);
    }
    i = stop_chunk * kChunk;
  }
  for (; i < hi; ++i) sum += duration(i);
  return sum;
}

void Timeline::window_slices(const Block& b, int64_t start, int64_t end, std::vector<Slice>& slices,
                             std::vector<std::size_t>& first,
                             std::vector<std::size_t>& stop) const {
  slices.clear();
  first.clear();
  stop.clear();
  for (uint32_t d = 0; d < b.depths; ++d) {
    const Slice sl = slice(b, d);
    const std::size_t lo = detail::partition_index(
        0, sl.n, [&](std::size_t i) { return covered_end(sl.s(i), sl.e(i)) <= start; });
    const std::size_t hi =
        detail::partition_index(lo, sl.n, [&](std::size_t i) { return sl.s(i) < end; });
    if (lo >= hi) break;  // nothing deeper overlaps either
    slices.push_back(sl);
    first.push_back(lo);
    stop.push_back(hi);
  }
}

struct Timeline::RegionSums {
  explicit RegionSums(std::size_t frames) : calls(frames, 0), total(frames, 0), self(frames, 0) {}
  std::vector<uint64_t> calls;
  std::vector<int64_t> total;
  std::vector<uint64_t> self;  // wrapping, as self_of
};

// A call's self is its clipped length less its children's (the calls one
// depth down from its start to its covered end). Only the first and the
// last call of a depth can be cut by the window; the calls between are
// whole, and so are their children: the chunks they fill are added from
// their summaries, the rest call by call (self_of).
void Timeline::add_depth_regions(const Block& b, std::size_t d, const std::vector<Slice>& slices,
                                 const std::vector<std::size_t>& first,
                                 const std::vector<std::size_t>& stop, int64_t start, int64_t end,
                                 RegionSums& sums) const {
  const Slice& sl = slices[d];
  auto clip = [&](int64_t s, int64_t e) {
    const int64_t a = std::max(s, start), z = std::min(e, end);
    return z > a ? z - a : int64_t{0};
  };
  // The clipped lengths of a cut call's children in the window.
  auto children_of = [&](std::size_t i) -> uint64_t {
    if (d + 1 >= slices.size()) return 0;
    const Slice& kids = slices[d + 1];
    const int64_t from = sl.s(i), until = covered_end(sl.s(i), sl.e(i));
    const std::size_t lo = detail::partition_index(first[d + 1], stop[d + 1],
                                                   [&](std::size_t j) { return kids.s(j) < from; });
    const std::size_t hi =
        detail::partition_index(lo, stop[d + 1], [&](std::size_t j) { return kids.s(j) < until; });
    const std::size_t whole_lo = lo + (lo < hi && kids.s(lo) < start ? 1 : 0);
    const std::size_t whole_hi = hi - (hi > whole_lo && kids.e(hi - 1) > end ? 1 : 0);
    uint64_t sum = 0;
    if (whole_lo < whole_hi)
      sum += duration_sum(b, static_cast<uint32_t>(d + 1), whole_lo, whole_hi);
    if (whole_lo != lo) sum += static_cast<uint64_t>(clip(kids.s(lo), kids.e(lo)));
    if (whole_hi != hi) sum += static_cast<uint64_t>(clip(kids.s(hi - 1), kids.e(hi - 1)));
    return sum;
  };
  auto cut = [&](std::size_t i) {
    const int32_t f = sl.f(i);
    const int64_t c = clip(sl.s(i), sl.e(i));
    ++sums.calls[f];
    sums.total[f] = saturating_add(sums.total[f], c);  // every call, recursion too (as diff)
    sums.self[f] += static_cast<uint64_t>(c) - children_of(i);
  };
  auto whole = [&](std::size_t i) {
    const int32_t f = sl.f(i);
    ++sums.calls[f];
    sums.total[f] = saturating_add(sums.total[f], std::max<int64_t>(0, sl.e(i) - sl.s(i)));
    sums.self[f] += static_cast<uint64_t>(self_of(b, static_cast<uint32_t>(d), i));
  };
  auto inside = [&](std::size_t i) { return sl.s(i) >= start && sl.e(i) <= end; };
  std::size_t lo = first[d], hi = stop[d];
  if (lo < hi && !inside(lo)) cut(lo++);
  if (lo < hi && !inside(hi - 1)) cut(--hi);
  // [lo, hi): whole calls; whole chunks from their summaries.
  const std::size_t k = b.first_depth + d;
  const std::size_t c0 = (lo + kChunk - 1) / kChunk;
  const std::size_t c1 = hi == sl.n ? (sl.n + kChunk - 1) / kChunk : hi / kChunk;
  if (c0 >= c1) {
    for (std::size_t i = lo; i < hi; ++i) whole(i);
    return;
  }
  for (std::size_t i = lo; i < c0 * kChunk; ++i) whole(i);
  for (std::size_t c = c0; c < c1; ++c) {
    const std::size_t chunk = chunk_begin_[k] + c;
    for (uint64_t j = summary_begin_[chunk]; j < summary_begin_[chunk + 1]; ++j) {
      const int32_t f = summary_frame_[j];
      sums.calls[f] += summary_calls_[j];
      sums.total[f] = saturating_add(sums.total[f], summary_total_[j]);
      sums.self[f] += static_cast<uint64_t>(summary_self_[j]);
    }
  }
  for (std::size_t i = std::min(hi, c1 * kChunk); i < hi; ++i) whole(i);
}

std::vector<Timeline::RegionTotal> Timeline::regions(int64_t start, int64_t end,
                                                     const std::vector<std::size_t>& lanes) const {
  detail::check_window("regions", start, end);
  std::vector<std::size_t> chosen = lanes;
  for (std::size_t lane : chosen) check_lane(lane);
  if (chosen.empty()) {
    for (std::size_t l = 0; l < lanes_.size(); ++l) chosen.push_back(l);
  }
  std::sort(chosen.begin(), chosen.end());
  chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());

  const std::size_t F = frames_.size();
  RegionSums sums(F);
  std::vector<Slice> slices;
  std::vector<std::size_t> first, stop;
  for (std::size_t lane : chosen) {
    const Block& b = blocks_[lane_block_[lane]];
    window_slices(b, start, end, slices, first, stop);
    for (std::size_t d = 0; d < slices.size(); ++d) {
      add_depth_regions(b, d, slices, first, stop, start, end, sums);
    }
  }
  const std::vector<uint64_t>& calls = sums.calls;
  const std::vector<int64_t>& total = sums.total;
  const std::vector<uint64_t>& self = sums.self;
  std::vector<RegionTotal> out;
  for (std::size_t f = 0; f < F; ++f) {
    if (calls[f] > 0)
      out.push_back(
          RegionTotal{static_cast<int32_t>(f), calls[f], total[f], static_cast<int64_t>(self[f])});
  }
  return out;
}

// ---- a window within a budget ------------------------------------------------------

uint64_t Timeline::calls_in(int64_t start, int64_t end) const {
  uint64_t n = 0;
  for (const RegionTotal& r : regions(start, end)) n += r.calls;
  return n;
}

Timeline::Window Timeline::window_within(int64_t start, int64_t end, uint64_t max_calls) const {
  detail::check_window("windowWithin", start, end);
  const uint64_t all = calls_in(start, end);
  if (all <= max_calls) return Window{start, end, all};
  // floor((start + end) / 2) and the half-widths, without overflow.
  const auto middle = static_cast<int64_t>((int128{start} + int128{end}) >> 1);
  int128 lo = 0;  // a half-width that fits (0: none yet)
  int128 hi = (int128{end} - int128{start} + 1) >> 1;
  Window best{middle, middle + 1, calls_in(middle, middle + 1)};
  while (hi - lo > 1) {
    const int128 half = (lo + hi) >> 1;
    const auto a = static_cast<int64_t>(std::max<int128>(start, int128{middle} - half));
    const auto b = static_cast<int64_t>(std::min<int128>(end, int128{middle} + half));
    const uint64_t n = calls_in(a, b);
    if (n <= max_calls) {
      lo = half;
      best = Window{a, b, n};
    } else {
      hi = half;
    }
  }
  return best;
}

}  // namespace scope_speedscope
