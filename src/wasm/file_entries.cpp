// wasm: the entry points about files: what a file holds, its overview and
// the narrowing it suggests, and the exports (into a JavaScript sink, or as
// files by the core's own rule).
#include "entries.hpp"
#include "export/overview.hpp"
#include "handles.hpp"
#include "js_io.hpp"
#include "options_in.hpp"
#include "select/inspect.hpp"
#include "values_out.hpp"

namespace scope_speedscope::wasm {

namespace {

// What an export is asked to do: the runs read, the options and the output
// name. inputs: [{name, ptr, size} | {name, size, read} | {name, path}];
// options: {filepath, ranks, include, exclude, labels, flushSize,
// minDuration, timeWindow, sourceLocations} (a bad narrowing value fails
// before any file is read); each read's warnings go to sink.warning.
struct ExportRequest {
  std::vector<ss::Run> runs;
  ss::ExportOptions options;
  std::string filepath;
};

ExportRequest export_request(const val& inputs, const val& options, const val& sink) {
  const ss::Progress progress = progress_of(sink);
  ExportRequest request;
  ss::ExportOptions& opts = request.options;
  opts.narrowing = narrowing_of(options);
  opts.source_locations = options["sourceLocations"].isTrue();
  ss::ReadPlan plan;
  plan.sources = opts.source_locations;
  const unsigned n = inputs["length"].as<unsigned>();
  request.runs.reserve(n);
  const std::vector<std::string> labels =
      absent(options["labels"]) ? std::vector<std::string>{} : strings_of(options["labels"]);
  for (unsigned i = 0; i < n; ++i) {
    request.runs.push_back(read_input(inputs[i], progress, plan));
    if (!absent(sink)) warn_each(sink["warning"], request.runs.back());
    if (i < labels.size()) request.runs.back().label = labels[i];
  }
  opts.every_rank = options["ranks"].isString();  // 'all', checked by the JS
  if (!absent(options["ranks"]) && !opts.every_rank) opts.ranks = ranks_of(options["ranks"]);
  opts.include = optional_strings(options["include"]);
  opts.exclude = optional_strings(options["exclude"]);
  request.filepath = output_options_of(options, progress, opts);
  return request;
}

}  // namespace

val inspect(val input) {
  return guarded([&] {
    // What the file holds, without the calls' times (a few MB of a 1.5 GB job).
    const ss::Run run = read_input(input, {}, ss::ReadDepth::index);
    const ss::Inspection info = ss::inspect_run(run);
    val out = val::object();
    out.set("label", info.label);
    out.set("displayLabel", info.display_label);
    out.set("schemaVersion", static_cast<double>(info.schema_version));
    out.set("storageLayout", info.storage_layout);
    out.set("numRanks", static_cast<double>(info.num_ranks));
    out.set("calls", static_cast<double>(info.calls));
    val regions = val::array();
    for (std::size_t i = 0; i < info.regions.size(); ++i) {
      const auto& r = info.regions[i];
      val region = val::object();
      region.set("name", r.name);
      region.set("calls", static_cast<double>(r.calls));
      val ranks = val::array();
      for (std::size_t k = 0; k < r.ranks.size(); ++k)
        ranks.set(k, static_cast<double>(r.ranks[k]));
      region.set("ranks", ranks);
      regions.set(i, region);
    }
    out.set("regions", regions);
    val ranks = val::array();
    for (std::size_t i = 0; i < info.ranks.size(); ++i) {
      const auto& r = info.ranks[i];
      val rank = val::object();
      rank.set("rank", static_cast<double>(r.rank));
      rank.set("calls", static_cast<double>(r.calls));
      val lanes = val::array();
      for (std::size_t k = 0; k < r.lanes.size(); ++k) {
        const auto& l = r.lanes[k];
        val lane = val::object();
        lane.set("lane", static_cast<double>(l.lane));
        lane.set("label", l.label);
        lane.set("profileName", l.profile_name);
        lane.set("calls", static_cast<double>(l.calls));
        lanes.set(k, lane);
      }
      rank.set("lanes", lanes);
      ranks.set(i, rank);
    }
    out.set("ranks", ranks);
    return out;
  });
}

// input as for inspect; options: {ranks, include, exclude, bins, maxEvents}.
val overview(val input, val options) {
  return guarded([&] {
    const ss::Run run = read_input(input, {});
    const std::vector<int64_t> ranks =
        absent(options["ranks"]) ? std::vector<int64_t>{0} : ranks_of(options["ranks"]);
    const std::size_t bins =
        absent(options["bins"]) ? 200 : static_cast<std::size_t>(options["bins"].as<double>());
    const ss::Overview o = ss::overview_run(run, ranks, optional_strings(options["include"]),
                                            optional_strings(options["exclude"]), bins);
    return overview_value(o, options);
  });
}

// overview: what overview() returned; the suggestion for another budget.
val suggest_narrowing(val overview, double max_events) {
  return guarded([&] {
    ss::Overview o;
    o.calls = static_cast<uint64_t>(overview["calls"].as<double>());
    const val time = overview["time"];
    o.first_edge_ns = static_cast<int64_t>(time["firstEdgeNs"].as<double>());
    o.bin_width_ns = static_cast<int64_t>(time["binWidthNs"].as<double>());
    o.starts = counts_of(time["starts"]);
    o.ends = counts_of(time["ends"]);
    o.duration_counts = counts_of(overview["durations"]["counts"]);
    if (o.ends.size() != o.starts.size()) {
      throw ss::Error(ss::Msg::bad_argument, {{"detail", "suggestNarrowing: not an overview"}})
          .on_field("overview");
    }
    return suggestion_value(
        ss::suggest_narrowing(o, static_cast<uint64_t>(std::max(0.0, max_events))));
  });
}

// The outputs streamed into the JavaScript sink (see above).
val export_speedscope(val inputs, val options, val sink) {
  return guarded([&] {
    const ExportRequest request = export_request(inputs, options, sink);
    JsOutputTarget target(sink);
    return array_of(ss::export_speedscope(request.runs, request.filepath, request.options, target));
  });
}

// The outputs written as files by the core's own rule, as the native CLI
// writes them (FileOutputTarget: each to a temporary file beside its target,
// renamed once every output is complete, removed with the directories it
// made otherwise; the errors in the native CLI's words). In the Node build
// the module's file system is Node's (NODERAWFS). sink: {progress} and, when
// it has `open`, a JavaScript sink that gets every output as well (the Node
// CLI's `view` serves them).
val export_files(val inputs, val options, val sink) {
  return guarded([&] {
    const ExportRequest request = export_request(inputs, options, sink);
    ss::FileOutputTarget files;
    if (absent(sink) || sink["open"].isUndefined()) {
      return array_of(
          ss::export_speedscope(request.runs, request.filepath, request.options, files));
    }
    JsOutputTarget also(sink);
    TeeOutputTarget both(files, also);
    return array_of(ss::export_speedscope(request.runs, request.filepath, request.options, both));
  });
}

}  // namespace scope_speedscope::wasm
