// wasm: options in. JavaScript options as the core's values: lists of
// strings and ranks, times and durations in the CLI's grammar, a
// narrowing, the output options of an export, a query's window in whole ns,
// lanes and widths (src/js/options.js has checked their types; the core
// judges their values, in its words).
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "boundary.hpp"
#include "export/export.hpp"
#include "export/narrow.hpp"
#include "write/speedscope_format.hpp"

namespace scope_speedscope::wasm {

inline std::vector<std::string> strings_of(const val& array) {
  std::vector<std::string> out;
  const unsigned n = array["length"].as<unsigned>();
  out.reserve(n);
  for (unsigned i = 0; i < n; ++i) out.push_back(array[i].as<std::string>());
  return out;
}

inline std::optional<std::vector<std::string>> optional_strings(const val& v) {
  if (v.isUndefined() || v.isNull()) return std::nullopt;
  return strings_of(v);
}

inline bool absent(const val& v) { return v.isUndefined() || v.isNull(); }

// A time or duration option: a number of seconds, or text in the CLI's
// grammar (a wrong type or value fails in the core's words).
inline std::string time_text(const val& v) {
  if (v.isNumber()) {
    const double x = v.as<double>();
    const std::string text = ss::seconds_text(x);
    return text.empty() ? ss::python_float_repr(x) : text;
  }
  if (v.isString()) return v.as<std::string>();
  return "<not a number or a string>";
}

inline std::vector<int64_t> ranks_of(const val& ranks) {
  std::vector<int64_t> list;
  const unsigned m = ranks["length"].as<unsigned>();
  for (unsigned i = 0; i < m; ++i) list.push_back(static_cast<int64_t>(ranks[i].as<double>()));
  return list;
}

// options.minDuration: seconds or "2ms"; options.timeWindow: [start, end]
// (seconds, text, or null for an open end) or "START:END".
inline ss::Narrowing narrowing_of(const val& options) {
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

inline std::vector<uint64_t> counts_of(const val& array) {
  std::vector<uint64_t> out;
  const unsigned n = array["length"].as<unsigned>();
  out.reserve(n);
  for (unsigned i = 0; i < n; ++i) out.push_back(static_cast<uint64_t>(array[i].as<double>()));
  return out;
}

// What every export takes beside its selection: the narrowing, progress,
// flush size (options: {minDuration, timeWindow, flushSize, filepath});
// returns the output name.
inline std::string output_options_of(const val& options, const ss::Progress& progress,
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

// A time in ns from the origin (a JavaScript number) as int64, rounded
// down (or up), within +-2^62.
inline int64_t ns_of(double t, bool up) {
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
inline NsWindow ns_window(double start, double end) {
  return {ns_of(start, false), ns_of(end, end > start)};
}

// Lanes and widths come as whole numbers from 0 (src/js/options.js); the
// timeline judges the values. One beyond its parameter's range reaches it as
// the largest value the parameter holds, which it refuses all the same.
inline std::size_t lane_of(double lane) {
  constexpr auto most = static_cast<double>(SIZE_MAX);
  return lane >= most ? SIZE_MAX : static_cast<std::size_t>(lane);
}
inline uint32_t width_of(double width) {
  if (!(width > 0)) return 0;
  return width >= 4294967295.0 ? UINT32_MAX : static_cast<uint32_t>(width);
}

}  // namespace scope_speedscope::wasm
