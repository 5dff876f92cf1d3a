// timeline: bars, the level-of-detail query (see Timeline::bars).
#include <algorithm>

#include "model/time.hpp"
#include "timeline/checks.hpp"
#include "timeline/search.hpp"
#include "timeline/timeline.hpp"

namespace scope_speedscope {
namespace {

using detail::DepthColumns;

// The bars of one depth of a window. A pixel is span / width ns; for whole
// numbers of ns x: x >= a pixel <=> x >= ceil(span / width) = `px`, so one
// division a query, then plain 64-bit comparisons.
class DepthBars {
 public:
  DepthBars(const DepthColumns& sl, uint32_t depth, int128 px, Timeline::Bars& out)
      : sl_(sl), depth_(depth), px_wide_(px), px_(static_cast<uint64_t>(px)), out_(out) {}

  // Items for the calls [lo, hi) (those overlapping the window).
  void emit_all(std::size_t lo, std::size_t hi) {
    std::size_t i = lo;
    while (i < hi) {
      if (lasts_a_pixel(i)) {
        emit(i, sl_.s(i), sl_.e(i), sl_.f(i), 1);
        ++i;
        continue;
      }
      const std::size_t last = block_end(i, hi);
      emit(i, sl_.s(i), sl_.e(last), frame_of_block(i, last), last - i + 1);
      i = last + 1;
    }
  }

 private:
  bool lasts_a_pixel(std::size_t i) const {
    return static_cast<uint64_t>(sl_.e(i)) - static_cast<uint64_t>(sl_.s(i)) >= px_;
  }
  void emit(std::size_t first, int64_t s, int64_t e, int32_t frame, uint64_t count) {
    out_.first.push_back(first);
    out_.start.push_back(s);
    out_.end.push_back(e);
    out_.depth.push_back(depth_);
    out_.frame.push_back(frame);
    out_.count.push_back(static_cast<uint32_t>(count));
  }
  // The last call of the block from i (a call shorter than a pixel): the
  // following calls join while they are shorter than a pixel and start less
  // than a pixel after the block's end. Every call starting within a pixel
  // of the end before the last such one lies inside that pixel (so is
  // short); only the last may be long.
  std::size_t block_end(std::size_t i, std::size_t hi) {
    std::size_t last = i;
    int64_t end = sl_.e(i);
    while (last + 1 < hi) {
      // Starts before end + px (saturating: nothing is that late).
      const int128 reach = int128{end} + px_wide_;
      const bool all_near = reach > int128{INT64_MAX};
      const int64_t limit = all_near ? INT64_MAX : static_cast<int64_t>(reach);
      auto near = [&](std::size_t k) { return all_near || sl_.s(k) < limit; };
      const std::size_t j =
          detail::gallop_from(last + 1, hi, last + advance_, near);  // first too far
      if (j == last + 1) break;                                      // a gap of a pixel
      advance_ = j - last;
      const std::size_t k = j - 1;         // the last near one
      if (lasts_a_pixel(k)) return k - 1;  // the block ends before it
      last = k;
      end = sl_.e(k);
    }
    return last;
  }
  // The block's frame when no change falls in (i, last], else -1.
  int32_t frame_of_block(std::size_t i, std::size_t last) {
    if (last == i) return sl_.f(i);
    return sl_.frame_changes(i, last) ? -1 : sl_.f(i);
  }

  const DepthColumns& sl_;
  uint32_t depth_;
  int128 px_wide_;
  uint64_t px_;  // <= 2^63
  Timeline::Bars& out_;
  std::size_t advance_ = 1;  // calls the last jump went over: the next guess
};

}  // namespace

void Timeline::bars(std::size_t lane, int64_t start, int64_t end, uint32_t width, Bars& out) const {
  check_lane(lane);
  detail::check_window("bars", start, end);
  detail::check_width(width);
  out.clear();
  const Block& b = blocks_[lane_block_[lane]];
  const int128 px = ((int128{end} - int128{start}) + width - 1) / width;
  for (uint32_t d = 0; d < b.depths; ++d) {
    const Slice sl = slice(b, d);
    // Overlapping calls: covered end after the window's start, start before its end.
    const std::size_t lo = detail::partition_index(
        0, sl.n, [&](std::size_t i) { return covered_end(sl.s(i), sl.e(i)) <= start; });
    const std::size_t hi =
        detail::partition_index(lo, sl.n, [&](std::size_t i) { return sl.s(i) < end; });
    if (lo >= hi) break;  // nothing deeper overlaps either
    DepthBars(sl, d, px, out).emit_all(lo, hi);
  }
  out.rows.assign(std::size_t{lanes_[lane].max_depth} + 2, 0);
  for (uint32_t d : out.depth) ++out.rows[d + 1];
  for (std::size_t d = 1; d < out.rows.size(); ++d) out.rows[d] += out.rows[d - 1];
}

}  // namespace scope_speedscope
