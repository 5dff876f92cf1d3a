// narrow: keep only part of a run (ours; scope-profiler has no such option).
//
//   min-duration D        drop every call shorter than D;
//   time-window START:END keep the calls that overlap [START, END), seconds
//                         from the run's first call, clipped to the window.
//
// The rule: exporting a run narrowed this way gives exactly the bytes that
// export_speedscope writes for a file holding only the kept calls (clipped),
// where a region that keeps no call on a rank has no row for that rank.
// Narrowing is per call, so it is the same for every rank and lane; the
// window's origin is the earliest start over the whole file (every rank,
// region and lane, whatever the selection), so a window names the same
// instants whatever ranks and filters are chosen.
//
// Also here: what a selection holds over time and by duration (overview), and
// the suggested narrowing that fits a budget of events (suggest_narrowing).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/run.hpp"

namespace scope_speedscope {

// A point in time or a duration as text: a decimal number of seconds (1e-4,
// 0.5, 2, .25, 3e+2) or a number with a unit (500ns, 100us, 100µs, 2ms, 1s).
// No sign, no spaces inside. Returns nanoseconds rounded down (`round_up`
// false) or up, saturating at INT64_MAX; nullopt when the text is not one.
std::optional<int64_t> parse_time_ns(std::string_view text, bool round_up);
// The shortest decimal text of a double number of seconds (JavaScript's
// numbers), in the same grammar ("1e-07", "0.5"); empty for NaN, infinite or
// negative values.
std::string seconds_text(double seconds);

// Nanoseconds as exact text: "2ms", "1.5us", "1.25ns", "3.2s" (the largest
// unit the value reaches); as seconds: "2.5", "0.0015", "0".
std::string format_duration_ns(int64_t ns);
std::string format_seconds_ns(int64_t ns);

struct Narrowing {
  // min-duration: keep calls with end - start >= min_duration_ns.
  std::optional<int64_t> min_duration_ns;
  std::string min_duration_text;  // as given, for messages
  // time-window: [start, end) in ns from the run's origin; nullopt = open.
  bool window = false;
  std::optional<int64_t> window_start_ns;
  std::optional<int64_t> window_end_ns;
  std::string window_text;  // "START:END" as given, for messages

