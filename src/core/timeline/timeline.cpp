// timeline: the columns' accessors, and the argument checks every query makes
// (see timeline.hpp; bars.cpp, queries.cpp and build.cpp hold
// the rest; opening is in build.cpp).
#include "timeline/timeline.hpp"

#include <algorithm>
#include <string>

#include "model/time.hpp"
#include "text/messages.hpp"
#include "timeline/checks.hpp"

namespace scope_speedscope {

namespace detail {

void bad_argument(const std::string& detail) {
  throw Error(Msg::bad_argument, {{"detail", detail}});
}

void check_window(const char* what, int64_t start, int64_t end) {
  if (end <= start) {
    bad_argument(std::string(what) + ": end (" + std::to_string(end) + ") must be after start (" +
                 std::to_string(start) + ")");
  }
}

void check_width(uint32_t width) {
  if (width < 1 || width > kTimelineMaxWidth) {
    bad_argument("bars: width " + std::to_string(width) + " is outside 1 to " +
                 std::to_string(kTimelineMaxWidth));
  }
}

double median_of(int64_t* v, std::size_t n) noexcept {
  if (n == 0) return 0;
  const std::size_t mid = n / 2;
  std::nth_element(v, v + mid, v + n);
  const auto upper = static_cast<double>(v[mid]);
  if (n % 2 == 1) return upper;
  const int64_t lower = *std::max_element(v, v + mid);
  return (static_cast<double>(lower) + upper) / 2;
}

double median_of(std::vector<int64_t>& v) noexcept { return median_of(v.data(), v.size()); }

}  // namespace detail

void Timeline::Bars::clear() {
  start.clear();
  end.clear();
  depth.clear();
  frame.clear();
  count.clear();
  first.clear();
  rows.clear();
}

int64_t Timeline::run_end_ns() const {
  int64_t end = 0;
  for (const LaneInfo& l : lanes_) end = std::max(end, l.end_ns);
  return saturating_add(end, 1);
}

Timeline::Slice Timeline::slice(const Block& b, uint32_t depth) const {
  const std::size_t k = b.first_depth + depth;
  const uint64_t at = depth_begin_[k];
  return Slice{starts(),
               call_.data() + at,
               chunk_change_.data() + chunk_begin_[k],
               change_low_.data(),
               static_cast<std::size_t>(depth_begin_[k + 1] - at),
               &longs_,
               at};
}

int64_t detail::LongEnds::end_of(uint64_t pos) const {
  const auto it = std::lower_bound(at.begin(), at.end(), pos);
  return end[static_cast<std::size_t>(it - at.begin())];
}

void Timeline::check_lane(std::size_t lane) const {
  if (lane >= lanes_.size()) {
    const std::size_t n = lanes_.size();
    detail::bad_argument("lane " + std::to_string(lane) + " is out of range (the timeline has " +
                         std::to_string(n) + (n == 1 ? " lane)" : " lanes)"));
  }
}

Timeline::DepthView Timeline::depth_view(std::size_t lane, uint32_t depth) const {
  check_lane(lane);
  const Block& b = blocks_[lane_block_[lane]];
  if (depth >= b.depths) return DepthView(Slice{{}, nullptr, nullptr, nullptr, 0, &longs_, 0});
  return DepthView(slice(b, depth));
}

std::size_t Timeline::memory_bytes() const {
  std::size_t n = start_off_.capacity() * 4 + start_base_.capacity() * 8 +
                  wide_start_.capacity() * 8 + call_.capacity() * 8 + longs_.at.capacity() * 16 +
                  chunk_begin_.capacity() * 8 + summary_begin_.capacity() * 8 +
                  chunk_duration_.capacity() * 8 + summary_frame_.capacity() * 4 +
                  summary_calls_.capacity() * 4 + summary_covered_.capacity() * 8 +
                  summary_total_.capacity() * 8 + summary_self_.capacity() * 8 +
                  depth_begin_.capacity() * 8 + change_low_.capacity() +
                  chunk_change_.capacity() * 8 + blocks_.capacity() * sizeof(Block) +
                  lane_block_.capacity() * sizeof(std::size_t) +
                  lanes_.capacity() * sizeof(LaneInfo) + frames_.capacity() * sizeof(std::string);
  for (const LaneInfo& l : lanes_) n += l.name.capacity();
  for (const std::string& f : frames_) n += f.capacity();
  return n;
}

RunOrder Timeline::run_order() const {
  return {described_->region_order_keys,
          static_cast<int64_t>(static_cast<uint64_t>(origin_ns_) -
                               static_cast<uint64_t>(origin_in_run_ns_))};
}

}  // namespace scope_speedscope
