// The WebAssembly face of the core (embind). Emscripten types stay in this
// file. Every entry point returns {ok: true, value} or {ok: false, kind,
// message}; src/js/index.js turns the latter into a ScopeSpeedscopeError in
// one place, and no C++ exception ever unwinds into JavaScript.
//
// Inputs are {name, ptr, size} (bytes the wrapper copied into the heap) or
// {name, path} (a file in Emscripten's file system, e.g. a WORKERFS mount).
// A sink is a JS object {open(path), write(Uint8Array view), close(),
// commit(), abort(), progress(phase, done, total)}; the view is only valid
// during the call. A sink method never throws: it returns a message string
// when it failed (a disk error in the Node CLI, say) and undefined otherwise,
// so that the C++ side unwinds normally.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <new>
#include <string>
#include <vector>

#include "cli.hpp"
#include "error.hpp"
#include "export.hpp"
#include "h5_reader.hpp"
#include "inspect.hpp"
#include "pattern.hpp"
#include "speedscope_format.hpp"

using emscripten::val;
namespace ss = scope_speedscope;

namespace {

val ok(val value) {
  val result = val::object();
  result.set("ok", true);
  result.set("value", value);
  return result;
}

val failure(const std::string& kind, const std::string& message) {
  val result = val::object();
  result.set("ok", false);
  result.set("kind", kind);
  result.set("message", message);
  return result;
}

// The one place where C++ errors become values for JavaScript.
template <class Fn>
val guarded(Fn&& fn) {
  try {
    return ok(fn());
  } catch (const ss::Error& e) {
    return failure(e.kind_name(), e.what());
  } catch (const std::bad_alloc&) {
    return failure("MemoryError", "out of memory");
  } catch (const std::exception& e) {
    return failure("Error", e.what());
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

ss::Run read_input(const val& input, const ss::Progress& progress) {
  const std::string name = input["name"].as<std::string>();
  if (!input["path"].isUndefined()) {
    return ss::read_run(input["path"].as<std::string>(), progress, name);
  }
  const auto ptr = static_cast<uintptr_t>(input["ptr"].as<double>());
  const auto size = static_cast<std::size_t>(input["size"].as<double>());
  return ss::read_run_from_memory(reinterpret_cast<const void*>(ptr), size, name, progress);
}

// Calls a sink method; a returned string is the message of a failure.
template <class... Args>
void call_sink(const val& sink, const char* method, Args&&... args) {
  const val result = sink.call<val>(method, std::forward<Args>(args)...);
  if (result.isString()) throw ss::Error(ss::ErrorKind::io, result.as<std::string>());
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
    const ss::Run run = read_input(input, {});
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
      for (std::size_t k = 0; k < r.ranks.size(); ++k) ranks.set(k, static_cast<double>(r.ranks[k]));
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

// inputs: [{name, ptr, size} | {name, path}], options: {filepath, ranks,
// include, exclude, labels, flushSize}, sink: see above.
val export_speedscope(val inputs, val options, val sink) {
  return guarded([&] {
    const ss::Progress progress = progress_of(sink);
    std::vector<ss::Run> runs;
    const unsigned n = inputs["length"].as<unsigned>();
    runs.reserve(n);
    const std::vector<std::string> labels =
        options["labels"].isUndefined() || options["labels"].isNull()
            ? std::vector<std::string>{}
            : strings_of(options["labels"]);
    for (unsigned i = 0; i < n; ++i) {
      runs.push_back(read_input(inputs[i], progress));
      if (i < labels.size()) runs.back().label = labels[i];
    }
    ss::ExportOptions opts;
    const val ranks = options["ranks"];
    if (!ranks.isUndefined() && !ranks.isNull()) {
      std::vector<int64_t> list;
      const unsigned m = ranks["length"].as<unsigned>();
      for (unsigned i = 0; i < m; ++i) list.push_back(static_cast<int64_t>(ranks[i].as<double>()));
      opts.ranks = list;
    }
    opts.include = optional_strings(options["include"]);
    opts.exclude = optional_strings(options["exclude"]);
    opts.verbose = false;
    opts.progress = progress;
    if (!options["flushSize"].isUndefined()) {
      opts.flush_size = static_cast<std::size_t>(options["flushSize"].as<double>());
    }
    const std::string filepath = options["filepath"].isUndefined()
                                     ? std::string("profile.speedscope.json")
                                     : options["filepath"].as<std::string>();
    JsOutputTarget target(sink);
    return array_of(ss::export_speedscope(runs, filepath, opts, target));
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
    out.set("ranks", ranks);
    out.set("include", o.include ? array_of(*o.include) : val::null());
    out.set("exclude", o.exclude ? array_of(*o.exclude) : val::null());
    out.set("labels", array_of(o.labels));
    out.set("quiet", o.quiet);
    out.set("help", o.help);
    out.set("version", o.version);
    return out;
  });
}

// null when the pattern compiles, else the message an export would fail with.
val check_pattern(std::string pattern) {
  try {
    const auto error = ss::check_pattern(pattern);
    return error ? val(*error) : val::null();
  } catch (const std::exception& e) {  // out of memory while compiling
    return val(std::string(e.what()));
  }
}

std::string converter_stopped_message(std::string name, std::string what) {
  return ss::messages::converter_stopped(name, what);
}

std::string cli_summary(val written) { return ss::cli_summary(strings_of(written)); }
std::string file_not_found_message(std::string path) { return ss::messages::file_not_found(path); }
std::string version() { return ss::VERSION; }
std::string schema_url() { return ss::SCHEMA_URL; }
std::string time_unit() { return ss::TIME_UNIT; }
double ns_per_second() { return static_cast<double>(ss::NS_PER_SECOND); }

}  // namespace

EMSCRIPTEN_BINDINGS(scope_speedscope) {
  emscripten::function("inspect", &inspect);
  emscripten::function("exportSpeedscope", &export_speedscope);
  emscripten::function("parseCli", &parse_cli);
  emscripten::function("cliHelp", &ss::cli_help);
  emscripten::function("cliUsage", &ss::cli_usage);
  emscripten::function("cliSummary", &cli_summary);
  emscripten::function("fileNotFoundMessage", &file_not_found_message);
  emscripten::function("checkPattern", &check_pattern);
  emscripten::function("converterStoppedMessage", &converter_stopped_message);
  emscripten::function("version", &version);
  emscripten::function("schemaUrl", &schema_url);
  emscripten::function("timeUnit", &time_unit);
  emscripten::function("nsPerSecond", &ns_per_second);
}
