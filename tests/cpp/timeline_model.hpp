// The timeline's naive model, shared by its tests: the document's lanes
// and frames from the spec's own reconstruction, each query a plain loop
// over every call; and seeded random runs of several ranks and lanes.
#pragma once

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "export/export.hpp"
#include "read/h5_reader.hpp"
#include "reconstruct/calls.hpp"
#include "test_support.hpp"
#include "timeline/timeline.hpp"

namespace scope_speedscope::test {

using Wide = __int128;

// ---- the naive model -----------------------------------------------------------------

struct ModelCall {
  int64_t s, e;  // ns from the origin
  uint32_t depth;
  int32_t frame;
  int64_t self;
};
struct ModelLane {
  std::string name;
  int64_t rank = 0;
  std::vector<ModelCall> calls;  // call order (pre-order)
};
struct Model {
  int64_t origin = 0;
  std::vector<std::string> frames;
  std::vector<ModelLane> lanes;
};

inline int64_t covered_end(const ModelCall& c) { return c.e > c.s ? c.e : c.s + 1; }
inline bool overlaps(const ModelCall& c, int64_t a, int64_t z) {
  return c.s < z && covered_end(c) > a;
}

// The document's lanes and frames, from the spec's own reconstruction
// (frames numbered by first appearance in call order, lane after lane).
inline Model model_of(const Run& run, const std::vector<int64_t>& ranks) {
  Model m;
  const std::vector<uint32_t> regions = get_regions(run, std::nullopt, std::nullopt);
  std::map<uint32_t, int32_t> frame_of;
  bool any = false;
  for (int64_t rank : ranks) {
    const RankCalls rc = detail::build_call_arrays_literal(run, regions, rank);
    for (const Lane& lane : rc.lanes) {
      ModelLane ml;
      ml.name = profile_name(run, rank, lane.lane);
      ml.rank = rank;
      std::vector<std::size_t> open;  // position of the latest call at each depth
      for (std::size_t i = lane.begin; i < lane.end; ++i) {
        const Call& c = rc.calls[i];
        auto f = frame_of.find(c.region);
        if (f == frame_of.end()) {
          f = frame_of.emplace(c.region, static_cast<int32_t>(m.frames.size())).first;
          m.frames.push_back(run.regions[c.region].name);
        }
        ml.calls.push_back(
            ModelCall{c.start_ns, c.end_ns, c.depth, f->second, c.end_ns - c.start_ns});
        if (c.depth > 0) ml.calls[open.at(c.depth - 1)].self -= c.end_ns - c.start_ns;
        if (open.size() <= c.depth) open.resize(c.depth + 1);
        open[c.depth] = ml.calls.size() - 1;
      }
      if (!any || ml.calls.front().s < m.origin) m.origin = ml.calls.front().s;
      any = true;
      m.lanes.push_back(std::move(ml));
    }
  }
  for (auto& lane : m.lanes) {
    for (auto& c : lane.calls) {
      c.s -= m.origin;
      c.e -= m.origin;
    }
  }
  return m;
}

inline uint32_t max_depth(const ModelLane& lane) {
  uint32_t d = 0;
  for (const auto& c : lane.calls) d = std::max(d, c.depth);
  return d;
}

inline Timeline::Bars model_bars(const ModelLane& lane, int64_t a, int64_t z, uint32_t width) {
  Timeline::Bars out;
  const Wide span = Wide{z} - Wide{a};
  for (uint32_t d = 0; d <= max_depth(lane); ++d) {
    bool in_block = false;
    for (const ModelCall& c : lane.calls) {
      if (c.depth != d || !overlaps(c, a, z)) continue;
      const bool long_call = (Wide{c.e} - Wide{c.s}) * width >= span;
      if (long_call) {
        out.start.push_back(c.s);
        out.end.push_back(c.e);
        out.depth.push_back(d);
        out.frame.push_back(c.frame);
        out.count.push_back(1);
        in_block = false;
      } else if (in_block && (Wide{c.s} - Wide{out.end.back()}) * width < span) {
        out.end.back() = c.e;
        ++out.count.back();
        if (out.frame.back() != c.frame) out.frame.back() = -1;
      } else {
        out.start.push_back(c.s);
        out.end.push_back(c.e);
        out.depth.push_back(d);
        out.frame.push_back(c.frame);
        out.count.push_back(1);
        in_block = true;
      }
    }
  }
  return out;
}

inline std::vector<Timeline::StackEntry> model_stack(const ModelLane& lane, int64_t t) {
  std::vector<Timeline::StackEntry> out;
  for (const ModelCall& c : lane.calls) {
    if (c.s <= t && t < covered_end(c)) out.push_back({c.frame, c.s, c.e, c.depth, c.self});
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& x, const auto& y) { return x.depth < y.depth; });
  return out;
}

