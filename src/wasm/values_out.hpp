// wasm: values out. Core answers as JavaScript values: arrays, the
// overview's suggestion, typed-array views of the module's memory (valid
// until the next call: the package copies them) and fresh typed arrays,
// the rows of a comparison as diff --json prints them.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "boundary.hpp"
#include "compare/compare.hpp"
#include "export/overview.hpp"
#include "write/speedscope_format.hpp"

namespace scope_speedscope::wasm {

template <class T>
val array_of(const std::vector<T>& items) {
  val out = val::array();
  for (std::size_t i = 0; i < items.size(); ++i) out.set(i, val(items[i]));
  return out;
}

inline val numbers(const std::vector<uint64_t>& v) {
  val out = val::array();
  for (std::size_t i = 0; i < v.size(); ++i) out.set(i, static_cast<double>(v[i]));
  return out;
}

inline val suggestion_value(const ss::Suggestion& s) {
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

inline val doubles_of(const std::vector<double>& values) {
  return val(emscripten::typed_memory_view(values.size(), values.data()));
}

// An aligned answer's ranks, their counts of the region and the common count.
inline void set_rank_counts(val& out, const std::vector<int64_t>& ranks,
                            const std::vector<uint64_t>& counts, uint64_t common) {
  out.set("ranks", array_of(std::vector<double>(ranks.begin(), ranks.end())));
  out.set("counts", array_of(std::vector<double>(counts.begin(), counts.end())));
  out.set("common", static_cast<double>(common));
}

// A fresh Float64Array of the values (the page's worker transfers it).
template <class T>
val float64_copy(const std::vector<T>& values) {
  std::vector<double> d(values.begin(), values.end());
  val array = val::global("Float64Array").new_(d.size());
  array.call<void>("set", val(emscripten::typed_memory_view(d.size(), d.data())));
  return array;
}

// Rows as diff --json prints them; with_total_pct adds deltaTotalPct (the
// rows of a window, which the page's table shows by total or self).
inline val rows_value(const std::vector<ss::RegionDelta>& rows, bool with_total_pct = false) {
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

// An overview as the package gives it ({calls, events, firstStart, lastEnd,
// time, durations}), with the suggestion for options.maxEvents when given.
inline val overview_value(const ss::Overview& o, const val& options) {
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
  if (!options["maxEvents"].isUndefined() && !options["maxEvents"].isNull()) {
    out.set("suggestion", suggestion_value(ss::suggest_narrowing(
                              o, static_cast<uint64_t>(options["maxEvents"].as<double>()))));
  }
  return out;
}

// A timeline's frame sources: per frame {file, line, text}, each null when
// unknown (an empty array when the run was read without its sources).
inline val frame_sources_of(const std::vector<ss::SourceLocation>& sources) {
  val out = val::array();
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const ss::SourceLocation& s = sources[i];
    val source = val::object();
    source.set("file", s.file.empty() ? val::null() : val(s.file));
    source.set("line", s.line >= 0 ? val(static_cast<double>(s.line)) : val::null());
    source.set("text", s.text.empty() ? val::null() : val(s.text));
    out.set(i, source);
  }
  return out;
}

}  // namespace scope_speedscope::wasm
