// export: a narrowing of an open timeline (see timeline_export.hpp).
#include "export/timeline_export.hpp"

#include <algorithm>
#include <memory>
#include <queue>
#include <set>
#include <tuple>
#include <utility>

#include "model/time.hpp"
#include "reconstruct/streams.hpp"
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
  const int64_t s = absolute(tl, v.start(at.index)), e = absolute(tl, v.end(at.index));
  if (clip.keep(s, e) != kept_only) return;
  const Timeline::LaneInfo& info = tl.lanes()[at.lane];
  out.push_back(KeptCall{tl.frame_regions()[v.frame(at.index)], info.rank, s, e, info.lane_id});
}

// The calls of one depth of one lane that the clip keeps.
void keep_calls(const Timeline& tl, std::size_t lane, uint32_t depth, const Clip& clip,
                std::vector<KeptCall>& out) {
  const Timeline::DepthView v = tl.depth_view(lane, depth);
  // Covered ends ascend, and so do starts: the window's calls are a range.
  std::size_t lo = 0, hi = v.calls;
  if (clip.window) {
    lo = detail::partition_index(0, v.calls, [&](std::size_t i) {
      return covered_end(absolute(tl, v.start(i)), absolute(tl, v.end(i))) <= clip.lo;
    });
    hi = detail::partition_index(lo, v.calls,
                                 [&](std::size_t i) { return absolute(tl, v.start(i)) < clip.hi; });
  }
  for (std::size_t i = lo; i < hi; ++i) keep_call(tl, {lane, depth, i}, clip, true, out);
}

// Whether the narrowed file's region order is known where it matters from
// the kept calls of the ranks the timeline holds. That order (each region's
// first kept start over every rank, in seconds) only decides which of two
// calls of one lane with the same clipped start and end is the outer one.
// A region's key over every rank lies between the larger of its whole-run
// key and the window's start (clipped starts are never below either) and
// its first kept start here; two regions whose ranges say which comes first
// (equal keys: file order) come so here too, since these keys lie in the
// same ranges. Any other tie is unknown.
bool narrowed_order_known(const std::vector<KeptCall>& kept, const Clip& clip,
                          const std::vector<double>& run_keys) {
  struct Key {
    int64_t rank, lane, start, end;
    uint32_t region;
  };
  std::vector<Key> keys;
  std::vector<int64_t> first(run_keys.size(), INT64_MAX);
  for (const KeptCall& k : kept) {
    if (!clip.keep(k.start, k.end)) continue;  // kept for messages only
    keys.push_back(Key{k.rank, k.lane, clip.clip_start(k.start), clip.clip_end(k.end), k.region});
    first[k.region] = std::min(first[k.region], keys.back().start);
  }
  std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
    return std::tie(a.rank, a.lane, a.start, a.end, a.region) <
           std::tie(b.rank, b.lane, b.start, b.end, b.region);
  });
  const bool floor = clip.window && clip.lo != INT64_MIN;
  auto low = [&](uint32_t r) {
    return floor ? std::max(run_keys[r], static_cast<double>(clip.lo) / 1e9) : run_keys[r];
  };
  auto high = [&](uint32_t r) { return static_cast<double>(first[r]) / 1e9; };
  // x before y in the file: x first when its key is at most y's.
  auto known = [&](uint32_t x, uint32_t y) { return high(x) <= low(y) || high(y) < low(x); };
  for (std::size_t i = 0; i < keys.size();) {
    std::size_t j = i + 1;
    while (j < keys.size() && std::tie(keys[i].rank, keys[i].lane, keys[i].start, keys[i].end) ==
                                  std::tie(keys[j].rank, keys[j].lane, keys[j].start, keys[j].end))
      ++j;
    for (std::size_t x = i; x < j; ++x)
      for (std::size_t y = x + 1; y < j; ++y)
        if (keys[x].region != keys[y].region && !known(keys[x].region, keys[y].region))
          return false;
    i = j;
  }
  return true;
}

// With a window and a minimum duration that keep nothing together, a call
// the window alone keeps (if any), so that the message names the option
// the file's would (narrow_run drops it).
void keep_window_witness(const Timeline& tl, const Clip& clip, std::vector<KeptCall>& kept) {
  if (!clip.window || !clip.min_duration || !kept.empty()) return;
  Clip window = clip;
  window.min_duration = false;
  for (std::size_t l = 0; l < tl.lanes().size() && kept.empty(); ++l)
    for (uint32_t d = 0; d <= tl.lanes()[l].max_depth && kept.empty(); ++d) {
      std::vector<KeptCall> found;
      keep_calls(tl, l, d, window, found);
      if (!found.empty()) kept.push_back(found.front());
    }
}

