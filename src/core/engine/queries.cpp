// engine: the queries of the open timeline (state.hpp), each answered from
// the core's columns: bars, busy pixels, stacks, region tables, the window
// within a budget, the ranks' imbalance, the heatmap grid and lateness, a
// comparison's rows, the overview. Answers are bounded by pixels or by
// regions and ranks, never by calls.
#include <algorithm>
#include <cmath>

#include "engine/answers.hpp"
#include "engine/request.hpp"
#include "engine/state.hpp"
#include "export/overview.hpp"
#include "timeline/aligned_grid.hpp"
#include "timeline/search.hpp"

namespace scope_speedscope::engine {

namespace {

// One lane's bars as the wire carries them: times as float64.
json bars_json(std::size_t lane, const Timeline::Bars& b, const std::vector<double>* ratio,
               WireAnswer& out) {
  json entry = {{"lane", lane},
                {"start", out.doubles(b.start)},
                {"end", out.doubles(b.end)},
                {"depth", out.column(b.depth)},
                {"frame", out.column(b.frame)},
                {"count", out.column(b.count)},
                {"rows", out.column(b.rows)}};
  if (ratio) entry["ratio"] = out.column(*ratio);
  return entry;
}

// A lane of A drawn in a comparison: its frames as the comparison's.
void renumber(std::vector<int32_t>& frames, const std::vector<int32_t>& frame_of_a) {
  for (int32_t& f : frames) {
    if (f >= 0) f = frame_of_a[static_cast<std::size_t>(f)];
  }
}

json echo(const json& r, json answer) {
  answer["start"] = r.at("start");
  answer["end"] = r.at("end");
  answer["width"] = r.at("width");
  return answer;
}

int32_t frame_of(const json& r) {
  const uint64_t f = whole(field(r, "frame"), "frame");
  return f > INT32_MAX ? INT32_MAX : static_cast<int32_t>(f);
}

}  // namespace

json bars(Engine::State& s, const json& r, WireAnswer& out) {
  const Timeline& tl = timeline_of(s, r);
  const Window w = window_of(r);
  const uint32_t width = width_of(r);
  json list = json::array();
  for (const std::size_t lane : lanes_of(field(r, "lanes"), "lanes")) {
    if (!s.comparing()) {
      tl.bars(lane, w.start, w.end, width, s.bars);
      list.push_back(bars_json(lane, s.bars, nullptr, out));
    } else if (lane < s.lanes_b) {
      s.runs->aligned(lane, w.start, w.end, width, s.aligned_bars);
      list.push_back(bars_json(lane, s.aligned_bars.bars, &s.aligned_bars.ratio, out));
    } else {
      s.runs->aligned_a(lane - s.lanes_b, w.start, w.end, width, s.aligned_bars);
      renumber(s.aligned_bars.bars.frame, s.runs->frame_of_a());
      list.push_back(bars_json(lane, s.aligned_bars.bars, &s.aligned_bars.ratio, out));
    }
  }
  return echo(r, {{"bars", list}});
}

// A request's groups: arrays of lanes (a rank's, say).
static std::vector<std::vector<std::size_t>> groups_of(const json& r) {
  const json& groups = field(r, "groups");
  if (!groups.is_array()) refuse("'groups' must be an array of arrays of lanes");
  std::vector<std::vector<std::size_t>> out;
  for (const json& g : groups) out.push_back(lanes_of(g, "groups"));
  return out;
}

json busy(Engine::State& s, const json& r, WireAnswer& out) {
  const Timeline& tl = timeline_of(s, r);
  const Window w = window_of(r);
  const uint32_t width = width_of(r);
  json list = json::array();
  for (const auto& lanes : groups_of(r)) {
    list.push_back(out.column(tl.busy(lanes, w.start, w.end, width)));
  }
  return echo(r, {{"busy", list}});
}

// groups as busy's; depth: a whole number, or absent / null for each
// group's band_depth.
json band(Engine::State& s, const json& r, WireAnswer& out) {
  const Timeline& tl = timeline_of(s, r);
  const Window w = window_of(r);
  const uint32_t width = width_of(r);
  const json& asked = field(r, "depth");
  std::optional<uint32_t> depth;
  if (!asked.is_null()) {
    const uint64_t d = whole(asked, "depth");
    depth = d > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(d);
  }
  json frames = json::array();
  json depths = json::array();
  for (const auto& lanes : groups_of(r)) {
    const uint32_t d = depth ? *depth : tl.band_depth(lanes);
    frames.push_back(out.column(tl.band_frames(lanes, d, w.start, w.end, width)));
    depths.push_back(d);
  }
  return echo(r, {{"frames", frames}, {"depths", depths}});
}

json stack(Engine::State& s, const json& r, WireAnswer&) {
  const Timeline& tl = timeline_of(s, r);
  const std::size_t lane = lane_of(field(r, "lane"));
  const int64_t time = ns_of(number(r, "time"), false);
  const bool of_a = s.comparing() && lane >= s.lanes_b;
  const auto entries = of_a ? s.a->stack_at(lane - s.lanes_b, time) : tl.stack_at(lane, time);
  const std::vector<std::string>& names = s.comparing() ? s.runs->frames() : tl.frames();
  json list = json::array();
  for (const auto& e : entries) {
    const int32_t frame = of_a ? s.runs->frame_of_a()[static_cast<std::size_t>(e.frame)] : e.frame;
    list.push_back({{"frame", frame},
                    {"name", names[static_cast<std::size_t>(frame)]},
                    {"start", e.start_ns},
                    {"end", e.end_ns},
                    {"depth", e.depth},
                    {"self", e.self_ns}});
  }
  return {{"stack", list}};
}

json regions(Engine::State& s, const json& r, WireAnswer&) {
  const Timeline& tl = timeline_of(s, r);
  const Window w = window_of(r);
  const json& lanes = field(r, "lanes");
  const std::vector<std::size_t> chosen =
      lanes.is_null() ? std::vector<std::size_t>{} : lanes_of(lanes, "lanes");
  json list = json::array();
  for (const auto& t : tl.regions(w.start, w.end, chosen)) {
    list.push_back({{"frame", t.frame},
                    {"name", tl.frames()[static_cast<std::size_t>(t.frame)]},
                    {"calls", t.calls},
                    {"total", t.total_ns},
                    {"self", t.self_ns}});
  }
  return {{"regions", list}};
}

json fit(Engine::State& s, const json& r, WireAnswer&) {
  const Timeline& tl = timeline_of(s, r);
  const Window w = window_of(r);
  const auto within = tl.window_within(w.start, w.end, whole(field(r, "maxCalls"), "maxCalls"));
  return {{"start", within.start_ns}, {"end", within.end_ns}, {"calls", within.calls}};
}

json imbalance(Engine::State& s, const json& r, WireAnswer&) {
  const Timeline& tl = timeline_of(s, r);
  const Window w = window_of(r);
  json rows = json::array();
  for (const auto& row : tl.imbalance(w.start, w.end)) {
    rows.push_back({{"frame", row.frame},
                    {"name", tl.frames()[static_cast<std::size_t>(row.frame)]},
                    {"ranks", row.ranks},
                    {"min", row.min_ns},
                    {"median", wire_number(row.median_ns)},
                    {"mean", wire_number(row.mean_ns)},
                    {"max", row.max_ns},
                    {"imbalance", wire_number(row.imbalance)},
                    {"slowestRank", row.slowest_rank}});
  }
  return {{"rows", rows}};
}

json aligned(Engine::State& s, const json& r, WireAnswer& out) {
  const uint64_t columns = whole(field(r, "maxColumns"), "maxColumns");
  const Window w = window_of(r);
  const AlignedGrid g = aligned_grid(timeline_of(s, r), frame_of(r), w.start, w.end, columns);
  return {{"grid",
           {{"rows", g.rows},
            {"cols", g.cols},
            {"group", g.group},
            {"ranks", g.ranks},
            {"counts", g.counts},
            {"common", g.common},
            {"kFirst", out.doubles(g.k_first)},
            {"kLast", out.doubles(g.k_last)},
            {"k", out.doubles(g.k)},
            {"excess", out.column(g.excess)},
            {"duration", out.column(g.duration)},
            {"spanStart", out.doubles(g.span_start)},
            {"spanEnd", out.doubles(g.span_end)}}}};
}

json lateness(Engine::State& s, const json& r, WireAnswer& out) {
  const Window w = window_of(r);
  const RankLateness l = mean_lateness(timeline_of(s, r), frame_of(r), w.start, w.end);
  return {{"ranks", l.ranks}, {"lateness", out.column(l.lateness)}};
}

json compare_regions(Engine::State& s, const json& r, WireAnswer&) {
  timeline_of(s, r);
  if (!s.comparing()) refuse("no comparison is open");
  const Window w = window_of(r);
  return {{"rows", rows_json(s.runs->regions(w.start, w.end), true)}};
}

// A call of either run compared (its lane in the comparison, depth and
// start) and its partner in the other run: the core's rule (AlignedRuns::
// partner), what the page lines the runs up at.
json compare_partner(Engine::State& s, const json& r, WireAnswer&) {
  timeline_of(s, r);
  if (!s.comparing()) refuse("no comparison is open");
  const std::size_t lane = lane_of(field(r, "lane"));
  const uint64_t depth = whole(field(r, "depth"), "depth");
  const int64_t start = ns_of(number(r, "start"), false);
  const bool of_a = lane >= s.lanes_b;
  const Timeline& own = of_a ? *s.a : *s.tl;
  const std::size_t own_lane = of_a ? lane - s.lanes_b : lane;
  if (own_lane >= own.lanes().size()) refuse("no lane " + std::to_string(lane));
  const Timeline::DepthView v =
      own.depth_view(own_lane, depth > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(depth));
  const std::size_t index =
      detail::partition_index(0, v.calls, [&](std::size_t i) { return v.start(i) < start; });
  if (index == v.calls || v.start(index) != start) {
    refuse("no call of lane " + std::to_string(lane) + " at depth " + std::to_string(depth) +
           " starts at " + std::to_string(start));
  }
  const auto p = s.runs->partner(of_a, own_lane, static_cast<uint32_t>(depth), index);
  if (!p) return {{"partner", nullptr}};
  const Timeline& other = of_a ? *s.tl : *s.a;
  const Timeline::DepthView pv = other.depth_view(p->lane, p->depth);
  const int32_t frame = pv.frame(p->index);
  return {{"partner",
           {{"lane", of_a ? p->lane : p->lane + s.lanes_b},
            {"depth", p->depth},
            {"start", pv.start(p->index)},
            {"end", pv.end(p->index)},
            {"frame", of_a ? frame : s.runs->frame_of_a()[static_cast<std::size_t>(frame)]}}}};
}

namespace {

// The sliced overview's next step: how far it is, or its answer.
json overview_step(Engine::State& s) {
  TimelineOverview& job = *s.overviewing;
  if (!job.step(s.overviewing_slice)) {
    return {{"pending", true},
            {"overviewing", s.overviewing_token},
            {"done", job.done()},
            {"total", job.total()}};
  }
  json answer = {{"overview", overview_json(job.overview(), s.overviewing_max)}};
  s.drop_overview();
  return answer;
}

}  // namespace

json overview(Engine::State& s, const json& r, const EngineIo& io, WireAnswer&) {
  const Timeline& tl = timeline_of(s, r);
  const json& o = field(r, "options");
  const json options = o.is_object() ? o : json::object();
  const json& bins = field(options, "bins");
  const json& max_events = field(options, "maxEvents");
  const json& slices = field(options, "slices");
  const std::size_t n = bins.is_null() ? 200 : static_cast<std::size_t>(whole(bins, "bins"));
  std::optional<uint64_t> max;
  if (!max_events.is_null()) max = whole(max_events, "maxEvents");
  uint64_t slice = 0;  // 0: at once
  if (slices.is_boolean()) {
    slice = slices.get<bool>() ? io.overview_slice_calls : 0;  // bench/overview-slices.mjs
  } else if (!slices.is_null()) {
    slice = whole(slices, "slices");
    if (slice == 0) refuse("'options.slices' must be true, false or a number of calls from 1");
  }
  s.drop_overview();
  if (slice == 0) return {{"overview", overview_json(overview_timeline(tl, n), max)}};
  s.overviewing = std::make_unique<TimelineOverview>(tl, n);
  s.overviewing_timeline = s.id;
  s.overviewing_token += 1;
  s.overviewing_slice = slice;
  s.overviewing_max = max;
  return overview_step(s);
}

json overview_more(Engine::State& s, const json& r, WireAnswer&) {
  const json& token = field(r, "overviewing");
  if (!s.overviewing || s.overviewing_timeline != s.id || !token.is_number() ||
      token.get<double>() != s.overviewing_token)
    refuse("the overview was given up (a newer overview, file or options replaced it)");
  return overview_step(s);
}

}  // namespace scope_speedscope::engine
