// wasm: the entry points of an open timeline (openTimeline and its queries).
#include <algorithm>

#include "entries.hpp"
#include "export/overview.hpp"
#include "export/timeline_export.hpp"
#include "handles.hpp"
#include "js_io.hpp"
#include "options_in.hpp"
#include "select/job.hpp"
#include "timeline/aligned_grid.hpp"
#include "values_out.hpp"

namespace scope_speedscope::wasm {

namespace {
// One input, or the inputs of one job (a JavaScript array).
std::vector<val> inputs_in(const val& input) {
  if (!val::global("Array").call<bool>("isArray", input)) return {input};
  std::vector<val> out;
  const auto n = input["length"].as<std::size_t>();
  for (std::size_t i = 0; i < n; ++i) out.push_back(input[i]);
  return out;
}
}  // namespace

// input as for inspect; options: {ranks, include, exclude, sourceLocations};
// sink: {progress, warning}.
val open_timeline(val input, val options, val sink) {
  return guarded([&] {
    const ss::Progress progress = progress_of(sink);
    ss::TimelineOptions opts;
    opts.every_rank = options["ranks"].isString();  // 'all', checked by the JS; resolved in select/
    if (!absent(options["ranks"]) && !opts.every_rank) opts.ranks = ranks_of(options["ranks"]);
    opts.include = optional_strings(options["include"]);
    opts.exclude = optional_strings(options["exclude"]);
    opts.progress = progress;
    auto entry = std::make_unique<OpenTimeline>();
    {
      // Only the ranks asked for are read (the rest when a download needs
      // them): its columns become the timeline's.
      // A job's files (an array of inputs) are read as one run; a job
      // without rank 0 opens every rank it has (select/job.hpp).
      ss::ReadPlan plan;
      plan.sources = options["sourceLocations"].isTrue();
      const std::vector<val> parts = inputs_in(input);
      ss::Run run = ss::read_job_for_view(
          parts.size(),
          [&](std::size_t i, const ss::ReadPlan& p) { return read_input(parts[i], progress, p); },
          plan, opts.ranks, opts.every_rank);
      warn_each(sink["warning"], run);
      entry->timeline = ss::open_timeline(std::move(run), opts);
    }
    static int next_id = 0;
    const int id = ++next_id;
    const ss::Timeline& tl = entry->timeline;
    val out = val::object();
    out.set("id", id);
    val lanes = val::array();
    for (std::size_t i = 0; i < tl.lanes().size(); ++i) {
      const auto& l = tl.lanes()[i];
      val lane = val::object();
      lane.set("name", l.name);
      lane.set("calls", static_cast<double>(l.calls));
      lane.set("maxDepth", static_cast<double>(l.max_depth));
      lane.set("start", static_cast<double>(l.start_ns));
      lane.set("end", static_cast<double>(l.end_ns));
      lane.set("rank", static_cast<double>(l.rank));
      lanes.set(i, lane);
    }
    out.set("lanes", lanes);
    out.set("frames", array_of(tl.frames()));
    out.set("frameSources", frame_sources_of(tl.frame_sources()));
    out.set("memoryBytes", static_cast<double>(tl.memory_bytes()));
    out.set("maxWidth", static_cast<double>(ss::kTimelineMaxWidth));
    out.set("originInRun", static_cast<double>(tl.origin_in_run_ns()));
    out.set("runEnd", static_cast<double>(tl.run_end_ns()));
    out.set("unreadRanks",
            array_of(std::vector<double>(tl.unread_ranks().begin(), tl.unread_ranks().end())));
    open_timelines().emplace(id, std::move(entry));
    return out;
  });
}

// Views of the items' columns (copied by the caller before its next call).
val timeline_bars(int id, double lane, double start, double end, double width) {
  return guarded([&] {
    OpenTimeline& t = timeline_of(id);
    const NsWindow window = ns_window(start, end);
    t.timeline.bars(lane_of(lane), window.start, window.end, width_of(width), t.bars);
    const std::size_t n = t.bars.size();
    t.start.assign(t.bars.start.begin(), t.bars.start.end());
    t.end.assign(t.bars.end.begin(), t.bars.end.end());
    val out = val::object();
    out.set("start", val(emscripten::typed_memory_view(n, t.start.data())));
    out.set("end", val(emscripten::typed_memory_view(n, t.end.data())));
    out.set("depth", val(emscripten::typed_memory_view(n, t.bars.depth.data())));
    out.set("frame", val(emscripten::typed_memory_view(n, t.bars.frame.data())));
    out.set("count", val(emscripten::typed_memory_view(n, t.bars.count.data())));
    out.set("rows", val(emscripten::typed_memory_view(t.bars.rows.size(), t.bars.rows.data())));
    return out;
  });
}

val timeline_stack_at(int id, double lane, double time) {
  return guarded([&] {
    const auto stack = timeline_of(id).timeline.stack_at(lane_of(lane), ns_of(time, false));
    val out = val::array();
    for (std::size_t i = 0; i < stack.size(); ++i) {
      val e = val::object();
      e.set("frame", stack[i].frame);
      e.set("start", static_cast<double>(stack[i].start_ns));
      e.set("end", static_cast<double>(stack[i].end_ns));
      e.set("depth", static_cast<double>(stack[i].depth));
      e.set("self", static_cast<double>(stack[i].self_ns));
      out.set(i, e);
    }
    return out;
  });
}

// lanes: an array of lane indices, or null for all.
val timeline_regions(int id, double start, double end, val lanes) {
  return guarded([&] {
    std::vector<std::size_t> chosen;
    if (!absent(lanes)) {
      const unsigned n = lanes["length"].as<unsigned>();
      for (unsigned i = 0; i < n; ++i) chosen.push_back(lane_of(lanes[i].as<double>()));
    }
    const NsWindow window = ns_window(start, end);
    const auto regions = timeline_of(id).timeline.regions(window.start, window.end, chosen);
    val out = val::array();
    for (std::size_t i = 0; i < regions.size(); ++i) {
      val r = val::object();
      r.set("frame", regions[i].frame);
      r.set("calls", static_cast<double>(regions[i].calls));
      r.set("total", static_cast<double>(regions[i].total_ns));
      r.set("self", static_cast<double>(regions[i].self_ns));
      out.set(i, r);
    }
    return out;
  });
}

// The window around the middle of [start, end) within `max_calls` calls.
val timeline_window_within(int id, double start, double end, double max_calls) {
  return guarded([&] {
    const NsWindow window = ns_window(start, end);
    const uint64_t budget = max_calls > 0 ? static_cast<uint64_t>(std::min(max_calls, 9.0e18)) : 0;
    const auto w = timeline_of(id).timeline.window_within(window.start, window.end, budget);
    val out = val::object();
    out.set("start", static_cast<double>(w.start_ns));
    out.set("end", static_cast<double>(w.end_ns));
    out.set("calls", static_cast<double>(w.calls));
    return out;
  });
}

val timeline_imbalance(int id, double start, double end) {
  return guarded([&] {
    const NsWindow window = ns_window(start, end);
    const auto rows = timeline_of(id).timeline.imbalance(window.start, window.end);
    val out = val::array();
    for (std::size_t i = 0; i < rows.size(); ++i) {
      val r = val::object();
      r.set("frame", rows[i].frame);
      r.set("ranks", rows[i].ranks);
      r.set("min", static_cast<double>(rows[i].min_ns));
      r.set("median", rows[i].median_ns);
      r.set("mean", rows[i].mean_ns);
      r.set("max", static_cast<double>(rows[i].max_ns));
      r.set("imbalance", rows[i].imbalance);
      r.set("slowestRank", static_cast<double>(rows[i].slowest_rank));
      out.set(i, r);
    }
    return out;
  });
}

val timeline_aligned_calls(int id, double frame, double start, double end) {
  return guarded([&] {
    // The answer's columns are converted in place below (the next query refills them).
    ss::Timeline::AlignedCalls& a = aligned_answer(timeline_of(id), frame, start, end);
    val out = val::object();
    out.set("k", doubles_in_place(a.k));
    out.set("rank", doubles_in_place(a.rank));
    out.set("start", doubles_in_place(a.start_ns));
    out.set("end", doubles_in_place(a.end_ns));
    out.set("lateness", doubles_of(a.lateness_ns));
    out.set("excess", doubles_of(a.excess_ns));
    set_rank_counts(out, a.ranks, a.counts, a.common);
    return out;
  });
}

// The heatmap's grid (aligned_grid): {rows, cols, group, ranks, counts,
// common, kFirst, kLast, k, excess, duration, spanStart, spanEnd}.
val timeline_aligned_grid(int id, double frame, double start, double end, double max_columns) {
  return guarded([&] {
    OpenTimeline& t = timeline_of(id);
    const uint64_t columns =
        max_columns >= 1 ? static_cast<uint64_t>(std::min(max_columns, 4294967295.0)) : 0;
    const AlignedQuery q = aligned_query(frame, start, end);
    const ss::AlignedGrid g = ss::aligned_grid(t.timeline, q.frame, q.start, q.end, columns);
    val out = val::object();
    out.set("rows", g.rows);
    out.set("cols", static_cast<double>(g.cols));
    out.set("group", static_cast<double>(g.group));
    set_rank_counts(out, g.ranks, g.counts, g.common);
    out.set("kFirst", float64_copy(g.k_first));
    out.set("kLast", float64_copy(g.k_last));
    out.set("k", float64_copy(g.k));
    out.set("excess", float64_copy(g.excess));
    out.set("duration", float64_copy(g.duration));
    out.set("spanStart", float64_copy(g.span_start));
    out.set("spanEnd", float64_copy(g.span_end));
    return out;
  });
}

// Each rank's mean lateness (mean_lateness): {ranks, lateness}.
val timeline_lateness(int id, double frame, double start, double end) {
  return guarded([&] {
    OpenTimeline& t = timeline_of(id);
    const AlignedQuery q = aligned_query(frame, start, end);
    const ss::RankLateness l = ss::mean_lateness(t.timeline, q.frame, q.start, q.end);
    val out = val::object();
    out.set("ranks", array_of(std::vector<double>(l.ranks.begin(), l.ranks.end())));
    out.set("lateness", array_of(l.lateness));
    return out;
  });
}

std::vector<std::size_t> lanes_in(const val& lanes) {
  std::vector<std::size_t> chosen;
  const unsigned n = lanes["length"].as<unsigned>();
  for (unsigned i = 0; i < n; ++i) chosen.push_back(lane_of(lanes[i].as<double>()));
  return chosen;
}

val timeline_busy(int id, val lanes, double start, double end, double width) {
  return guarded([&] {
    const NsWindow window = ns_window(start, end);
    const std::vector<float> busy =
        timeline_of(id).timeline.busy(lanes_in(lanes), window.start, window.end, width_of(width));
    val array = val::global("Float32Array").new_(busy.size());
    array.call<void>("set", val(emscripten::typed_memory_view(busy.size(), busy.data())));
    return array;
  });
}

val timeline_band_frames(int id, val lanes, double depth, double start, double end, double width) {
  return guarded([&] {
    const NsWindow window = ns_window(start, end);
    const auto d = depth >= 4294967295.0 ? UINT32_MAX : static_cast<uint32_t>(depth);
    const std::vector<int32_t> frames = timeline_of(id).timeline.band_frames(
        lanes_in(lanes), d, window.start, window.end, width_of(width));
    val array = val::global("Int32Array").new_(frames.size());
    array.call<void>("set", val(emscripten::typed_memory_view(frames.size(), frames.data())));
    return array;
  });
}

val timeline_band_depth(int id, val lanes) {
  return guarded([&] {
    return val(static_cast<double>(timeline_of(id).timeline.band_depth(lanes_in(lanes))));
  });
}

// The overview of the timeline's calls (overview_timeline, from its columns):
// overview()'s answer for its file, ranks and filters; options: {bins, maxEvents}.
val timeline_overview(int id, val options) {
  return guarded([&] {
    const std::size_t bins =
        absent(options["bins"]) ? 200 : static_cast<std::size_t>(options["bins"].as<double>());
    return overview_value(ss::overview_timeline(timeline_of(id).timeline, bins), options);
  });
}

// options: {filepath, minDuration, timeWindow, flushSize, sourceLocations} (the selection is
// the timeline's); the outputs streamed into the JavaScript sink. input:
// the timeline's file again when it was read without some ranks' calls
// (unreadRanks), whose calls are then checked (and not kept) before anything is
// written, once a timeline.
val timeline_export_speedscope(int id, val options, val sink, val input) {
  return guarded([&] {
    ss::ExportOptions opts;
    const ss::Progress progress = progress_of(sink);
    const std::string filepath = output_options_of(options, progress, opts);
    opts.source_locations = options["sourceLocations"].isTrue();
    JsOutputTarget target(sink);
    OpenTimeline& t = timeline_of(id);
    const ss::ReadRest read_rest = [&](const std::vector<int64_t>& ranks) {
      if (t.rest_read) return;
      if (absent(input)) {
        throw ss::Error(ss::Msg::internal,
                        {{"detail",
                          "scope-speedscope: timelineExportSpeedscope needs the file "
                          "again for the ranks the timeline did not read"}});
      }
      ss::ReadPlan plan;
      plan.ranks = ranks;
      plan.others_first_starts = false;
      plan.keep = false;  // checked block by block; the export needs none of them
      for (const val& part : inputs_in(input)) read_input(part, progress, plan);
      t.rest_read = true;
    };
    return array_of(ss::export_timeline(t.timeline, filepath, opts, target, read_rest));
  });
}

// A comparison refers to its timelines: it goes with either.
bool timeline_close(int id) {
  for (auto it = open_comparisons().begin(); it != open_comparisons().end();) {
    it = it->second->a == id || it->second->b == id ? open_comparisons().erase(it) : std::next(it);
  }
  return open_timelines().erase(id) > 0;
}

}  // namespace scope_speedscope::wasm