inline std::vector<Timeline::RegionTotal> model_regions(const Model& m, int64_t a, int64_t z,
                                                        const std::vector<std::size_t>& lanes) {
  const std::size_t F = m.frames.size();
  std::vector<uint64_t> calls(F, 0);
  std::vector<int64_t> total(F, 0), self(F, 0);
  auto clip = [&](const ModelCall& c) {
    const int64_t lo = std::max(c.s, a), hi = std::min(c.e, z);
    return hi > lo ? hi - lo : int64_t{0};
  };
  for (std::size_t l : lanes) {
    const auto& calls_of = m.lanes[l].calls;
    std::vector<std::size_t> open;
    for (std::size_t i = 0; i < calls_of.size(); ++i) {
      const ModelCall& c = calls_of[i];
      if (open.size() <= c.depth) open.resize(c.depth + 1);
      open[c.depth] = i;
      if (!overlaps(c, a, z)) continue;
      ++calls[c.frame];
      total[c.frame] += clip(c);  // every call, one inside another of its region too
      self[c.frame] += clip(c);
      if (c.depth > 0) self[calls_of[open[c.depth - 1]].frame] -= clip(c);
    }
  }
  std::vector<Timeline::RegionTotal> out;
  for (std::size_t f = 0; f < F; ++f) {
    if (calls[f]) out.push_back({static_cast<int32_t>(f), calls[f], total[f], self[f]});
  }
  return out;
}

// Per frame with a call overlapping [a, z) on `lanes`: its covered time,
// the length of the union of its calls cut to the window, per lane (what
// imbalance counts; a call inside one of its own frame adds nothing).
inline std::map<int32_t, int64_t> model_covered(const Model& m, int64_t a, int64_t z,
                                                const std::vector<std::size_t>& lanes) {
  std::map<int32_t, int64_t> out;
  for (std::size_t l : lanes) {
    std::map<int32_t, std::vector<std::pair<int64_t, int64_t>>> pieces;
    for (const ModelCall& c : m.lanes[l].calls) {
      if (!overlaps(c, a, z)) continue;
      pieces[c.frame].push_back({std::max(c.s, a), std::min(c.e, z)});
    }
    for (auto& [f, p] : pieces) {  // the union, by sorting
      std::sort(p.begin(), p.end());
      int64_t sum = 0, lo = 0, hi = 0;
      bool open_run = false;
      for (const auto& [s, e] : p) {
        if (e <= s) continue;
        if (open_run && s <= hi) {
          hi = std::max(hi, e);
          continue;
        }
        if (open_run) sum += hi - lo;
        lo = s;
        hi = e;
        open_run = true;
      }
      if (open_run) sum += hi - lo;
      out[f] += sum;
    }
  }
  return out;
}

// ---- random runs ---------------------------------------------------------------------

// A properly nested run: per (rank, lane) a random walk that opens calls,
// closes them, and moves time by 0 to `step` ns (0 often: equal starts,
// zero-length calls, touching calls); each call gets one of `regions`
// names; each region's calls of a rank are stored shuffled.
inline Run random_run(std::mt19937_64& rng, int ranks, int lanes, int calls_per_lane, int regions,
                      int max_depth, int64_t step) {
  std::vector<SliceSpec> slices;
  std::uniform_int_distribution<int> region_of(0, regions - 1);
  for (int r = 0; r < ranks; ++r) {
    std::map<int, SliceSpec> by_region;
    for (int l = 0; l < lanes; ++l) {
      // Threads, tasks and the unknown lane, each walk a lane of its own.
      const int64_t lane_id = lanes == 1 || l == 2 ? -1 : (l % 2 == 0 ? -2 - l : l);
      int64_t t = 1'000'000'000'000 + static_cast<int64_t>(rng() % 1000);
      std::vector<std::pair<int64_t, int>> stack;  // start, region
      int made = 0;
      while (made < calls_per_lane || !stack.empty()) {
        const int action = static_cast<int>(rng() % 10);
        if (made < calls_per_lane && action < 5 && static_cast<int>(stack.size()) < max_depth) {
          stack.push_back({t, region_of(rng)});
          ++made;
        } else if (!stack.empty() && action < 9) {
          auto [s, region] = stack.back();
          stack.pop_back();
          auto& spec = by_region[region];
          spec.region = "r" + std::to_string(region);
          spec.rank = r;
          spec.calls.push_back({s, t});
          spec.lanes.push_back(lane_id);
        }
        const int64_t move = rng() % 3 == 0 ? 0 : static_cast<int64_t>(rng() % (step + 1));
        t += move;
      }
    }
    for (auto& [region, spec] : by_region) {
      std::vector<std::size_t> idx(spec.calls.size());
      for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
      std::shuffle(idx.begin(), idx.end(), rng);
      SliceSpec shuffled{spec.region, spec.rank, {}, {}};
      for (std::size_t i : idx) {
        shuffled.calls.push_back(spec.calls[i]);
        shuffled.lanes.push_back(spec.lanes[i]);
      }
      slices.push_back(shuffled);
    }
  }
  std::shuffle(slices.begin(), slices.end(), rng);
  return make_run(slices, lanes > 1);
}

}  // namespace scope_speedscope::test
