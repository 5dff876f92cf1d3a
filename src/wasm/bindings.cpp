// The WebAssembly face of the core (embind). Emscripten types stay in this
// file. Every entry point returns {ok: true, value} or {ok: false, kind,
// message}; src/js/api.js turns the latter into a ScopeSpeedscopeError in
// one place, and no C++ exception ever unwinds into JavaScript.
//
// Inputs are {name, ptr, size} (bytes the wrapper copied into the heap),
// {name, size, read} (a file JavaScript reads lazily: a File in a worker, a
// file on disk in Node) or {name, path} (a file in Emscripten's file system).
// A sink is a JS object {open(path), write(Uint8Array view), close(),
// commit(), abort(), progress(phase, done, total)}; the view is only valid
// during the call. A sink method never throws: it returns a message string
// when it failed and undefined otherwise, so that the C++ side unwinds
// normally.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "cli/options.hpp"
#include "compare/aligned_runs.hpp"
#include "compare/compare.hpp"
#include "compare/diff_report.hpp"
#include "export/export.hpp"
#include "export/imbalance_report.hpp"
#include "export/narrow.hpp"
#include "export/overview.hpp"
#include "export/timeline_export.hpp"
#include "read/h5_reader.hpp"
#include "select/inspect.hpp"
#include "text/messages.hpp"
#include "text/pattern.hpp"
#include "timeline/aligned_grid.hpp"
#include "timeline/timeline.hpp"
#include "write/speedscope_format.hpp"
#include "write/speedscope_writer.hpp"

using emscripten::val;
namespace ss = scope_speedscope;

namespace {

val ok(val value) {
  val result = val::object();
  result.set("ok", true);
  result.set("value", value);
  return result;
}

// An error as a value: the CLIs' text, the words for people (one table,
// src/core/text/messages.cpp), and what it blames.
val failure(const ss::Error& e) {
  val result = val::object();
  result.set("ok", false);
  result.set("kind", std::string(e.kind_name()));
  result.set("message", std::string(e.what()));
  result.set("code", std::string(e.code()));
  result.set("peopleMessage", e.people_message());
  result.set("file", e.file().empty() ? val::null() : val(e.file()));
  result.set("field", e.field().empty() ? val::null() : val(e.field()));
  result.set("index", e.index() >= 0 ? val(static_cast<double>(e.index())) : val::null());
  return result;
}

// The one place where C++ errors become values for JavaScript.
template <class Fn>
val guarded(Fn&& fn) {
  try {
    return ok(fn());
  } catch (const ss::Error& e) {
    return failure(e);
  } catch (const std::bad_alloc&) {
    return failure(ss::Error(ss::Msg::out_of_memory));
  } catch (const std::exception& e) {
    return failure(ss::Error(ss::Msg::internal, {{"detail", e.what()}}));
  }
}

template <class T>
val array_of(const std::vector<T>& items) {
  val out = val::array();
  for (std::size_t i = 0; i < items.size(); ++i) out.set(i, val(items[i]));
  return out;
}

std::vector<std::string> strings_of(const val& array) {
  std::vector<std::string> out;
  const unsigned n = array["length"].as<unsigned>();
  out.reserve(n);
  for (unsigned i = 0; i < n; ++i) out.push_back(array[i].as<std::string>());
  return out;
}

std::optional<std::vector<std::string>> optional_strings(const val& v) {
  if (v.isUndefined() || v.isNull()) return std::nullopt;
  return strings_of(v);
}

ss::Progress progress_of(const val& sink) {
  if (sink.isUndefined() || sink.isNull() || sink["progress"].isUndefined()) return {};
  return [sink](std::string_view phase, uint64_t done, uint64_t total) {
    sink.call<void>("progress", std::string(phase), static_cast<double>(done),
                    static_cast<double>(total));
  };
}

// A file JavaScript reads for us, slice by slice (a File in a worker, a file
// in Node): input.read(offset, view) fills the view and returns undefined;
// it returns the number of bytes it got when the file ended before the view
// was full (the table words that: file_shrank), or a string saying why it
// could not read (the system's words). It never throws (src/js/api.js,
// src/js/node.js).
class JsSource final : public ss::ByteSource {
 public:
  JsSource(val read, uint64_t size) : read_(std::move(read)), size_(size) {}
  uint64_t size() const override { return size_; }
  bool lazy() const override { return true; }
  std::string read(uint64_t offset, void* out, std::size_t n) override {
    const val result = read_(static_cast<double>(offset),
                             val(emscripten::typed_memory_view(n, static_cast<uint8_t*>(out))));
    if (result.isNumber()) {
      const auto got = static_cast<uint64_t>(result.as<double>());
      return ss::message_text(ss::Msg::file_shrank, {{"offset", std::to_string(offset + got)},
                                                     {"size", std::to_string(size_)}});
    }
    return result.isString() ? result.as<std::string>() : std::string();
  }

