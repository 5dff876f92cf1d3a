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

#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/run.hpp"
#include "text/time_text.hpp"

namespace scope_speedscope {

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

}  // namespace scope_speedscope
