// export: a narrowing of an open timeline (see timeline_export.hpp).
#include "export/timeline_export.hpp"

#include <algorithm>
#include <set>
#include <tuple>
#include <utility>

#include "model/time.hpp"
#include "text/messages.hpp"
#include "timeline/search.hpp"

namespace scope_speedscope {

namespace {

struct KeptCall {
  uint32_t region;
  int64_t rank;
  int64_t start, end, lane;
};

// A timeline time (ns from its origin) as the file's (absolute ns).
int64_t absolute(const Timeline& tl, int64_t t) {
  return static_cast<int64_t>(static_cast<uint64_t>(t) + static_cast<uint64_t>(tl.origin_ns()));
}

void keep_call(const Timeline& tl, const Timeline::CallAt& at, const Clip& clip, bool kept_only,
               std::vector<KeptCall>& out) {
  const Timeline::DepthView v = tl.depth_view(at.lane, at.depth);
  const int64_t s = absolute(tl, v.start[at.index]), e = absolute(tl, v.end[at.index]);
  if (clip.keep(s, e) != kept_only) return;
  const Timeline::LaneInfo& info = tl.lanes()[at.lane];
  out.push_back(KeptCall{tl.frame_regions()[v.frame[at.index]], info.rank, s, e, info.lane_id});
}

// The calls of one depth of one lane that the clip keeps.
void keep_calls(const Timeline& tl, std::size_t lane, uint32_t depth, const Clip& clip,
                std::vector<KeptCall>& out) {
  const Timeline::DepthView v = tl.depth_view(lane, depth);
  // Covered ends ascend, and so do starts: the window's calls are a range.
  std::size_t lo = 0, hi = v.calls;
  if (clip.window) {
    lo = detail::partition_index(0, v.calls, [&](std::size_t i) {
      return covered_end(absolute(tl, v.start[i]), absolute(tl, v.end[i])) <= clip.lo;
    });
    hi = detail::partition_index(lo, v.calls,
                                 [&](std::size_t i) { return absolute(tl, v.start[i]) < clip.hi; });
  }
  for (std::size_t i = lo; i < hi; ++i) keep_call(tl, {lane, depth, i}, clip, true, out);
}

}  // namespace

Run timeline_calls_as_run(const Timeline& tl, const Narrowing& narrowing) {
  Run run = tl.described_run();
  const auto file_origin = static_cast<int64_t>(static_cast<uint64_t>(tl.origin_ns()) -
                                                static_cast<uint64_t>(tl.origin_in_run_ns()));
  run.file_first_start_ns = file_origin;
  const Clip clip = clip_of(narrowing, file_origin);
  std::vector<KeptCall> kept;
  std::set<std::pair<int64_t, int64_t>>
      seen;  // (rank, lane): a rank listed twice shows its lanes twice
  for (std::size_t l = 0; l < tl.lanes().size(); ++l) {
    const Timeline::LaneInfo& info = tl.lanes()[l];
    if (!seen.emplace(info.rank, info.lane_id).second) continue;
    for (uint32_t d = 0; d <= info.max_depth; ++d) keep_calls(tl, l, d, clip, kept);
  }
  // The longest call, which narrow_run drops unless it is kept: a narrowing
  // that keeps nothing then fails as on the file (min-duration alone would
  // have kept it exactly when it keeps any call).
  keep_call(tl, tl.longest_call(), clip, false, kept);

  // Rows by region, then rank; within a row the calls in any order (ties
  // of start, end and region give the same document whichever comes first).
  std::stable_sort(kept.begin(), kept.end(), [](const KeptCall& a, const KeptCall& b) {
    return std::tie(a.region, a.rank) < std::tie(b.region, b.rank);
  });
  run.start_ns.reserve(kept.size());
  run.end_ns.reserve(kept.size());
  if (run.lane_column) run.lane.reserve(kept.size());
  for (std::size_t i = 0; i < kept.size(); ++i) {
    const KeptCall& k = kept[i];
    auto& slices = run.regions[k.region].ranks;
    if (slices.empty() || slices.back().rank != k.rank)
      slices.push_back(RankSlice{k.rank, run.start_ns.size(), 0});
    ++slices.back().count;
    run.start_ns.push_back(k.start);
    run.end_ns.push_back(k.end);
    if (run.lane_column) run.lane.push_back(k.lane);
  }
  return run;
}

std::vector<std::string> export_timeline(const Timeline& tl, const std::string& filepath,
                                         ExportOptions options, OutputTarget& target) {
  if (!tl.holds_every_rank()) {
    throw Error(Msg::bad_argument,
                {{"detail",
                  "exportSpeedscope: the timeline does not hold every rank with calls of its "
                  "regions (open it with ranks: 'all', or export from the file)"}});
  }
  options.ranks = tl.selection().ranks;
  options.include = tl.selection().include;
  options.exclude = tl.selection().exclude;
  std::vector<Run> runs;
  runs.push_back(timeline_calls_as_run(tl, options.narrowing));
  return export_speedscope(runs, filepath, options, target);
}

}  // namespace scope_speedscope
