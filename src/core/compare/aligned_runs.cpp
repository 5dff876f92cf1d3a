// compare: two runs lined up call by call (see aligned_runs.hpp).
#include "compare/aligned_runs.hpp"

#include <cmath>
#include <limits>
#include <queue>
#include <string>
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
    if (views[d].calls > 0) heads.emplace(views[d].start[0], d);
  while (!heads.empty()) {
    const uint32_t d = heads.top().second;
    heads.pop();
    const std::size_t i = next[d]++;
    fn(d, i);
    if (next[d] < views[d].calls) heads.emplace(views[d].start[next[d]], d);
  }
}

int64_t duration(const Timeline::DepthView& v, std::size_t i) {
  return static_cast<int64_t>(static_cast<uint64_t>(v.end[i]) - static_cast<uint64_t>(v.start[i]));
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
    line_up(l, partner == lane_of_name.end() ? SIZE_MAX : partner->second, data_.back());
  }
}

// Per call of B's lane its partner's duration, and the chunks' sums.
void AlignedRuns::line_up(std::size_t lane_b, std::size_t lane_a, std::vector<Depth>& out) const {
  const uint32_t depths = b_.lanes()[lane_b].max_depth + 1;
  out.resize(depths);
  for (uint32_t d = 0; d < depths; ++d)
    out[d].partner.assign(b_.depth_view(lane_b, d).calls, kNone);
  if (lane_a != SIZE_MAX) {
    // A's calls of each frame in k order: their durations.
    std::vector<std::vector<int64_t>> of_frame(a_.frames().size());
    in_start_order(a_, lane_a, [&](uint32_t d, std::size_t i) {
      const Timeline::DepthView v = a_.depth_view(lane_a, d);
      of_frame[static_cast<std::size_t>(v.frame[i])].push_back(duration(v, i));
    });
    std::unordered_map<std::string, int32_t> a_frame;
    for (std::size_t f = 0; f < a_.frames().size(); ++f)
      a_frame.emplace(a_.frames()[f], static_cast<int32_t>(f));
    std::vector<int32_t> frame_in_a(b_.frames().size(), -1);
    for (std::size_t f = 0; f < b_.frames().size(); ++f) {
      const auto it = a_frame.find(b_.frames()[f]);
      if (it != a_frame.end()) frame_in_a[f] = it->second;
    }
    std::vector<uint64_t> k(b_.frames().size(), 0);
    in_start_order(b_, lane_b, [&](uint32_t d, std::size_t i) {
      const auto f = static_cast<std::size_t>(b_.depth_view(lane_b, d).frame[i]);
      const uint64_t kth = k[f]++;
      if (frame_in_a[f] < 0) return;
      const auto& durations = of_frame[static_cast<std::size_t>(frame_in_a[f])];
      if (kth < durations.size()) out[d].partner[i] = static_cast<float>(durations[kth]);
    });
  }
  for (uint32_t d = 0; d < depths; ++d) {
    const Timeline::DepthView v = b_.depth_view(lane_b, d);
    Depth& depth = out[d];
    for (std::size_t at = 0; at < v.calls; at += kChunk) {
      double sb = 0, sa = 0;
      for (std::size_t i = at; i < std::min(v.calls, at + kChunk); ++i) {
        if (std::isnan(depth.partner[i])) continue;
        sb += static_cast<double>(duration(v, i));
        sa += depth.partner[i];
      }
      depth.chunk_b.push_back(sb);
      depth.chunk_a.push_back(sa);
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
                                std::size_t count) const {
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
      sb += d.chunk_b[c];
      sa += d.chunk_a[c];
    }
    i = stop_chunk * kChunk;
  }
  for (; i < stop; ++i) add(i);
  return sa == 0 && sb == 0 ? std::numeric_limits<double>::quiet_NaN() : sb / sa;
}

void AlignedRuns::aligned(std::size_t lane, int64_t start, int64_t end, uint32_t width,
                          Bars& out) const {
  b_.bars(lane, start, end, width, out.bars);  // checks the arguments
  const std::vector<Depth>& data = data_[data_of_lane_[lane]];
  out.ratio.resize(out.bars.size());
  for (std::size_t k = 0; k < out.bars.size(); ++k) {
    const uint32_t d = out.bars.depth[k];
    const Timeline::DepthView v = b_.depth_view(lane, d);
    const std::size_t first = out.bars.first[k];
    if (out.bars.count[k] == 1) {
      const float p = data[d].partner[first];
      out.ratio[k] = std::isnan(p) ? std::numeric_limits<double>::quiet_NaN()
                                   : static_cast<double>(duration(v, first)) / p;
    } else {
      out.ratio[k] = block_ratio(data[d], v, first, out.bars.count[k]);
    }
  }
}

std::size_t AlignedRuns::memory_bytes() const {
  std::size_t n = 0;
  for (const auto& lane : data_)
    for (const Depth& d : lane)
      n += d.partner.capacity() * 4 + (d.chunk_a.capacity() + d.chunk_b.capacity()) * 8;
  return n;
}

}  // namespace scope_speedscope
