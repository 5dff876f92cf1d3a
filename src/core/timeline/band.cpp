// timeline: what a rank collapsed to one band does, pixel by pixel (see
// Timeline::band_frames and band_depth): the region running at the band's
// depth, as hpcviewer's trace view colours a rank's row by the procedure
// running there.
#include <algorithm>

#include "model/time.hpp"
#include "timeline/checks.hpp"
#include "timeline/search.hpp"
#include "timeline/timeline.hpp"

namespace scope_speedscope {

namespace {
constexpr double kSpanning = 0.95;  // a region this share of the lanes' time spans them
}  // namespace

uint32_t Timeline::band_depth(const std::vector<std::size_t>& lanes) const {
  if (lanes.empty()) detail::bad_argument("bandDepth: no lanes");
  for (std::size_t lane : lanes) check_lane(lane);
  int64_t first = 0, last = 0;
  uint32_t deepest = 0;
  std::size_t busy_lanes = 0;
  for (std::size_t lane : lanes) {
    const LaneInfo& info = lanes_[lane];
    if (info.calls == 0) continue;
    first = busy_lanes ? std::min(first, info.start_ns) : info.start_ns;
    last = busy_lanes ? std::max(last, info.end_ns) : info.end_ns;
    deepest = std::max(deepest, info.max_depth);
    ++busy_lanes;
  }
  if (busy_lanes == 0 || last <= first) return 0;
  // The lanes' time: the extent on each lane with calls.
  const double whole = static_cast<double>(int128{last} - first) * static_cast<double>(busy_lanes);
  std::vector<double> time(frames_.size(), 0.0);
  std::vector<int32_t> touched;
  for (uint32_t d = 0; d < deepest; ++d) {
    // Per frame, its calls' time at depth d (calls of one depth never
    // overlap: their sum is their union), from the summaries of whole
    // chunks and the calls after them.
    for (std::size_t lane : lanes) {
      const Block& b = blocks_[lane_block_[lane]];
      if (d >= b.depths) continue;
      const std::size_t k = b.first_depth + d;
      const Slice sl = slice(b, d);
      const auto add = [&](int32_t f, double ns) {
        if (time[f] == 0.0) touched.push_back(f);
        time[f] += ns;
      };
      const std::size_t whole_chunks = sl.n / kChunk;
      for (std::size_t c = 0; c < whole_chunks; ++c) {
        const uint64_t chunk = chunk_begin_[k] + c;
        for (uint64_t j = summary_begin_[chunk]; j < summary_begin_[chunk + 1]; ++j) {
          add(summary_frame_[j], static_cast<double>(summary_total_[j]));
        }
      }
      for (std::size_t i = whole_chunks * kChunk; i < sl.n; ++i) {
        add(sl.f(i), static_cast<double>(int128{sl.e(i)} - sl.s(i)));
      }
    }
    double most = 0.0;
    for (int32_t f : touched) {
      most = std::max(most, time[f]);
      time[f] = 0.0;
    }
    touched.clear();
    if (most < kSpanning * whole) return d;
  }
  return deepest;
}

std::vector<int32_t> Timeline::band_frames(const std::vector<std::size_t>& lanes, uint32_t depth,
                                           int64_t start, int64_t end, uint32_t width) const {
  detail::check_window("bandFrames", start, end);
  detail::check_width(width);
  if (lanes.empty()) detail::bad_argument("bandFrames: no lanes");
  for (std::size_t lane : lanes) check_lane(lane);
  const int128 span = int128{end} - start;
  std::vector<int32_t> out(width, -1);
  std::vector<Slice> slices;
  std::vector<std::size_t> at;
  for (std::size_t lane : lanes) {
    const Block& b = blocks_[lane_block_[lane]];
    const uint32_t depths = std::min(b.depths, depth + 1);
    if (depths == 0) continue;
    slices.clear();
    for (uint32_t d = 0; d < depths; ++d) slices.push_back(slice(b, d));
    at.assign(depths, 0);
    for (uint32_t p = 0; p < width; ++p) {
      if (out[p] >= 0) continue;  // an earlier lane runs a call there
      const auto a = static_cast<int64_t>(start + span * p / width);
      const auto z = static_cast<int64_t>(start + span * (p + 1) / width);
      const int64_t mid = z > a ? static_cast<int64_t>(a + (int128{z} - a) / 2) : a;
      // The deepest depth with a call covering mid: a call covers it only
      // where its parent does, so the first found from the bottom.
      for (uint32_t d = depths; d-- > 0;) {
        const Slice& sl = slices[d];
        // The first call whose covered end (a call of no length covers
        // [s, s + 1)) is after mid: it covers mid when it starts by then.
        at[d] = detail::gallop_index(
            at[d], sl.n, [&](std::size_t k) { return sl.e(k) <= mid && sl.s(k) < mid; });
        const std::size_t i = at[d];
        if (i < sl.n && sl.s(i) <= mid) {
          out[p] = sl.f(i);
          break;
        }
      }
    }
  }
  return out;
}

}  // namespace scope_speedscope