 private:
  val read_;
  uint64_t size_;
};

ss::Run read_input(const val& input, const ss::Progress& progress,
                   ss::ReadDepth depth = ss::ReadDepth::calls) {
  const std::string name = input["name"].as<std::string>();
  if (!input["read"].isUndefined()) {
    JsSource source(input["read"], static_cast<uint64_t>(input["size"].as<double>()));
    return ss::read_run_from_source(source, name, progress, depth);
  }
  if (!input["path"].isUndefined()) {
    return ss::read_run(input["path"].as<std::string>(), progress, name, depth);
  }
  const auto ptr = static_cast<uintptr_t>(input["ptr"].as<double>());
  const auto size = static_cast<std::size_t>(input["size"].as<double>());
  return ss::read_run_from_memory(reinterpret_cast<const void*>(ptr), size, name, progress, depth);
}

// Calls a sink method; a returned string is the message of a failure.
template <class... Args>
void call_sink(const val& sink, const char* method, Args&&... args) {
  const val result = sink.call<val>(method, std::forward<Args>(args)...);
  if (result.isString())
    throw ss::Error(ss::Msg::output_failed, {{"detail", result.as<std::string>()}});
}

class JsSink final : public ss::Sink {
 public:
  explicit JsSink(val sink) : sink_(std::move(sink)) {}
  void write(const char* data, std::size_t size) override {
    call_sink(sink_, "write",
              val(emscripten::typed_memory_view(size, reinterpret_cast<const uint8_t*>(data))));
  }

 private:
  val sink_;
};

class JsOutputTarget final : public ss::OutputTarget {
 public:
  explicit JsOutputTarget(val sink) : sink_(sink), writer_(sink) {}
  ss::Sink& open(const std::string& path) override {
    call_sink(sink_, "open", path);
    return writer_;
  }
  void close() override { call_sink(sink_, "close"); }
  void commit() override { call_sink(sink_, "commit"); }
  void abort() noexcept override {
    try {
      sink_.call<void>("abort");
    } catch (...) {
    }
  }