  bool active() const { return min_duration_ns.has_value() || window; }
};

// The option values, checked. `option` names the option in messages
// ("argument --min-duration" on the command line, "minDuration" in the API);
// errors are Error(usage) on the command line (`usage` true), else
// Error(value), with field "minDuration" / "timeWindow".
void set_min_duration(Narrowing& n, std::string_view text, const std::string& option, bool usage);
// "START:END", ":END", "START:" (open ends); ":" alone sets no window.
void set_time_window(Narrowing& n, std::string_view text, const std::string& option, bool usage);
// The same from two ends, each empty for an open end.
void set_time_window(Narrowing& n, std::string_view start, std::string_view end,
                     const std::string& option, bool usage);

// The earliest start over every call of the run (all regions, ranks and
// lanes), in ns; nullopt when the run has no call.
std::optional<int64_t> run_origin_ns(const Run& run);

// Whether a call [start, end] is kept, and its clipped times. A call covers
// [start, end) when it lasts, the instant [start, start + 1) when it does not
// (so a zero-length call at the window's start is in, one at its end is out).
struct Clip {
  bool min_duration = false;
  int64_t min_ns = 0;
  int64_t lo = INT64_MIN;  // window [lo, hi), absolute ns
  int64_t hi = INT64_MAX;
  bool window = false;
  bool keep(int64_t start, int64_t end) const;
  int64_t clip_start(int64_t start) const { return start < lo ? lo : start; }
  int64_t clip_end(int64_t end) const { return end > hi ? hi : end; }
};
Clip clip_of(const Narrowing& n, std::optional<int64_t> origin_ns);

// A copy of `run` holding only the kept (clipped) calls of `regions` (indices
// into run.regions) on every rank; slices that keep no call are left out.
// Regions keep their indices; other regions have no slices.
Run narrow_run(const Run& run, const std::vector<uint32_t>& regions, const Narrowing& narrowing);

// Calls of `regions` on `ranks` (each rank once), before narrowing.
uint64_t selection_calls(const Run& run, const std::vector<uint32_t>& regions,
                         const std::vector<int64_t>& ranks);

// ---- overview ------------------------------------------------------------------

// Duration bins: edge j is R10[j % 10] * 10^(j / 10) ns (R10 = 1, 1.25, 1.6,
// 2, 2.5, 3.15, 4, 5, 6.3, 8; ten a decade from 1 ns to 8e18 ns).
constexpr int kDurationEdges = 190;
// Edge j as the smallest whole number of ns that reaches it (a call lasts at
// least edge j iff its duration in ns >= this).
int64_t duration_edge_ns(int j);
// Edge j as text: "1ns", "1.25ns", "31.5us", "2ms".
std::string duration_edge_text(int j);
double duration_edge_seconds(int j);

// What a selection (ranks x regions kept by the filters) holds, from two
// passes over its columns.
struct Overview {
  uint64_t calls = 0;
  int64_t origin_ns = 0;       // absolute; the run's first call (0 when the run has none)
  int64_t first_start_ns = 0;  // relative to the origin (0 when no calls)
  int64_t last_end_ns = 0;     // relative; the latest end (a zero-length call counts 1 ns)
  // Time bins [first_edge + i * width, first_edge + (i + 1) * width), ns
  // relative to the origin; width 1, 2 or 5 times a power of ten.
  int64_t first_edge_ns = 0;
  int64_t bin_width_ns = 0;
  std::vector<uint64_t> starts;  // calls starting in bin i
  std::vector<uint64_t> ends;    // calls whose covered time ends in bin i (see Clip)
  // Durations: counts[0] calls shorter than edge 0 (1 ns), counts[j + 1] calls
  // in [edge j, edge j + 1); trailing empty bins left out.
  std::vector<uint64_t> duration_counts;

  // Calls the window [bin a's start, bin b's start) keeps (0 <= a < b <= bins).
  uint64_t calls_in_window(std::size_t a, std::size_t b) const;
  // Calls --min-duration <edge j> keeps.
  uint64_t calls_at_least(int j) const;
};

// `bins`: at most this many time bins (at least 1). Throws like the export
// for a bad filter, a negative or missing rank (Invalid rank requested).
// An empty selection gives calls == 0 and no bins.
Overview overview_run(const Run& run, const std::vector<int64_t>& ranks,
                      const std::optional<std::vector<std::string>>& include,
                      const std::optional<std::vector<std::string>>& exclude, std::size_t bins);

// A narrowing that brings the selection within `max_events` (two a call).
struct Suggestion {
  uint64_t calls = 0;
  uint64_t max_calls = 0;
  bool fits = false;  // no narrowing needed
  // The smallest duration edge whose min-duration keeps at most max_calls
  // calls, and at least one.
  bool has_min_duration = false;
  int min_duration_edge = 0;
  std::string min_duration_text;  // "31.5us"
  uint64_t min_duration_calls = 0;
  // The longest bin-aligned window keeping at most max_calls calls, and at
  // least one (the earliest of equally long ones).
  bool has_window = false;
  std::size_t window_first_bin = 0, window_end_bin = 0;
  int64_t window_start_ns = 0, window_end_ns = 0;  // relative to the origin
  std::string window_text;                         // "0.25:0.75" (seconds)
  uint64_t window_calls = 0;
  // The one to offer first: the one that keeps more calls (a minimum
  // duration that keeps a handful of long calls is no look at the run);
  // the minimum duration when both keep as many (it keeps the whole run's
  // time span). none when neither exists.
  enum class Pick { none, min_duration, window } preferred = Pick::none;
};
Suggestion suggest_narrowing(const Overview& overview, uint64_t max_events);

}  // namespace scope_speedscope
