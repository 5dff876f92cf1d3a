// timeline: how busy lanes are, pixel by pixel (see Timeline::busy): what a
// rank collapsed to one band shows.
#include <string>

#include "model/time.hpp"
#include "timeline/checks.hpp"
#include "timeline/search.hpp"
#include "timeline/timeline.hpp"

namespace scope_speedscope {

std::vector<float> Timeline::busy(const std::vector<std::size_t>& lanes, int64_t start, int64_t end,
                                  uint32_t width) const {
  detail::check_window("busy", start, end);
  detail::check_width(width);
  if (lanes.empty()) detail::bad_argument("busy: no lanes");
  for (std::size_t lane : lanes) check_lane(lane);
  const int128 span = int128{end} - start;
  std::vector<double> covered(width, 0.0);
  for (std::size_t lane : lanes) {
    const Block& b = blocks_[lane_block_[lane]];
    if (b.depths == 0) continue;
    const Slice sl = slice(b, 0);  // top-level calls never overlap: ends ascend too
    std::size_t i = 0;
    for (uint32_t p = 0; p < width; ++p) {
      const auto a = static_cast<int64_t>(start + span * p / width);
      auto z = static_cast<int64_t>(start + span * (p + 1) / width);
      if (z == a) z = a + 1;  // narrower than 1 ns: the instant
      i = detail::gallop_index(i, sl.n, [&](std::size_t k) { return sl.e(k) <= a; });
      const std::size_t stop =
          detail::gallop_index(i, sl.n, [&](std::size_t k) { return sl.s(k) < z; });
      if (i >= stop) continue;
      // The calls [i, stop) overlap [a, z); only the first may start
      // before it and only the last end after it.
      uint64_t ns = duration_sum(b, 0, i, stop);
      if (sl.s(i) < a) ns -= static_cast<uint64_t>(a) - static_cast<uint64_t>(sl.s(i));
      if (sl.e(stop - 1) > z)
        ns -= static_cast<uint64_t>(sl.e(stop - 1)) - static_cast<uint64_t>(z);
      covered[p] += static_cast<double>(ns) / static_cast<double>(int128{z} - a);
      i = stop - 1;  // the last may reach into the next pixel
    }
  }
  std::vector<float> out(width);
  for (uint32_t p = 0; p < width; ++p) {
    out[p] = static_cast<float>(covered[p] / static_cast<double>(lanes.size()));
  }
  return out;
}

}  // namespace scope_speedscope