 private:
  val sink_;
  JsSink writer_;
};

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

bool absent(const val& v) { return v.isUndefined() || v.isNull(); }

// A time or duration option: a number of seconds, or text in the CLI's
// grammar (a wrong type or value fails in the core's words).
std::string time_text(const val& v) {
  if (v.isNumber()) {
    const double x = v.as<double>();
    const std::string text = ss::seconds_text(x);
    return text.empty() ? ss::python_float_repr(x) : text;
  }
  if (v.isString()) return v.as<std::string>();
  return "<not a number or a string>";
}

std::vector<int64_t> ranks_of(const val& ranks) {
  std::vector<int64_t> list;
  const unsigned m = ranks["length"].as<unsigned>();
  for (unsigned i = 0; i < m; ++i) list.push_back(static_cast<int64_t>(ranks[i].as<double>()));
  return list;
}

// options.minDuration: seconds or "2ms"; options.timeWindow: [start, end]
// (seconds, text, or null for an open end) or "START:END".
ss::Narrowing narrowing_of(const val& options) {
  ss::Narrowing n;
  const val min = options["minDuration"];
  if (!absent(min)) ss::set_min_duration(n, time_text(min), "minDuration", false);
  const val window = options["timeWindow"];
  if (absent(window)) return n;
  if (window.isString()) {
    ss::set_time_window(n, window.as<std::string>(), "timeWindow", false);
  } else if (val::global("Array").call<bool>("isArray", window) &&
             window["length"].as<unsigned>() == 2) {
    const val a = window[0], b = window[1];
    ss::set_time_window(n, absent(a) ? std::string() : time_text(a),
                        absent(b) ? std::string() : time_text(b), "timeWindow", false);
  } else {
    ss::set_time_window(n, "<not [start, end]>", "timeWindow", false);
  }
  return n;
}

val numbers(const std::vector<uint64_t>& v) {
  val out = val::array();
  for (std::size_t i = 0; i < v.size(); ++i) out.set(i, static_cast<double>(v[i]));
  return out;
}

std::vector<uint64_t> counts_of(const val& array) {
  std::vector<uint64_t> out;
  const unsigned n = array["length"].as<unsigned>();
  out.reserve(n);
  for (unsigned i = 0; i < n; ++i) out.push_back(static_cast<uint64_t>(array[i].as<double>()));
  return out;
}

val suggestion_value(const ss::Suggestion& s) {
  val out = val::object();
  out.set("fits", s.fits);
  out.set("calls", static_cast<double>(s.calls));
  out.set("events", 2.0 * static_cast<double>(s.calls));
  out.set("maxCalls", static_cast<double>(s.max_calls));
  if (s.has_min_duration) {
    val m = val::object();
    m.set("value", s.min_duration_text);
    m.set("seconds", ss::duration_edge_seconds(s.min_duration_edge));
    m.set("calls", static_cast<double>(s.min_duration_calls));
    m.set("events", 2.0 * static_cast<double>(s.min_duration_calls));
    out.set("minDuration", m);
  } else {
    out.set("minDuration", val::null());
  }
  if (s.has_window) {
    val w = val::object();
    val value = val::array();
    value.set(0, ss::format_seconds_ns(s.window_start_ns));
    value.set(1, ss::format_seconds_ns(s.window_end_ns));
    w.set("value", value);
    w.set("text", s.window_text);
    w.set("start", static_cast<double>(s.window_start_ns) / 1e9);
    w.set("end", static_cast<double>(s.window_end_ns) / 1e9);
    w.set("calls", static_cast<double>(s.window_calls));
    w.set("events", 2.0 * static_cast<double>(s.window_calls));
    out.set("timeWindow", w);
  } else {
    out.set("timeWindow", val::null());
  }
  using Pick = ss::Suggestion::Pick;
  out.set("preferred", s.preferred == Pick::min_duration ? val("minDuration")
                       : s.preferred == Pick::window     ? val("timeWindow")
                                                         : val::null());
  return out;
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
    val out = val::object();
    out.set("calls", static_cast<double>(o.calls));
    out.set("events", 2.0 * static_cast<double>(o.calls));
    out.set("firstStart", o.calls ? val(static_cast<double>(o.first_start_ns) / 1e9) : val::null());
    out.set("lastEnd", o.calls ? val(static_cast<double>(o.last_end_ns) / 1e9) : val::null());
    val time = val::object();
    time.set("firstEdgeNs", static_cast<double>(o.first_edge_ns));
    time.set("binWidthNs", static_cast<double>(o.bin_width_ns));
    time.set("binWidth", static_cast<double>(o.bin_width_ns) / 1e9);
    val edges = val::array();
    for (std::size_t i = 0; i <= o.starts.size() && !o.starts.empty(); ++i) {
      edges.set(
          i, static_cast<double>(o.first_edge_ns + static_cast<int64_t>(i) * o.bin_width_ns) / 1e9);
    }
    time.set("edges", edges);
    time.set("starts", numbers(o.starts));
    time.set("ends", numbers(o.ends));
    out.set("time", time);
    val durations = val::object();
    val d_edges = val::array(), labels = val::array(), at_least = val::array();
    for (std::size_t j = 0; j + 1 < o.duration_counts.size(); ++j) {
      d_edges.set(j, ss::duration_edge_seconds(static_cast<int>(j)));
      labels.set(j, ss::duration_edge_text(static_cast<int>(j)));
      at_least.set(j, static_cast<double>(o.calls_at_least(static_cast<int>(j))));
    }
    durations.set("edges", d_edges);
    durations.set("labels", labels);
    durations.set("counts", numbers(o.duration_counts));
    durations.set("atLeast", at_least);
    out.set("durations", durations);
    if (!absent(options["maxEvents"])) {
      out.set("suggestion", suggestion_value(ss::suggest_narrowing(
                                o, static_cast<uint64_t>(options["maxEvents"].as<double>()))));
    }
    return out;
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

// What an export is asked to do: the runs read, the options and the output
// name. inputs: [{name, ptr, size} | {name, size, read} | {name, path}];
// options: {filepath, ranks, include, exclude, labels, flushSize,
// minDuration, timeWindow} (a bad narrowing value fails before any file is
// read).
struct ExportRequest {
  std::vector<ss::Run> runs;
  ss::ExportOptions options;
  std::string filepath;
};

// What every export takes beside its selection: the narrowing, progress,
// flush size (options: {minDuration, timeWindow, flushSize, filepath});
// returns the output name.
std::string output_options_of(const val& options, const ss::Progress& progress,
                              ss::ExportOptions& opts) {
  opts.narrowing = narrowing_of(options);
  opts.verbose = false;
  opts.progress = progress;
  if (!options["flushSize"].isUndefined()) {
    opts.flush_size = static_cast<std::size_t>(options["flushSize"].as<double>());
  }
  return options["filepath"].isUndefined() ? std::string("profile.speedscope.json")
                                           : options["filepath"].as<std::string>();
}

ExportRequest export_request(const val& inputs, const val& options, const ss::Progress& progress) {
  ExportRequest request;
  ss::ExportOptions& opts = request.options;
  opts.narrowing = narrowing_of(options);
  const unsigned n = inputs["length"].as<unsigned>();
  request.runs.reserve(n);
  const std::vector<std::string> labels =
      absent(options["labels"]) ? std::vector<std::string>{} : strings_of(options["labels"]);
  for (unsigned i = 0; i < n; ++i) {
    request.runs.push_back(read_input(inputs[i], progress));
    if (i < labels.size()) request.runs.back().label = labels[i];
  }
  opts.every_rank = options["ranks"].isString();  // 'all', checked by the JS
  if (!absent(options["ranks"]) && !opts.every_rank) opts.ranks = ranks_of(options["ranks"]);
  opts.include = optional_strings(options["include"]);
  opts.exclude = optional_strings(options["exclude"]);
  request.filepath = output_options_of(options, progress, opts);
  return request;
}

// The outputs streamed into the JavaScript sink (see above).
val export_speedscope(val inputs, val options, val sink) {
  return guarded([&] {
    const ExportRequest request = export_request(inputs, options, progress_of(sink));
    JsOutputTarget target(sink);
    return array_of(ss::export_speedscope(request.runs, request.filepath, request.options, target));
  });
}

// Bytes going to two sinks.
class TeeSink final : public ss::Sink {
 public:
  void to(ss::Sink* first, ss::Sink* second) {
    first_ = first;
    second_ = second;
  }
  void write(const char* data, std::size_t size) override {
    first_->write(data, size);
    second_->write(data, size);
  }

 private:
  ss::Sink* first_ = nullptr;
  ss::Sink* second_ = nullptr;
};

// Every output to two targets; the first commits first (files, which may fail).
class TeeOutputTarget final : public ss::OutputTarget {
 public:
  TeeOutputTarget(ss::OutputTarget& first, ss::OutputTarget& second)
      : first_(first), second_(second) {}
  ss::Sink& open(const std::string& path) override {
    ss::Sink& a = first_.open(path);
    ss::Sink& b = second_.open(path);
    both_.to(&a, &b);
    return both_;
  }
  void close() override {
    first_.close();
    second_.close();
  }
  void commit() override {
    first_.commit();
    second_.commit();
  }
  void abort() noexcept override {
    first_.abort();
    second_.abort();
  }

 private:
  ss::OutputTarget& first_;
  ss::OutputTarget& second_;
  TeeSink both_;
};

// The outputs written as files by the core's own rule, as the native CLI
// writes them (FileOutputTarget: each to a temporary file beside its target,
// renamed once every output is complete, removed with the directories it
// made otherwise; the errors in the native CLI's words). In the Node build
// the module's file system is Node's (NODERAWFS). sink: {progress} and, when
// it has `open`, a JavaScript sink that gets every output as well (the Node
// CLI's `view` serves them).
val export_files(val inputs, val options, val sink) {
  return guarded([&] {
    const ExportRequest request = export_request(inputs, options, progress_of(sink));
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

// ---- the timeline ------------------------------------------------------------------
// Open timelines live here, by id, until timelineClose; each keeps the
// buffers of its last bars query, which JavaScript copies at once (the views
// handed out are only valid until the next call).

struct OpenTimeline {
  ss::Timeline timeline;
  ss::Timeline::Bars bars;
  std::vector<double> start, end;             // bars' times as JavaScript numbers
  ss::Timeline::AlignedCalls aligned_answer;  // alignedCalls' last answer, its memory reused
};

std::map<int, std::unique_ptr<OpenTimeline>>& open_timelines() {
  static std::map<int, std::unique_ptr<OpenTimeline>> all;
  return all;
}

OpenTimeline& timeline_of(int id) {
  const auto it = open_timelines().find(id);
  if (it == open_timelines().end()) {
    throw ss::Error(ss::Msg::bad_argument, {{"detail", "the timeline is closed"}});
  }
  return *it->second;
}

// A time in ns from the origin (a JavaScript number) as int64, rounded
// down (or up), within +-2^62.
int64_t ns_of(double t, bool up) {
  constexpr double limit = 4611686018427387904.0;  // 2^62
  if (!(t > -limit)) return -static_cast<int64_t>(limit);
  if (!(t < limit)) return static_cast<int64_t>(limit);
  return static_cast<int64_t>(up ? std::ceil(t) : std::floor(t));
}

// A query's window [start, end) in whole ns: the whole ns it touches. An
// empty or reversed window stays one (its end rounded down), so the core
// refuses it.
struct NsWindow {
  int64_t start, end;
};
NsWindow ns_window(double start, double end) {
  return {ns_of(start, false), ns_of(end, end > start)};
}

// Lanes and widths come as whole numbers from 0 (src/js/options.js); the
// timeline judges the values. One beyond its parameter's range reaches it as
// the largest value the parameter holds, which it refuses all the same.
std::size_t lane_of(double lane) {
  constexpr auto most = static_cast<double>(SIZE_MAX);
  return lane >= most ? SIZE_MAX : static_cast<std::size_t>(lane);
}
uint32_t width_of(double width) {
  if (!(width > 0)) return 0;
  return width >= 4294967295.0 ? UINT32_MAX : static_cast<uint32_t>(width);
}

// input as for inspect; options: {ranks, include, exclude}; sink: {progress}.
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
      ss::Run run = read_input(input, progress);  // its columns become the timeline's
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
    out.set("memoryBytes", static_cast<double>(tl.memory_bytes()));
    out.set("maxWidth", static_cast<double>(ss::kTimelineMaxWidth));
    out.set("originInRun", static_cast<double>(tl.origin_in_run_ns()));
    out.set("runEnd", static_cast<double>(tl.run_end_ns()));
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

// An int64 column as doubles, converted where it lies and seen from
// JavaScript (which copies it): the column is the timeline's last answer,
// which the next query writes again whole, so no second column of 22 MB
// (at 2.7 M entries) is filled for the conversion.
template <class T>
val doubles_in_place(std::vector<T>& values) {
  static_assert(sizeof(T) == sizeof(double));
  for (T& v : values) {
    const auto d = static_cast<double>(v);
    std::memcpy(&v, &d, sizeof d);
  }
  return val(
      emscripten::typed_memory_view(values.size(), reinterpret_cast<const double*>(values.data())));
}

val doubles_of(const std::vector<double>& values) {
  return val(emscripten::typed_memory_view(values.size(), values.data()));
}

// aligned_calls of a query into the timeline's last answer (its memory reused).
ss::Timeline::AlignedCalls& aligned_answer(OpenTimeline& t, double frame, double start,
                                           double end) {
  const NsWindow window = ns_window(start, end);
  const double limit = 2147483647.0;
  const auto f = static_cast<int32_t>(std::max(-1.0, std::min(frame, limit)));
  t.timeline.aligned_calls(f, window.start, window.end, t.aligned_answer);
  return t.aligned_answer;
}

// An aligned answer's ranks, their counts of the region and the common count.
void set_rank_counts(val& out, const std::vector<int64_t>& ranks,
                     const std::vector<uint64_t>& counts, uint64_t common) {
  out.set("ranks", array_of(std::vector<double>(ranks.begin(), ranks.end())));
  out.set("counts", array_of(std::vector<double>(counts.begin(), counts.end())));
  out.set("common", static_cast<double>(common));
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

// A fresh Float64Array of the values (the page's worker transfers it).
template <class T>
val float64_copy(const std::vector<T>& values) {
  std::vector<double> d(values.begin(), values.end());
  val array = val::global("Float64Array").new_(d.size());
  array.call<void>("set", val(emscripten::typed_memory_view(d.size(), d.data())));
  return array;
}

// The heatmap's grid (aligned_grid): {rows, cols, group, ranks, counts,
// common, kFirst, kLast, k, excess, duration, spanStart, spanEnd}.
val timeline_aligned_grid(int id, double frame, double start, double end, double max_columns) {
  return guarded([&] {
    OpenTimeline& t = timeline_of(id);
    const uint64_t columns =
        max_columns >= 1 ? static_cast<uint64_t>(std::min(max_columns, 4294967295.0)) : 0;
    const ss::AlignedGrid g = ss::aligned_grid(aligned_answer(t, frame, start, end), columns);
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
    const ss::RankLateness l = ss::mean_lateness(aligned_answer(t, frame, start, end));
    val out = val::object();
    out.set("ranks", array_of(std::vector<double>(l.ranks.begin(), l.ranks.end())));
    out.set("lateness", array_of(l.lateness));
    return out;
  });
}

val timeline_busy(int id, val lanes, double start, double end, double width) {
  return guarded([&] {
    std::vector<std::size_t> chosen;
    const unsigned n = lanes["length"].as<unsigned>();
    for (unsigned i = 0; i < n; ++i) chosen.push_back(lane_of(lanes[i].as<double>()));
    const NsWindow window = ns_window(start, end);
    const std::vector<float> busy =
        timeline_of(id).timeline.busy(chosen, window.start, window.end, width_of(width));
    val array = val::global("Float32Array").new_(busy.size());
    array.call<void>("set", val(emscripten::typed_memory_view(busy.size(), busy.data())));
    return array;
  });
}

// options: {filepath, minDuration, timeWindow, flushSize} (the selection is
// the timeline's); the outputs streamed into the JavaScript sink.
val timeline_export_speedscope(int id, val options, val sink) {
  return guarded([&] {
    ss::ExportOptions opts;
    const std::string filepath = output_options_of(options, progress_of(sink), opts);
    JsOutputTarget target(sink);
    return array_of(ss::export_timeline(timeline_of(id).timeline, filepath, opts, target));
  });
}

// ---- two runs compared (compareRuns): both timelines open, B's calls lined up with A's ----

struct OpenComparison {
  int a, b;  // the timelines' ids
  std::unique_ptr<ss::AlignedRuns> runs;
  ss::AlignedRuns::Bars bars;
  std::vector<double> start, end;  // bars' times as JavaScript numbers
};

std::map<int, std::unique_ptr<OpenComparison>>& open_comparisons() {
  static std::map<int, std::unique_ptr<OpenComparison>> comparisons;
  return comparisons;
}

// Rows as diff --json prints them; with_total_pct adds deltaTotalPct (the
// rows of a window, which the page's table shows by total or self).
val rows_value(const std::vector<ss::RegionDelta>& rows, bool with_total_pct = false) {
  auto totals = [](const ss::RegionTotals& t) {
    val v = val::object();
    v.set("calls", static_cast<double>(t.calls));
    v.set("total", static_cast<double>(t.total_ns));
    v.set("self", static_cast<double>(t.self_ns));
    return v;
  };
  val out = val::array();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    val r = val::object();
    r.set("name", rows[i].name);
    r.set("a", totals(rows[i].a));
    r.set("b", totals(rows[i].b));
    r.set("deltaTotal", static_cast<double>(rows[i].delta_total_ns));
    r.set("deltaSelf", static_cast<double>(rows[i].delta_self_ns));
    r.set("deltaSelfPct", rows[i].delta_self_pct ? val(*rows[i].delta_self_pct) : val::null());
    if (with_total_pct) {
      r.set("deltaTotalPct", rows[i].delta_total_pct ? val(*rows[i].delta_total_pct) : val::null());
    }
    out.set(i, r);
  }
  return out;
}

// Timelines a and b (ids of openTimeline): {id, regions, partnerLanes, memoryBytes}.
val compare_open(int a, int b) {
  return guarded([&] {
    auto entry = std::make_unique<OpenComparison>();
    entry->a = a;
    entry->b = b;
    entry->runs =
        std::make_unique<ss::AlignedRuns>(timeline_of(a).timeline, timeline_of(b).timeline);
    static int next_id = 0;
    const int id = ++next_id;
    val out = val::object();
    out.set("id", id);
    out.set("regions", rows_value(entry->runs->regions()));
    val partners = val::array();
    const auto& lanes = entry->runs->partner_lanes();
    for (std::size_t i = 0; i < lanes.size(); ++i) partners.set(i, static_cast<double>(lanes[i]));
    out.set("partnerLanes", partners);
    out.set("frames", array_of(entry->runs->frames()));
    const auto& of_a = entry->runs->frame_of_a();
    val frame_of_a = val::global("Int32Array").new_(of_a.size());
    frame_of_a.call<void>("set", val(emscripten::typed_memory_view(of_a.size(), of_a.data())));
    out.set("frameOfA", frame_of_a);
    out.set("memoryBytes", static_cast<double>(entry->runs->memory_bytes()));
    open_comparisons().emplace(id, std::move(entry));
    return out;
  });
}

OpenComparison& comparison_of(int id) {
  const auto it = open_comparisons().find(id);
  if (it == open_comparisons().end()) {
    throw ss::Error(ss::Msg::bad_argument, {{"detail", "the comparison is closed"}});
  }
  return *it->second;
}

val compare_aligned(int id, double lane, double start, double end, double width) {
  return guarded([&] {
    OpenComparison& c = comparison_of(id);
    const NsWindow window = ns_window(start, end);
    c.runs->aligned(lane_of(lane), window.start, window.end, width_of(width), c.bars);
    const ss::Timeline::Bars& bars = c.bars.bars;
    const std::size_t n = bars.size();
    c.start.assign(bars.start.begin(), bars.start.end());
    c.end.assign(bars.end.begin(), bars.end.end());
    val out = val::object();
    out.set("start", val(emscripten::typed_memory_view(n, c.start.data())));
    out.set("end", val(emscripten::typed_memory_view(n, c.end.data())));
    out.set("depth", val(emscripten::typed_memory_view(n, bars.depth.data())));
    out.set("frame", val(emscripten::typed_memory_view(n, bars.frame.data())));
    out.set("count", val(emscripten::typed_memory_view(n, bars.count.data())));
    out.set("ratio", val(emscripten::typed_memory_view(n, c.bars.ratio.data())));
    out.set("rows", val(emscripten::typed_memory_view(bars.rows.size(), bars.rows.data())));
    return out;
  });
}

// The rows of [start, end) of each run (AlignedRuns::regions(start, end)).
val compare_regions_in(int id, double start, double end) {
  return guarded([&] {
    const NsWindow window = ns_window(start, end);
    return rows_value(comparison_of(id).runs->regions(window.start, window.end), true);
  });
}

bool compare_close(int id) { return open_comparisons().erase(id) > 0; }

// A comparison refers to its timelines: it goes with either.
bool timeline_close(int id) {
  for (auto it = open_comparisons().begin(); it != open_comparisons().end();) {
    it = it->second->a == id || it->second->b == id ? open_comparisons().erase(it) : std::next(it);
  }
  return open_timelines().erase(id) > 0;
}

// The imbalance command of the Node CLI: args as given (after the command
// name too), the FILE as an input; the report the native CLI prints.
val cli_imbalance(val input, val args) {
  return guarded([&] {
    const ss::CliOptions o = ss::parse_cli(strings_of(args));
    return val(
        ss::imbalance_report(read_input(input, ss::Progress()), ss::imbalance_report_options(o)));
  });
}

// The diff command of the Node CLI: args as given, A and B as inputs;
// {text, regressed}.
val cli_diff(val a, val b, val args) {
  return guarded([&] {
    const ss::CliOptions o = ss::parse_cli(strings_of(args));
    const ss::DiffReport report = ss::diff_report(
        read_input(a, ss::Progress()), read_input(b, ss::Progress()), ss::diff_report_options(o));
    val out = val::object();
    out.set("text", report.text);
    out.set("regressed", report.regressed);
    return out;
  });
}

val parse_cli(val args) {
  return guarded([&] {
    const ss::CliOptions o = ss::parse_cli(strings_of(args));
    val out = val::object();
    out.set("files", array_of(o.files));
    out.set("filepath", o.filepath);
    val ranks = val::array();
    for (std::size_t i = 0; i < o.ranks.size(); ++i) ranks.set(i, static_cast<double>(o.ranks[i]));
    out.set("ranks", o.all_ranks ? val("all") : ranks);  // --ranks all
    out.set("include", o.include ? array_of(*o.include) : val::null());
    out.set("exclude", o.exclude ? array_of(*o.exclude) : val::null());
    out.set("labels", array_of(o.labels));
    out.set("minDuration", o.min_duration ? val(*o.min_duration) : val::null());
    out.set("timeWindow", o.time_window ? val(*o.time_window) : val::null());
    out.set("quiet", o.quiet);
    out.set("help", o.help);
    out.set("version", o.version);
    out.set("command", std::string(ss::cli_command_name(o.command)));
    out.set("writeOutputs", o.write_outputs);
    out.set("port", o.port ? val(*o.port) : val::null());
    out.set("open", o.open);
    return out;
  });
}

// A command's name ("export", "view", ...) as the first argument names it.
ss::CliCommand command_named(const std::string& name) { return ss::cli_command({name}); }
std::string cli_command(val args) {
  return ss::cli_command_name(ss::cli_command(strings_of(args)));
}
std::string cli_help(std::string command) { return ss::cli_help(command_named(command)); }
std::string cli_usage(std::string command) { return ss::cli_usage(command_named(command)); }

// null when the pattern compiles, else the message an export would fail with.
val check_pattern(std::string pattern) {
  try {
    const auto error = ss::check_pattern(pattern);
    return error ? val(*error) : val::null();
  } catch (const std::exception& e) {  // out of memory while compiling
    return val(std::string(e.what()));
  }
}

std::string cli_summary(val written) { return ss::cli_summary(strings_of(written)); }
// A message of the table by its code, as a failure value (for errors the
// wrapper itself finds, e.g. no memory for an input's bytes).
val error_for(std::string code, val args) {
  ss::Msg id;
  if (!ss::message_of_code(code, id)) id = ss::Msg::internal;
  ss::MessageArgs list;
  if (!absent(args)) {
    const val entries = val::global("Object").call<val>("entries", args);
    const unsigned n = entries["length"].as<unsigned>();
    for (unsigned i = 0; i < n; ++i) {
      list.emplace_back(entries[i][0].as<std::string>(),
                        entries[i][1].call<std::string>("toString"));
    }
  }
  if (id == ss::Msg::internal && list.empty()) list.emplace_back("detail", code);
  ss::Error e(id, list);
  if (!absent(args) && !args["file"].isUndefined())
    e.in_file(args["file"].call<std::string>("toString"));
  return failure(e);
}

std::string file_not_found_message(std::string path) {
  return ss::message_text(ss::Msg::file_not_found, {{"path", path}});
}
std::string version() { return ss::VERSION; }
std::string schema_url() { return ss::SCHEMA_URL; }
std::string time_unit() { return ss::TIME_UNIT; }
double ns_per_second() { return static_cast<double>(ss::NS_PER_SECOND); }

}  // namespace

EMSCRIPTEN_BINDINGS(scope_speedscope) {
  emscripten::function("inspect", &inspect);
  emscripten::function("exportSpeedscope", &export_speedscope);
  emscripten::function("exportFiles", &export_files);
  emscripten::function("overview", &overview);
  emscripten::function("suggestNarrowing", &suggest_narrowing);
  emscripten::function("openTimeline", &open_timeline);
  emscripten::function("timelineBars", &timeline_bars);
  emscripten::function("timelineStackAt", &timeline_stack_at);
  emscripten::function("timelineRegions", &timeline_regions);
  emscripten::function("timelineBusy", &timeline_busy);
  emscripten::function("timelineExportSpeedscope", &timeline_export_speedscope);
  emscripten::function("timelineWindowWithin", &timeline_window_within);
  emscripten::function("timelineImbalance", &timeline_imbalance);
  emscripten::function("timelineAlignedCalls", &timeline_aligned_calls);
  emscripten::function("timelineAlignedGrid", &timeline_aligned_grid);
  emscripten::function("timelineLateness", &timeline_lateness);
  emscripten::function("timelineClose", &timeline_close);
  emscripten::function("cliImbalance", &cli_imbalance);
  emscripten::function("cliDiff", &cli_diff);
  emscripten::function("compareOpen", &compare_open);
  emscripten::function("compareAligned", &compare_aligned);
  emscripten::function("compareRegionsIn", &compare_regions_in);
  emscripten::function("compareClose", &compare_close);
  emscripten::function("parseCli", &parse_cli);
  emscripten::function("cliCommand", &cli_command);
  emscripten::function("cliHelp", &cli_help);
  emscripten::function("cliUsage", &cli_usage);
  emscripten::function("cliSummary", &cli_summary);
  emscripten::function("fileNotFoundMessage", &file_not_found_message);
  emscripten::function("checkPattern", &check_pattern);
  emscripten::function("errorFor", &error_for);
  emscripten::function("version", &version);
  emscripten::function("schemaUrl", &schema_url);
  emscripten::function("timeUnit", &time_unit);
  emscripten::function("nsPerSecond", &ns_per_second);
}
