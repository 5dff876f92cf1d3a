// compare: two runs lined up call by call (see aligned_runs.hpp).
#include "compare/aligned_runs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "text/messages.hpp"

namespace scope_speedscope {

namespace {

constexpr float kNone = std::numeric_limits<float>::quiet_NaN();

// Calls fn(depth, index) for every call of a lane in start order (a parent
// before its children: ties by depth), merging the depths' columns.
template <class Fn>
void in_start_order(const Timeline& tl, std::size_t lane, Fn&& fn) {
  const uint32_t depths = tl.lanes()[lane].max_depth + 1;
  std::vector<Timeline::DepthView> views;
  for (uint32_t d = 0; d < depths; ++d) views.push_back(tl.depth_view(lane, d));
  using Head = std::pair<int64_t, uint32_t>;  // (start, depth)
  std::priority_queue<Head, std::vector<Head>, std::greater<Head>> heads;
  std::vector<std::size_t> next(depths, 0);
  for (uint32_t d = 0; d < depths; ++d)
    if (views[d].calls > 0) heads.emplace(views[d].start(0), d);
  while (!heads.empty()) {
    const uint32_t d = heads.top().second;
    heads.pop();
    const std::size_t i = next[d]++;
    fn(d, i);
    if (next[d] < views[d].calls) heads.emplace(views[d].start(next[d]), d);
  }
}

int64_t duration(const Timeline::DepthView& v, std::size_t i) {
  return static_cast<int64_t>(static_cast<uint64_t>(v.end(i)) - static_cast<uint64_t>(v.start(i)));
}

}  // namespace

AlignedRuns::AlignedRuns(const Timeline& a, const Timeline& b) : a_(a), b_(b) {
  frames_ = b_.frames();
  std::unordered_map<std::string, int32_t> frame_index;
  for (std::size_t f = 0; f < frames_.size(); ++f)
    frame_index.emplace(frames_[f], static_cast<int32_t>(f));
  for (const std::string& name : a_.frames()) {
    const auto [at, fresh] = frame_index.emplace(name, static_cast<int32_t>(frames_.size()));
    if (fresh) frames_.push_back(name);
    frame_of_a_.push_back(at->second);
  }
  std::unordered_map<std::string, std::size_t> lane_of_name;
  for (std::size_t l = 0; l < a_.lanes().size(); ++l) lane_of_name.emplace(a_.lanes()[l].name, l);
  std::unordered_map<std::string, std::size_t> data_of_name;  // a lane of B shown twice
  for (std::size_t l = 0; l < b_.lanes().size(); ++l) {
    const std::string& name = b_.lanes()[l].name;
    const auto partner = lane_of_name.find(name);
    partner_lane_.push_back(partner == lane_of_name.end() ? -1
                                                          : static_cast<int64_t>(partner->second));
    const auto [seen, fresh] = data_of_name.emplace(name, data_.size());
    data_of_lane_.push_back(seen->second);
    if (!fresh) continue;
    data_.emplace_back();
    line_up(b_, l, a_, partner == lane_of_name.end() ? SIZE_MAX : partner->second, data_.back());
  }
  // The other way round: each lane of A, its partner's durations in B.
  std::unordered_map<std::string, std::size_t> lane_of_b;
  for (std::size_t l = 0; l < b_.lanes().size(); ++l) lane_of_b.emplace(b_.lanes()[l].name, l);
  data_a_.resize(a_.lanes().size());
  for (std::size_t l = 0; l < a_.lanes().size(); ++l) {
    const auto partner = lane_of_b.find(a_.lanes()[l].name);
    const bool found = partner != lane_of_b.end();
    partner_lane_a_.push_back(found ? static_cast<int64_t>(partner->second) : -1);
    line_up(a_, l, b_, found ? partner->second : SIZE_MAX, data_a_[l]);
  }
}

// Per call of `own`'s lane its partner's duration in `other`'s lane
// (SIZE_MAX: none), and the chunks' sums.
void AlignedRuns::line_up(const Timeline& own, std::size_t lane, const Timeline& other,
                          std::size_t other_lane, std::vector<Depth>& out) {
  const uint32_t depths = own.lanes()[lane].max_depth + 1;
  out.resize(depths);
  for (uint32_t d = 0; d < depths; ++d) out[d].partner.assign(own.depth_view(lane, d).calls, kNone);
  if (other_lane != SIZE_MAX) {
    // The other run's calls of each frame in k order: their durations.
    std::vector<std::vector<int64_t>> of_frame(other.frames().size());
    in_start_order(other, other_lane, [&](uint32_t d, std::size_t i) {
      const Timeline::DepthView v = other.depth_view(other_lane, d);
      of_frame[static_cast<std::size_t>(v.frame(i))].push_back(duration(v, i));
    });
    std::unordered_map<std::string, int32_t> other_frame;
    for (std::size_t f = 0; f < other.frames().size(); ++f)
      other_frame.emplace(other.frames()[f], static_cast<int32_t>(f));
    std::vector<int32_t> frame_in_other(own.frames().size(), -1);
    for (std::size_t f = 0; f < own.frames().size(); ++f) {
      const auto it = other_frame.find(own.frames()[f]);
      if (it != other_frame.end()) frame_in_other[f] = it->second;
    }
    std::vector<uint64_t> k(own.frames().size(), 0);
    in_start_order(own, lane, [&](uint32_t d, std::size_t i) {
      const auto f = static_cast<std::size_t>(own.depth_view(lane, d).frame(i));
      const uint64_t kth = k[f]++;
      if (frame_in_other[f] < 0) return;
      const auto& durations = of_frame[static_cast<std::size_t>(frame_in_other[f])];
      if (kth < durations.size()) out[d].partner[i] = static_cast<float>(durations[kth]);
    });
  }
  for (uint32_t d = 0; d < depths; ++d) {
    const Timeline::DepthView v = own.depth_view(lane, d);
    Depth& depth = out[d];
    for (std::size_t at = 0; at < v.calls; at += kChunk) {
      double sb = 0, sa = 0;
      for (std::size_t i = at; i < std::min(v.calls, at + kChunk); ++i) {
        if (std::isnan(depth.partner[i])) continue;
        sb += static_cast<double>(duration(v, i));
        sa += depth.partner[i];
      }
      depth.chunk_own.push_back(sb);
      depth.chunk_partner.push_back(sa);
    }
  }
}

std::vector<RegionDelta> AlignedRuns::regions() const {
  auto named = [](const Timeline& tl) {
    NamedTotals out;
    for (std::size_t f = 0; f < tl.frames().size(); ++f) {
      const Timeline::FrameTotals& t = tl.frame_totals()[f];
      out.emplace_back(tl.frames()[f], RegionTotals{t.calls, t.total_ns, t.self_ns});
    }
    return out;
  };
  return compare_totals(named(a_), named(b_));
}

std::vector<RegionDelta> AlignedRuns::regions(int64_t start, int64_t end) const {
  auto named = [&](const Timeline& tl) {
    NamedTotals out;
    for (const Timeline::RegionTotal& r : tl.regions(start, end)) {
      out.emplace_back(tl.frames()[r.frame], RegionTotals{r.calls, r.total_ns, r.self_ns});
    }
    return out;
  };
  return compare_totals(named(a_), named(b_));
}

float AlignedRuns::partner_duration(std::size_t lane, uint32_t depth, std::size_t index) const {
  const Timeline::DepthView v = b_.depth_view(lane, depth);  // checks the lane
  if (index >= v.calls) return kNone;
  return data_[data_of_lane_[lane]][depth].partner[index];
}

// The calls [first, first + count) of a depth: the sum of the partnered
// calls' durations over their partners'.
double AlignedRuns::block_ratio(const Depth& d, const Timeline::DepthView& v, std::size_t first,
                                std::size_t count) {
  double sb = 0, sa = 0;
  auto add = [&](std::size_t i) {
    if (std::isnan(d.partner[i])) return;
    sb += static_cast<double>(duration(v, i));
    sa += d.partner[i];
  };
  const std::size_t stop = first + count;
  const std::size_t first_chunk = (first + kChunk - 1) / kChunk, stop_chunk = stop / kChunk;
  std::size_t i = first;
  if (first_chunk < stop_chunk) {
    for (; i < first_chunk * kChunk; ++i) add(i);
    for (std::size_t c = first_chunk; c < stop_chunk; ++c) {
      sb += d.chunk_own[c];
      sa += d.chunk_partner[c];
    }
    i = stop_chunk * kChunk;
  }
  for (; i < stop; ++i) add(i);
  return sa == 0 && sb == 0 ? std::numeric_limits<double>::quiet_NaN() : sb / sa;
}

void AlignedRuns::ratios(const Timeline& own, std::size_t lane, const std::vector<Depth>& data,
                         bool inverted, Bars& out) {
  out.ratio.resize(out.bars.size());
  for (std::size_t k = 0; k < out.bars.size(); ++k) {
    const uint32_t d = out.bars.depth[k];
    const Timeline::DepthView v = own.depth_view(lane, d);
    const std::size_t first = out.bars.first[k];
    double r = std::numeric_limits<double>::quiet_NaN();
    if (out.bars.count[k] == 1) {
      const float p = data[d].partner[first];
      if (!std::isnan(p)) {
        // Two zero-length partners are as fast (0 / 0 would read as no partner).
        const auto own_ns = static_cast<double>(duration(v, first));
        r = own_ns == 0 && p == 0 ? 1.0 : inverted ? static_cast<double>(p) / own_ns : own_ns / p;
      }
    } else {
      r = block_ratio(data[d], v, first, out.bars.count[k]);
      if (inverted && !std::isnan(r)) r = 1.0 / r;
    }
    out.ratio[k] = r;
  }
}

void AlignedRuns::aligned(std::size_t lane, int64_t start, int64_t end, uint32_t width,
                          Bars& out) const {
  b_.bars(lane, start, end, width, out.bars);  // checks the arguments
  ratios(b_, lane, data_[data_of_lane_[lane]], false, out);
}

void AlignedRuns::aligned_a(std::size_t lane, int64_t start, int64_t end, uint32_t width,
                            Bars& out) const {
  a_.bars(lane, start, end, width, out.bars);  // checks the arguments
  ratios(a_, lane, data_a_[lane], true, out);
}

namespace {

// A call's place in its lane's k order: (start, depth, index).
using Place = std::tuple<int64_t, uint32_t, std::size_t>;

// How many calls of `frame` in `lane` come before `at` in k order.
uint64_t calls_before(const Timeline& tl, std::size_t lane, int32_t frame, const Place& at) {
  uint64_t k = 0;
  for (uint32_t d = 0; d <= tl.lanes()[lane].max_depth; ++d) {
    const Timeline::DepthView v = tl.depth_view(lane, d);
    for (std::size_t i = 0; i < v.calls && Place{v.start(i), d, i} < at; ++i)
      k += v.frame(i) == frame;
  }
  return k;
}

// The k-th call of `frame` in `lane` in k order, if there is one.
std::optional<Place> kth_call(const Timeline& tl, std::size_t lane, int32_t frame, uint64_t k) {
  std::vector<Place> calls;
  for (uint32_t d = 0; d <= tl.lanes()[lane].max_depth; ++d) {
    const Timeline::DepthView v = tl.depth_view(lane, d);
    for (std::size_t i = 0; i < v.calls; ++i)
      if (v.frame(i) == frame) calls.emplace_back(v.start(i), d, i);
  }
  if (k >= calls.size()) return std::nullopt;
  const auto nth = calls.begin() + static_cast<std::ptrdiff_t>(k);
  std::nth_element(calls.begin(), nth, calls.end());
  return *nth;
}

}  // namespace

std::optional<AlignedRuns::Call> AlignedRuns::partner(bool of_a, std::size_t lane, uint32_t depth,
                                                      std::size_t index) const {
  const Timeline& own = of_a ? a_ : b_;
  const Timeline& other = of_a ? b_ : a_;
  const Timeline::DepthView v = own.depth_view(lane, depth);  // checks the lane
  if (index >= v.calls) {
    throw Error(Msg::bad_argument,
                {{"detail", "no call " + std::to_string(index) + " at depth " +
                                std::to_string(depth) + " of lane " + std::to_string(lane)}});
  }
  const int64_t other_lane = (of_a ? partner_lane_a_ : partner_lane_)[lane];
  if (other_lane < 0) return std::nullopt;
  const int32_t frame = v.frame(index);
  const auto& names = other.frames();
  const auto named =
      std::find(names.begin(), names.end(), own.frames()[static_cast<std::size_t>(frame)]);
  if (named == names.end()) return std::nullopt;
  const auto ol = static_cast<std::size_t>(other_lane);
  const uint64_t k = calls_before(own, lane, frame, Place{v.start(index), depth, index});
  const auto found = kth_call(other, ol, static_cast<int32_t>(named - names.begin()), k);
  if (!found) return std::nullopt;
  return Call{ol, std::get<1>(*found), std::get<2>(*found)};
}

std::size_t AlignedRuns::memory_bytes() const {
  std::size_t n = 0;
  for (const auto* side : {&data_, &data_a_})
    for (const auto& lane : *side)
      for (const Depth& d : lane)
        n += d.partner.capacity() * 4 + (d.chunk_partner.capacity() + d.chunk_own.capacity()) * 8;
  return n;
}

}  // namespace scope_speedscope
