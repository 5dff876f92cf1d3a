// engine: the requests about files, not about an open timeline: what a file
// holds, its overview, the filters checked and the files' documents (the
// CLI's export, byte for byte), each from the inputs the shell lends.
#include "engine/answers.hpp"
#include "engine/request.hpp"
#include "engine/state.hpp"
#include "export/overview.hpp"
#include "select/inspect.hpp"
#include "select/selection.hpp"
#include "text/pattern.hpp"

namespace scope_speedscope::engine {

namespace {

json options_of(const json& r) {
  const json& o = field(r, "options");
  if (!o.is_null() && !o.is_object()) refuse("'options' must be an object");
  return o.is_object() ? o : json::object();
}

void need_read(const EngineIo& io, const std::string& which) {
  if (!io.read) refuse("this engine cannot read '" + which + "'");
}

}  // namespace

// What a file holds (no calls' times are read): the page's first look.
json inspect(const json&, const EngineIo& io) {
  need_read(io, "file");
  return {{"info", inspection_json(inspect_run(io.read("file", io.progress, ReadDepth::index)))}};
}

// options: {ranks, include, exclude, bins, maxEvents}: the calls over time
// and durations of the file's selection (and, with maxEvents, the narrowing
// that fits it).
json file_overview(const json& r, const EngineIo& io) {
  const json options = options_of(r);
  const RankChoice ranks = ranks_of(field(options, "ranks"));
  const Patterns include = patterns_of(field(options, "include"), "include");
  const Patterns exclude = patterns_of(field(options, "exclude"), "exclude");
  const json& bins = field(options, "bins");
  const std::size_t n = bins.is_null() ? 200 : static_cast<std::size_t>(whole(bins, "bins"));
  const json& max_events = field(options, "maxEvents");
  std::optional<uint64_t> max;
  if (!max_events.is_null()) max = whole(max_events, "maxEvents");
  need_read(io, "file");
  const Run run = io.read("file", io.progress, ReadPlan());
  const std::vector<int64_t> selected = chosen_ranks(run, ranks.ranks, ranks.every_rank);
  return {{"overview", overview_json(overview_run(run, selected, include, exclude, n), max)}};
}

// The filters' patterns checked by the core's own regular expressions:
// {problems: [{field, line, pattern, message}]} (none: every one compiles).
json check(const json& r) {
  json problems = json::array();
  for (const char* name : {"include", "exclude"}) {
    const auto patterns = patterns_of(field(r, name), name);
    if (!patterns) continue;
    for (std::size_t line = 0; line < patterns->size(); ++line) {
      const auto problem = check_pattern((*patterns)[line]);
      if (problem) {
        problems.push_back({{"field", name},
                            {"line", line},
                            {"pattern", (*patterns)[line]},
                            {"message", *problem}});
      }
    }
  }
  return {{"problems", problems}};
}

// count files (inputs file0 .. file<count - 1>) as the export writes them,
// into io.output. options: {filepath, ranks, include, exclude, labels,
// minDuration, timeWindow}; a bad narrowing fails before any file is read.
json convert(const json& r, const EngineIo& io) {
  const json options = options_of(r);
  const uint64_t count = whole(field(r, "count"), "count");
  if (count == 0 || count > 4096) refuse("'count' must be from 1 to 4096 files");
  if (!io.output) refuse("this engine has nowhere to write a download");
  ExportOptions opts;
  opts.narrowing = narrowing_of(options);
  opts.verbose = false;
  opts.progress = io.progress;
  const RankChoice ranks = ranks_of(field(options, "ranks"));
  opts.every_rank = ranks.every_rank;
  opts.ranks = ranks.ranks;
  opts.include = patterns_of(field(options, "include"), "include");
  opts.exclude = patterns_of(field(options, "exclude"), "exclude");
  const auto labels = patterns_of(field(options, "labels"), "labels");
  opts.source_locations = flag_of(options, "sourceLocations");
  ReadPlan plan;
  plan.sources = opts.source_locations;
  const json& path = field(options, "filepath");
  const std::string filepath =
      path.is_string() ? path.get<std::string>() : "profile.speedscope.json";
  need_read(io, "file0");
  std::vector<Run> runs;
  runs.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    runs.push_back(io.read("file" + std::to_string(i), io.progress, plan));
    if (labels && i < labels->size()) runs.back().label = (*labels)[i];
  }
  return {{"files", export_speedscope(runs, filepath, opts, *io.output)}};
}

}  // namespace scope_speedscope::engine