// One lane's calls in pre-order (the writer's order: start, then the longer
// first, then the outer first), merged from its depths' columns: the head of
// each depth waits in a heap keyed so. Calls of equal start and end nest,
// the outer one a depth above; a call's children start within it and come
// after it, so this order is the reconstruction's call order.
class TimelineLaneCalls final : public CallStream {
 public:
  TimelineLaneCalls(const Timeline& tl, std::size_t lane) : tl_(tl) {
    const Timeline::LaneInfo& info = tl.lanes()[lane];
    for (uint32_t d = 0; d <= info.max_depth; ++d) views_.push_back(tl.depth_view(lane, d));
    size_ = info.calls;
    rewind();
  }
  void rewind() override {
    heads_ = {};
    at_.assign(views_.size(), 0);
    for (uint32_t d = 0; d < views_.size(); ++d)
      if (views_[d].calls > 0) heads_.push(head(d));
  }
  std::size_t next(Call* out, std::size_t max) override {
    std::size_t n = 0;
    for (; n < max && !heads_.empty(); ++n) {
      const Head h = heads_.top();
      heads_.pop();
      const Timeline::DepthView& v = views_[h.depth];
      const std::size_t i = at_[h.depth]++;
      out[n] = Call{absolute(tl_, v.start(i)), absolute(tl_, v.end(i)),
                    tl_.frame_regions()[static_cast<std::size_t>(v.frame(i))], h.depth};
      if (at_[h.depth] < v.calls) heads_.push(head(h.depth));
    }
    return n;
  }
  uint64_t size() const override { return size_; }

 private:
  struct Head {
    int64_t start, end;
    uint32_t depth;
    // The heap's top is the least: start, then the later end, then the outer.
    bool operator<(const Head& o) const {
      return std::tie(o.start, end, o.depth) < std::tie(start, o.end, depth);
    }
  };
  Head head(uint32_t d) const {
    const Timeline::DepthView& v = views_[d];
    return Head{v.start(at_[d]), v.end(at_[d]), d};
  }

  const Timeline& tl_;
  std::vector<Timeline::DepthView> views_;
  std::vector<std::size_t> at_;
  std::priority_queue<Head> heads_;
  uint64_t size_ = 0;
};

// The timeline's lanes as the export's profiles (its lanes are the export's,
// in order, a rank listed twice twice), streamed from the columns.
ProfileSet timeline_profiles(const Timeline& tl) {
  auto streams = std::make_shared<std::vector<std::unique_ptr<TimelineLaneCalls>>>();
  ProfileSet set;
  for (std::size_t l = 0; l < tl.lanes().size(); ++l) {
    streams->push_back(std::make_unique<TimelineLaneCalls>(tl, l));
    NamedCalls nc;
    nc.name = tl.lanes()[l].name;
    nc.stream = streams->back().get();
    set.named.push_back(std::move(nc));
  }
  set.keep = std::move(streams);
  return set;
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
  keep_window_witness(tl, clip, kept);
  keep_call(tl, tl.longest_call(), clip, false, kept);

  if (narrowing.active() && !tl.holds_every_rank() &&
      !narrowed_order_known(kept, clip, run.region_order_keys)) {
    throw Error(Msg::bad_argument,
                {{"detail",
                  "exportSpeedscope: the region order of this narrowing depends on ranks the "
                  "timeline does not hold (open it with ranks: 'all', or export from the file)"}});
  }
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

std::unique_ptr<ExportJob> begin_timeline_export(const Timeline& tl, const std::string& filepath,
                                                 ExportOptions options, OutputTarget& target,
                                                 const ReadRest& read_rest) {
  if (!tl.unread_ranks().empty()) {
    if (!read_rest) {
      throw Error(Msg::internal, {{"detail",
                                   "scope-speedscope: a timeline read without some ranks' calls "
                                   "exported without reading them"}});
    }
    read_rest(tl.unread_ranks());
  }
  if (options.source_locations && !tl.described_run().sources_read) {
    throw Error(Msg::bad_argument,
                {{"detail",
                  "exportSpeedscope: sourceLocations needs a timeline opened with "
                  "sourceLocations: true (its source locations were not read)"}});
  }
  options.ranks = tl.selection().ranks;
  options.include = tl.selection().include;
  options.exclude = tl.selection().exclude;
  std::vector<Run> runs;
  if (!options.narrowing.active()) {  // the whole selection: streamed from the columns
    runs.push_back(tl.described_run());
    runs.back().file_first_start_ns = static_cast<int64_t>(
        static_cast<uint64_t>(tl.origin_ns()) - static_cast<uint64_t>(tl.origin_in_run_ns()));
    return std::make_unique<ExportJob>(
        std::move(runs), filepath, options, target,
        [&tl](const Run&, const std::vector<uint32_t>&, const std::vector<int64_t>&) {
          return timeline_profiles(tl);
        });
  }
  runs.push_back(timeline_calls_as_run(tl, options.narrowing));
  return std::make_unique<ExportJob>(std::move(runs), filepath, options, target);
}

std::vector<std::string> export_timeline(const Timeline& tl, const std::string& filepath,
                                         ExportOptions options, OutputTarget& target,
                                         const ReadRest& read_rest) {
  const std::unique_ptr<ExportJob> job =
      begin_timeline_export(tl, filepath, std::move(options), target, read_rest);
  job->step(UINT64_MAX);
  return job->written();
}

}  // namespace scope_speedscope
