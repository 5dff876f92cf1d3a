// engine: the dispatcher (engine.hpp): a request's envelope, errors, and the
// requests that open, close and write the run; the queries are queries.cpp's.
#include "engine/engine.hpp"

#include <algorithm>
#include <map>
#include <new>
#include <optional>
#include <string>
#include <unordered_map>

#include "engine/answers.hpp"
#include "engine/request.hpp"
#include "engine/state.hpp"
#include "export/narrow.hpp"
#include "export/timeline_export.hpp"
#include "read/h5_reader.hpp"
#include "select/job.hpp"
#include "select/selection.hpp"
#include "text/time_text.hpp"
#include "write/speedscope_writer.hpp"

namespace scope_speedscope {

namespace engine {

Timeline& timeline_of(Engine::State& s, const json& r) {
  const json& id = field(r, "timeline");
  if (!s.tl || !id.is_number() || id.get<double>() != s.id) {
    refuse("the timeline was closed (a newer file or options replaced it)");
  }
  return *s.tl;
}

namespace {

TimelineOptions timeline_options(const json& r, const Progress& progress) {
  const json& o = field(r, "options");
  if (!o.is_null() && !o.is_object()) refuse("'options' must be an object");
  const json none = json::object();
  const json& options = o.is_null() ? none : o;
  TimelineOptions opts;
  const RankChoice ranks = ranks_of(field(options, "ranks"));
  opts.every_rank = ranks.every_rank;
  opts.ranks = ranks.ranks;
  opts.include = patterns_of(field(options, "include"), "include");
  opts.exclude = patterns_of(field(options, "exclude"), "exclude");
  opts.progress = progress;
  return opts;
}

// options.sourceLocations: true reads each region's source location (the
// open's frameSources).
bool sources_of(const json& r) {
  const json& o = field(r, "options");
  return o.is_object() && flag_of(o, "sourceLocations");
}

// The inputs a request opens as one run: `which` ("file", "fileA",
// "fileB"), or with `count_field` ("count", "countA", "countB") set, the
// files of one job written one file per process: which0 .. which<count - 1>.
std::vector<std::string> inputs_of(const json& r, const std::string& which,
                                   const char* count_field) {
  const json& c = field(r, count_field);
  if (c.is_null()) return {which};
  const uint64_t count = whole(c, count_field);
  if (count == 0 || count > 4096) {
    refuse(std::string("'") + count_field + "' must be from 1 to 4096 files");
  }
  std::vector<std::string> names;
  for (uint64_t i = 0; i < count; ++i) names.push_back(which + std::to_string(i));
  return names;
}

// Reads the inputs `names` (one file, or one job's files: select/job.hpp)
// as the options select: only their ranks' calls (the rest when a download
// needs them; every rank of a job without rank 0); with `warnings`, its
// sources too (the read's warnings kept there).
Timeline open_one(const std::vector<std::string>& names, const TimelineOptions& opts,
                  const EngineIo& io, bool provisional = false,
                  std::vector<std::string>* warnings = nullptr) {
  if (!io.read) refuse("this engine cannot read '" + names.front() + "'");
  ReadPlan plan;
  plan.sources = warnings != nullptr;
  // Provisional: nothing of the other ranks (not even their start column,
  // most of a big job's bytes); their order and origin are its ranks' own.
  plan.others_first_starts = !provisional || opts.every_rank;
  Run run = read_job_for_view(
      names.size(),
      [&](std::size_t i, const ReadPlan& p) { return io.read(names[i], io.progress, p); }, plan,
      opts.ranks, opts.every_rank);
  if (warnings != nullptr) *warnings = run.warnings;
  if (!plan.others_first_starts) provisional_order_and_origin(run);
  return open_timeline(std::move(run), opts);
}

// An open read a group of ranks at a time (EngineIo::group_calls): no read
// of every rank's calls at once, and the open's peak the timeline's
// columns and one group. With `order`, the same file as the open
// timeline, whose region order and origin it takes: nothing more of the
// file is read first. Without (`fresh`), the file's own: every rank's
// first starts are read first (their start columns, as an exact open
// reads them), once the selection is known to take more than one group.
// Begun here (the file's index read, the selection made); nullptr when the
// one read of these ranks might claim more memory than a file may take
// (that read then says so in its own words), and for a fresh open that
// one group holds, or of a file without calls (read at once).
std::unique_ptr<GroupedOpen> begin_in_groups(const std::vector<std::string>& names,
                                             const TimelineOptions& opts, const EngineIo& io,
                                             const RunOrder* order,
                                             std::vector<std::string>* warnings) {
  const auto read_index = [&](bool first_starts) {
    ReadPlan index_plan;
    index_plan.ranks = std::vector<int64_t>{};
    index_plan.others_first_starts = first_starts;
    index_plan.sources = warnings != nullptr;
    return read_job(
        names.size(),
        [&](std::size_t i, const ReadPlan& p) { return io.read(names[i], Progress{}, p); },
        index_plan);
  };
  Run index = read_index(false);
  const std::vector<int64_t> ranks = view_ranks(index, opts.ranks, opts.every_rank);
  uint64_t events = 0;
  for (const Region& region : index.regions) {
    for (const RankSlice& slice : region.ranks) {
      if (std::find(ranks.begin(), ranks.end(), slice.rank) != ranks.end()) events += slice.count;
    }
  }
  if (events * (index.lane_column ? 24 : 16) > memory_per_file().bytes / 8 * 7) return nullptr;
  RunOrder own;
  if (order == nullptr) {
    if (events <= io.group_calls) return nullptr;
    index = read_index(true);
    own = {region_order_keys(index), run_origin_ns(index)};
    if (!own.first_start_ns) return nullptr;
    order = &own;
  }
  if (warnings != nullptr) *warnings = index.warnings;
  return std::make_unique<GroupedOpen>(std::move(index), *order, opts, io.group_calls);
}

// The next group of a grouped open of `names` read through this request's
// inputs; whether every rank is in.
bool step_in_groups(GroupedOpen& open, const std::vector<std::string>& names, const EngineIo& io) {
  const ReadPart read_part = [&](std::size_t i, const ReadPlan& p) {
    return io.read(names[i], Progress{}, p);
  };
  return open.step(
      [&](const std::vector<int64_t>& held) {
        ReadPlan plan;
        plan.ranks = held;
        plan.others_first_starts = false;
        return read_job(names.size(), read_part, plan);
      },
      io.progress);
}

// timeline-open's options.sameFileAs: the id of the open timeline, when the
// page opens the same file(s) with other ranks or filters. Its region
// order and origin are the file's when it is exact; and when every rank of
// the file was read without error already (by the open, by timeline-check
// or by a download's checks), a read a group at a time fails as the one
// read would (the ranks' reconstructions alone can fail, in the same
// order). Else nullopt: the open reads at once; or, with `read_before`
// (a sliced open, which goes back to the one read when a step fails), the
// order all the same, and whether every rank was read.
std::optional<RunOrder> same_file_order(const Engine::State& s, const json& r, const EngineIo& io,
                                        bool* read_before = nullptr) {
  const json& o = field(r, "options");
  if (!o.is_object()) return std::nullopt;
  const json& same = field(o, "sameFileAs");
  if (same.is_null()) return std::nullopt;
  if (!same.is_number()) refuse("'options.sameFileAs' must be a timeline's id");
  if (io.group_calls == 0 || !s.tl || s.comparing() || s.provisional ||
      same.get<double>() != s.id || inputs_of(r, "file", "count") != s.inputs) {
    return std::nullopt;
  }
  const std::vector<int64_t>& unread = s.tl->unread_ranks();
  const bool every_rank_read = io.ranks_checked || s.rest_read ||
                               std::all_of(unread.begin(), unread.end(),
                                           [&](int64_t rank) { return s.checked.count(rank); });
  if (read_before != nullptr) {
    *read_before = every_rank_read;
  } else if (!every_rank_read) {
    return std::nullopt;
  }
  return s.tl->run_order();
}

json lane_json(const Timeline::LaneInfo& l, const char* run) {
  json lane = {{"name", run ? std::string(run[0] == 'a' ? "A" : "B") + " · " + l.name : l.name},
               {"calls", l.calls},
               {"maxDepth", l.max_depth},
               {"start", l.start_ns},
               {"end", l.end_ns}};
  if (run) {
    lane["run"] = run;
  } else {
    lane["rank"] = l.rank;
  }
  return lane;
}

// Calls per frame over a run, added into `totals` at `frame_of[frame]`.
void add_totals(const Timeline& tl, std::vector<double>& totals,
                const std::vector<int32_t>* frame_of) {
  for (const auto& r : tl.regions(0, tl.run_end_ns())) {
    totals[frame_of ? (*frame_of)[r.frame] : r.frame] += static_cast<double>(r.calls);
  }
}

// Per frame {file, line, text} (null when unknown); [] when not read.
json frame_sources_json(const Timeline& tl) {
  json out = json::array();
  for (const SourceLocation& source : tl.frame_sources()) {
    out.push_back({{"file", source.file.empty() ? json(nullptr) : json(source.file)},
                   {"line", source.line >= 0 ? json(source.line) : json(nullptr)},
                   {"text", source.text.empty() ? json(nullptr) : json(source.text)}});
  }
  return out;
}

// The run's first call in absolute ns, as decimal text (a JavaScript
// number cannot hold every int64): what identifies a run with its name and
// size (the page's link to a view). A provisional open's is its ranks' own.
std::string run_origin_text(const Timeline& tl) {
  return std::to_string(tl.origin_ns() - tl.origin_in_run_ns());
}

// A timeline of several ranks, just opened: the step medians of its
// regions of up to kPreparedEntries steps × ranks made now (as far as the
// timeline keeps them), so that the Ranks panel's first heatmap and
// lateness of each is as quick as the next (a query of a larger region's
// whole run walks too many calls to be quick either way).
constexpr uint64_t kPreparedEntries = uint64_t{64} << 20;
void prepare(const Timeline& tl) {
  if (tl.ranks().size() > 1) tl.prepare_aligned(kPreparedEntries);
}

// The answer to an open (and to a timeline-complete that reopened).
json opened(Engine::State& s, WireAnswer& out) {
  const Timeline& tl = *s.tl;
  json lanes = json::array();
  for (const auto& l : tl.lanes()) lanes.push_back(lane_json(l, nullptr));
  std::vector<double> totals(tl.frames().size(), 0.0);
  add_totals(tl, totals, nullptr);
  return {{"timeline", s.id},
          {"lanes", lanes},
          {"frames", tl.frames()},
          {"frameSources", frame_sources_json(tl)},
          {"warnings", s.warnings},
          {"totals", out.column(totals)},
          {"runEnd", tl.run_end_ns()},
          {"originInRun", tl.origin_in_run_ns()},
          {"runOrigin", run_origin_text(tl)},
          {"maxWidth", kTimelineMaxWidth},
          {"memoryBytes", tl.memory_bytes()},
          {"unreadRanks", tl.unread_ranks()},
          {"provisional", s.provisional}};
}

// The open timeline this open replaces, kept answering while a sliced
// open goes on, when it is this small (a first view's rank): a larger one
// is closed first, so that the module never holds two such runs.
constexpr std::size_t kKeptWhileOpening = std::size_t{256} << 20;

// The answer of a sliced open that goes on: how far it is.
json pending(const Engine::State& s) {
  return {{"pending", true},
          {"opening", s.opening_token},
          {"done", s.opening->calls_done()},
          {"total", s.opening->calls()}};
}

json open_at_once(Engine::State& s, const json& r, const EngineIo& io, WireAnswer& out,
                  std::unique_ptr<GroupedOpen> grouped, std::vector<std::string> warnings);

// The next step of the sliced open: a group of ranks; once every rank is
// in, a step of its own indexes it, replaces the open timeline and is
// answered as timeline-open is. When the ranks were not all read before
// (opening_read_before), what fails in a step sends the open back to the
// one read, in this request, which fails in the file's words (a group's
// reconstruction might otherwise fail before a later rank's read would);
// else a failure closes both.
json open_more(Engine::State& s, const EngineIo& io, WireAnswer& out) {
  bool read_before = true;
  try {
    read_before = s.opening_read_before;
    if (!s.opening_laid_out) {
      s.opening_laid_out = step_in_groups(*s.opening, s.opening_inputs, io);
      return pending(s);
    }
    Timeline tl = s.opening->finish(io.progress);
    std::vector<std::string> inputs = std::move(s.opening_inputs);
    std::vector<std::string> warnings = std::move(s.opening_warnings);
    json request = std::move(s.opening_request);
    s.close();
    s.tl.emplace(std::move(tl));
    s.inputs = std::move(inputs);
    s.warnings = std::move(warnings);
    s.open_request = std::move(request);
    // Every rank of the file read without error: before, or by this open.
    s.rest_read = read_before || s.tl->unread_ranks().empty();
  } catch (const Error&) {
    if (read_before) {
      s.close();
      throw;
    }
    const json request = s.opening_request;
    return open_at_once(s, request, io, out, nullptr, {});
  } catch (...) {
    s.close();
    throw;
  }
  s.id = s.next_id++;
  prepare(*s.tl);
  return opened(s, out);
}

// The calls a group of a sliced open (options.slices: true, the engine's
// group, EngineIo::group_calls; or a whole number of calls from 1): 0 when
// it is not in slices, or the engine reads at once (group_calls 0), or it
// is provisional (its order is its ranks' own).
uint64_t open_group_calls(const json& r, const EngineIo& io) {
  const json& o = field(r, "options");
  if (!o.is_object()) return 0;
  const json& slices = field(o, "slices");
  uint64_t calls = 0;
  if (slices.is_boolean()) {
    calls = slices.get<bool>() ? io.group_calls : 0;
  } else if (!slices.is_null()) {
    calls = whole(slices, "slices");
    if (calls == 0) refuse("'options.slices' must be true, false or a number of calls from 1");
  }
  const json& p = field(o, "provisional");
  if (io.group_calls == 0 || (p.is_boolean() && p.get<bool>())) return 0;
  return calls;
}

json open(Engine::State& s, const json& r, const EngineIo& engine_io, WireAnswer& out) {
  EngineIo io = engine_io;
  const uint64_t group_calls = open_group_calls(r, io);
  const bool slices = group_calls > 0;
  if (slices) io.group_calls = group_calls;
  bool read_before = true;
  const std::optional<RunOrder> order = same_file_order(s, r, io, slices ? &read_before : nullptr);
  // A fresh open in slices (nothing open of the file, or a timeline whose
  // order is not the file's yet: provisional): the file's order is its
  // own, read first.
  const bool fresh = slices && !order;
  const bool sliced = slices;
  // The open timeline it names (sameFileAs) answers meanwhile, when small.
  const json& same = field(field(r, "options"), "sameFileAs");
  const bool named = same.is_number() && s.tl && same.get<double>() == s.id && !s.comparing() &&
                     inputs_of(r, "file", "count") == s.inputs;
  if (sliced && named && s.tl->memory_bytes() <= kKeptWhileOpening) {
    s.drop_opening();
  } else {
    s.close();
  }
  const TimelineOptions opts = timeline_options(r, io.progress);
  const json& p = field(field(r, "options"), "provisional");
  if (!p.is_null() && !p.is_boolean()) refuse("'options.provisional' must be true or false");
  std::vector<std::string> warnings;
  const std::vector<std::string> inputs = inputs_of(r, "file", "count");
  std::vector<std::string>* kept = sources_of(r) ? &warnings : nullptr;
  std::unique_ptr<GroupedOpen> grouped;
  if (sliced || order) {
    try {
      grouped = begin_in_groups(inputs, opts, io, order ? &*order : nullptr, kept);
    } catch (const Error&) {
      s.close();
      if (!fresh) throw;  // a fresh open's index fails as the one read does, in its words
    } catch (...) {
      s.close();
      throw;
    }
  }
  if (grouped && sliced) {
    s.opening = std::move(grouped);
    s.opening_token = s.next_id;  // ids and tokens never meet: a token is not a timeline
    s.opening_inputs = inputs;
    s.opening_request = r;
    s.opening_warnings = std::move(warnings);
    s.opening_read_before = read_before && !fresh;
    return open_more(s, io, out);
  }
  return open_at_once(s, r, io, out, std::move(grouped), std::move(warnings));
}

// The open answered in this request: in groups (`grouped`, begun: every
// rank was read without error before), else one read of its ranks.
json open_at_once(Engine::State& s, const json& r, const EngineIo& io, WireAnswer& out,
                  std::unique_ptr<GroupedOpen> grouped, std::vector<std::string> warnings) {
  s.close();
  s.inputs = inputs_of(r, "file", "count");
  const TimelineOptions opts = timeline_options(r, io.progress);
  const json& p = field(field(r, "options"), "provisional");
  const bool provisional = p.is_boolean() && p.get<bool>() && !opts.every_rank;
  if (grouped) {
    while (!step_in_groups(*grouped, s.inputs, io)) {
    }
    forget_edge_chunks();  // kept for a next group's read
    s.tl.emplace(grouped->finish(io.progress));
    s.rest_read = true;  // every rank of the file was read without error before
  } else {
    s.tl.emplace(open_one(s.inputs, opts, io, provisional, sources_of(r) ? &warnings : nullptr));
  }
  s.warnings = std::move(warnings);
  s.id = s.next_id++;
  s.provisional = !grouped && provisional && !s.tl->unread_ranks().empty();
  s.open_request = r;
  prepare(*s.tl);
  return opened(s, out);
}

// timeline-open-more: the sliced open named by `opening` goes on a step.
json open_more_request(Engine::State& s, const json& r, const EngineIo& io, WireAnswer& out) {
  const json& token = field(r, "opening");
  if (!s.opening || !token.is_number() || token.get<double>() != s.opening_token)
    refuse("the opening was given up (a newer file, options or request replaced it)");
  return open_more(s, io, out);
}

// timeline-open-cancel: the sliced open named by `opening` given up (the
// timeline open before it, if kept, stays open).
json open_cancel(Engine::State& s, const json& r) {
  const json& token = field(r, "opening");
  if (s.opening && token.is_number() && token.get<double>() == s.opening_token) s.drop_opening();
  return json::object();
}

// timeline-complete: the open timeline made exact; its order and origin
// then are the file's, as an open that read every rank's first starts.
json complete_request(Engine::State& s, const json& r, const EngineIo& io, WireAnswer& out) {
  timeline_of(s, r);
  if (complete(s, io)) {
    json answer = opened(s, out);
    answer["changed"] = true;
    return answer;
  }
  return {{"changed", false},
          {"timeline", s.id},
          {"originInRun", s.tl->origin_in_run_ns()},
          {"runOrigin", run_origin_text(*s.tl)},
          {"provisional", false}};
}

}  // namespace

bool complete(Engine::State& s, const EngineIo& io) {
  if (!s.provisional) return false;
  const TimelineOptions opts = timeline_options(s.open_request, io.progress);
  std::vector<std::string> warnings;
  Timeline exact =
      open_one(s.inputs, opts, io, false, sources_of(s.open_request) ? &warnings : nullptr);
  s.drop_overview();  // of the timeline replaced here
  s.drop_export();
  const bool changed = exact.frames() != s.tl->frames();
  s.tl.emplace(std::move(exact));
  prepare(*s.tl);
  s.warnings = std::move(warnings);
  s.provisional = false;
  if (changed) s.id = s.next_id++;
  return changed;
}

namespace {

// A comparison's frameSources: per frame (B's, then A's others) B's source
// where B knows it, else A's; [] when the runs were read without them.
json compare_sources(const Timeline& a, const Timeline& b, const std::vector<std::string>& frames) {
  if (a.frame_sources().empty() && b.frame_sources().empty()) return json::array();
  std::unordered_map<std::string, const SourceLocation*> known;
  for (const Timeline* t : {&b, &a}) {
    for (std::size_t f = 0; f < t->frame_sources().size(); ++f) {
      if (t->frame_sources()[f].known()) known.emplace(t->frames()[f], &t->frame_sources()[f]);
    }
  }
  json out = json::array();
  for (const std::string& name : frames) {
    const auto it = known.find(name);
    const SourceLocation none;
    const SourceLocation& s = it == known.end() ? none : *it->second;
    out.push_back({{"file", s.file.empty() ? json(nullptr) : json(s.file)},
                   {"line", s.line >= 0 ? json(s.line) : json(nullptr)},
                   {"text", s.text.empty() ? json(nullptr) : json(s.text)}});
  }
  return out;
}

json compare_open(Engine::State& s, const json& r, const EngineIo& io, WireAnswer& out) {
  s.close();
  const TimelineOptions opts = timeline_options(r, io.progress);
  std::vector<std::string> warnings_a, warnings_b;
  const bool sources = sources_of(r);
  const std::vector<std::string> inputs_a = inputs_of(r, "fileA", "countA");
  s.inputs = inputs_of(r, "fileB", "countB");
  s.a.emplace(open_one(inputs_a, opts, io, false, sources ? &warnings_a : nullptr));
  s.tl.emplace(open_one(s.inputs, opts, io, false, sources ? &warnings_b : nullptr));
  s.warnings = std::move(warnings_a);
  s.warnings.insert(s.warnings.end(), warnings_b.begin(), warnings_b.end());
  s.runs = std::make_unique<AlignedRuns>(*s.a, *s.tl);
  s.lanes_b = s.tl->lanes().size();
  s.id = s.next_id++;
  const Timeline &a = *s.a, &b = *s.tl;
  json lanes = json::array();
  for (const auto& l : b.lanes()) lanes.push_back(lane_json(l, "b"));
  for (const auto& l : a.lanes()) lanes.push_back(lane_json(l, "a"));
  std::vector<double> totals(s.runs->frames().size(), 0.0);
  add_totals(b, totals, nullptr);
  add_totals(a, totals, &s.runs->frame_of_a());
  const json compare = {{"lanesB", s.lanes_b},
                        {"partnerLanes", s.runs->partner_lanes()},
                        {"originInRun", {{"a", a.origin_in_run_ns()}, {"b", b.origin_in_run_ns()}}},
                        {"runEnd", {{"a", a.run_end_ns()}, {"b", b.run_end_ns()}}},
                        {"regions", rows_json(s.runs->regions(), false)}};
  return {{"timeline", s.id},
          {"lanes", lanes},
          {"frames", s.runs->frames()},
          {"frameSources", compare_sources(a, b, s.runs->frames())},
          {"warnings", s.warnings},
          {"totals", out.column(totals)},
          {"runEnd", std::max(a.run_end_ns(), b.run_end_ns())},
          {"originInRun", b.origin_in_run_ns()},
          {"runOrigin", run_origin_text(b)},
          {"maxWidth", kTimelineMaxWidth},
          {"memoryBytes", a.memory_bytes() + b.memory_bytes() + s.runs->memory_bytes()},
          {"unreadRanks", b.unread_ranks()},
          {"compare", compare}};
}

json close(Engine::State& s, const json& r) {
  const json& id = field(r, "timeline");
  if (s.tl && id.is_number() && id.get<double>() == s.id) s.close();
  return json::object();
}

// A time or duration option: seconds, or text in the CLI's grammar.
std::string time_text(const json& v) {
  if (v.is_number()) {
    const double x = v.get<double>();
    const std::string text = seconds_text(x);
    return text.empty() ? python_float_repr(x) : text;
  }
  if (v.is_string()) return v.get<std::string>();
  return "<not a number or a string>";
}

}  // namespace

// options.minDuration: seconds or "2ms"; options.timeWindow: [start, end]
// (seconds, text, or null for an open end) or "START:END".
Narrowing narrowing_of(const json& options) {
  Narrowing n;
  const json& min = field(options, "minDuration");
  if (!min.is_null()) set_min_duration(n, time_text(min), "minDuration", false);
  const json& window = field(options, "timeWindow");
  if (window.is_null()) return n;
  if (window.is_string()) {
    set_time_window(n, window.get<std::string>(), "timeWindow", false);
  } else if (window.is_array() && window.size() == 2) {
    set_time_window(n, window[0].is_null() ? std::string() : time_text(window[0]),
                    window[1].is_null() ? std::string() : time_text(window[1]), "timeWindow",
                    false);
  } else {
    set_time_window(n, "<not [start, end]>", "timeWindow", false);
  }
  return n;
}

namespace {

// The open run's document (whole, or narrowed) into io.output; the ranks it
// did not read are read once first and checked, not kept, so damage there
// fails the download as it fails the CLI.
// Reads `ranks` of the open run's inputs once, checking them (nothing kept).
void check_ranks(const Engine::State& s, const EngineIo& io, const std::vector<int64_t>& ranks,
                 const Progress& progress) {
  if (!io.read) refuse("this engine cannot read the ranks the timeline did not read");
  ReadPlan plan;
  plan.ranks = ranks;
  plan.others_first_starts = false;
  plan.keep = false;  // checked block by block; the export needs none of them
  for (const std::string& input : s.inputs) io.read(input, progress, plan);
}

// timeline-check: the next of the ranks the open timeline did not read
// (ascending), as many as hold about `calls` calls (one at least), read and
// checked now rather than by the export: the page asks a slice at a time,
// so that its other requests are answered in between. A rank that fails
// is not said here: the export reads every unread rank again and fails with
// the file's error, whatever the slices were.
json check_request(Engine::State& s, const json& r, const EngineIo& io) {
  const Timeline& tl = timeline_of(s, r);
  const json& budget = field(r, "calls");
  if (!budget.is_number_integer() || budget.get<int64_t>() < 1)
    refuse("timeline-check needs 'calls', a whole number of at least 1");
  const auto most = budget.get<uint64_t>();
  const bool done = s.rest_read || io.ranks_checked;
  std::vector<int64_t> ranks;
  if (!done) {
    uint64_t taken = 0;
    for (std::size_t i = 0; i < tl.unread_ranks().size(); ++i) {
      const int64_t rank = tl.unread_ranks()[i];
      if (s.checked.count(rank) != 0) continue;
      const uint64_t n = tl.unread_calls()[i];
      if (!ranks.empty() && taken + n > most) break;
      ranks.push_back(rank);
      taken += n;
    }
  }
  bool ok = true;
  if (!ranks.empty()) {
    try {
      check_ranks(s, io, ranks, io.progress);
      s.checked.insert(ranks.begin(), ranks.end());
    } catch (const Error&) {
      ok = false;
      s.checked.clear();
    }
  }
  std::size_t left = 0;
  if (!done) {
    for (int64_t rank : tl.unread_ranks()) left += s.checked.count(rank) == 0 ? 1 : 0;
  }
  return {{"ok", ok}, {"checked", ok ? ranks : std::vector<int64_t>{}}, {"left", ok ? left : 0}};
}

// How many events a slice of a download writes (timeline-export's
// options.slices: true, or a whole number; 0: at once). True: about a
// tenth of a second in the wasm engine (bench/export-slices.mjs).
constexpr uint64_t kExportSliceEvents = 2'000'000;

uint64_t export_slice_of(const json& options) {
  const json& slices = field(options, "slices");
  if (slices.is_null()) return 0;
  if (slices.is_boolean()) return slices.get<bool>() ? kExportSliceEvents : 0;
  const uint64_t n = whole(slices, "slices");
  if (n == 0) refuse("'options.slices' must be true, false or a number of events from 1");
  return n;
}

// The sliced download's next slice: how far it is, or the files written.
// The output lent by this request is taken back before it ends.
json export_step(Engine::State& s) {
  bool done = false;
  try {
    done = s.exporting->step(s.exporting_slice);
  } catch (...) {
    s.drop_export();
    throw;
  }
  if (!done) {
    s.exporting_target->lend(nullptr);
    s.exporting_progress = nullptr;
    return {{"pending", true},
            {"exporting", s.exporting_token},
            {"done", s.exporting->done()},
            {"total", s.exporting->total()}};
  }
  json files = s.exporting->written();
  s.drop_export();
  return {{"files", std::move(files)}};
}

json export_document(Engine::State& s, const json& r, const EngineIo& io) {
  timeline_of(s, r);
  // A provisional timeline's order may not be the file's: made exact
  // first (its id stays when its frames keep their order; else the export
  // is refused as of a replaced timeline, and the page opens the new one).
  if (complete(s, io)) refuse("the timeline was closed (a newer file or options replaced it)");
  const Timeline& tl = *s.tl;
  if (!io.output) refuse("this engine has nowhere to write a download");
  const json& o = field(r, "options");
  const json options = o.is_object() ? o : json::object();
  ExportOptions opts;
  opts.narrowing = narrowing_of(options);
  opts.verbose = false;
  opts.progress = io.progress;
  opts.source_locations = flag_of(options, "sourceLocations");
  const json& path = field(options, "filepath");
  const std::string filepath =
      path.is_string() ? path.get<std::string>() : "profile.speedscope.json";
  const ReadRest read_rest = [&](const std::vector<int64_t>& ranks) {
    if (s.rest_read || io.ranks_checked) return;
    const bool all_checked = std::all_of(ranks.begin(), ranks.end(),
                                         [&](int64_t rank) { return s.checked.count(rank) != 0; });
    if (!all_checked) check_ranks(s, io, ranks, io.progress);
    s.rest_read = true;
  };
  const uint64_t slice = export_slice_of(options);
  s.drop_export();
  if (slice == 0) return {{"files", export_timeline(tl, filepath, opts, *io.output, read_rest)}};
  s.exporting_target = std::make_unique<RelayTarget>();
  s.exporting_target->lend(io.output);
  s.exporting_progress = io.progress;
  opts.progress = [&s](std::string_view phase, uint64_t done, uint64_t total) {
    if (s.exporting_progress) s.exporting_progress(phase, done, total);
  };
  try {
    s.exporting = begin_timeline_export(tl, filepath, opts, *s.exporting_target, read_rest);
  } catch (...) {
    s.drop_export();
    throw;
  }
  s.exporting_timeline = s.id;
  s.exporting_token += 1;
  s.exporting_slice = slice;
  return export_step(s);
}

}  // namespace

// timeline-export-more: the sliced download named by `exporting` goes on a
// slice, written to this request's output.
json export_more(Engine::State& s, const json& r, const EngineIo& io) {
  const json& token = field(r, "exporting");
  if (!s.exporting || s.exporting_timeline != s.id || !token.is_number() ||
      token.get<double>() != s.exporting_token)
    refuse("the download was given up (a newer download, file or options replaced it)");
  if (!io.output) refuse("this engine has nowhere to write a download");
  s.exporting_target->lend(io.output);
  s.exporting_progress = io.progress;
  return export_step(s);
}

// timeline-export-cancel: the sliced download named by `exporting` given
// up, its outputs aborted.
json export_cancel(Engine::State& s, const json& r) {
  const json& token = field(r, "exporting");
  if (s.exporting && token.is_number() && token.get<double>() == s.exporting_token) s.drop_export();
  return json::object();
}

namespace {

using Query = json (*)(Engine::State&, const json&, WireAnswer&);

const std::map<std::string, Query, std::less<>>& queries() {
  static const std::map<std::string, Query, std::less<>> all = {
      {"timeline-bars", bars},
      {"timeline-busy", busy},
      {"timeline-band", band},
      {"timeline-stack", stack},
      {"timeline-regions", regions},
      {"timeline-fit", fit},
      {"timeline-imbalance", imbalance},
      {"timeline-aligned", aligned},
      {"timeline-lateness", lateness},
      {"timeline-compare-regions", compare_regions},
      {"timeline-compare-partner", compare_partner},
      {"timeline-overview-more", overview_more},
  };
  return all;
}

json error_json(const Error& e) {
  return {{"type", "error"},
          {"kind", e.kind_name()},
          {"code", e.code()},
          {"message", e.what()},
          {"wording", e.people_message()},
          {"file", e.file().empty() ? json() : json(e.file())},
          {"field", e.field().empty() ? json() : json(e.field())},
          {"index", e.index() >= 0 ? json(e.index()) : json()}};
}

// The result's fields of request `r` (its columns into `out`).
json answer(Engine::State& s, const json& r, const EngineIo& io, WireAnswer& out) {
  if (!r.is_object()) refuse("a request must be a JSON object");
  const json& type = field(r, "type");
  if (!type.is_string()) refuse("a request needs a 'type'");
  const std::string t = type.get<std::string>();
  if (t == "timeline-open") return open(s, r, io, out);
  if (t == "timeline-compare-open") return compare_open(s, r, io, out);
  if (t == "timeline-close") return close(s, r);
  if (t == "timeline-complete") return complete_request(s, r, io, out);
  if (t == "timeline-open-more") return open_more_request(s, r, io, out);
  if (t == "timeline-open-cancel") return open_cancel(s, r);
  if (t == "timeline-export") return export_document(s, r, io);
  if (t == "timeline-export-more") return export_more(s, r, io);
  if (t == "timeline-export-cancel") return export_cancel(s, r);
  if (t == "timeline-check") return check_request(s, r, io);
  if (t == "timeline-overview") return overview(s, r, io, out);
  if (t == "inspect") return inspect(r, io);
  if (t == "check") return check(r);
  if (t == "overview") return file_overview(r, io);
  if (t == "convert") return convert(r, io);
  if (t == "engine-version")
    return {{"protocol", kEngineProtocol}, {"version", SCOPE_SPEEDSCOPE_VERSION}};
  const auto q = queries().find(t);
  if (q == queries().end()) refuse("unknown request type '" + t + "'");
  return q->second(s, r, out);
}

}  // namespace
}  // namespace engine

Engine::Engine(int first_id) : state_(std::make_unique<State>()) { state_->next_id = first_id; }
Engine::~Engine() = default;

std::size_t Engine::memory_bytes() const {
  const State& s = *state_;
  std::size_t n = s.tl ? s.tl->memory_bytes() : 0;
  if (s.a) n += s.a->memory_bytes();
  if (s.runs) n += s.runs->memory_bytes();
  return n;
}

std::vector<uint8_t> Engine::dispatch(std::string_view request, const EngineIo& io) {
  using engine::json;
  WireAnswer out;
  json header;
  bool is_export = false;
  try {
    const json r = json::parse(request, nullptr, false);
    if (r.is_discarded()) engine::refuse("the request is not JSON");
    is_export = r.is_object() && engine::field(r, "type") == "timeline-export";
    header = engine::answer(*state_, r, io, out);
    header["type"] = "result";
  } catch (const Error& e) {
    out = WireAnswer();
    // A narrowing the open timeline cannot write (the core's bad_argument)
    // is refused: the page converts the file instead.
    if (is_export && e.id() == Msg::bad_argument) {
      header = {{"type", "refused"}, {"message", e.what()}};
    } else {
      header = engine::error_json(e);
    }
  } catch (const std::bad_alloc&) {
    out = WireAnswer();
    state_->close();
    header = engine::error_json(Error(Msg::out_of_memory));
  } catch (const std::exception& e) {
    out = WireAnswer();
    header = engine::error_json(Error(Msg::internal, {{"detail", e.what()}}));
  }
  return out.finish(header);
}

}  // namespace scope_speedscope
