// export: what a selection (ranks x regions the filters keep) holds over
// time and by duration (overview_run), and the narrowing that brings it
// within a budget of events (suggest_narrowing): what the page offers when a
// run is too large for the viewer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/run.hpp"
#include "select/selection.hpp"
#include "timeline/timeline.hpp"

namespace scope_speedscope {

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
Overview overview_run(const Run& run, const std::vector<int64_t>& ranks, const Patterns& include,
                      const Patterns& exclude, std::size_t bins);
// The same of an open timeline's calls (its ranks, include and exclude), from
// its columns: the file is not read again.
Overview overview_timeline(const Timeline& tl, std::size_t bins);

// overview_timeline a slice at a time, so that an engine answers other
// requests between the slices (timeline-overview's slices): what the bins
// need is found from each depth's first and last call at once, then step()
// bins the calls. The timeline must outlive it.
class TimelineOverview {
 public:
  TimelineOverview(const Timeline& tl, std::size_t bins);
  // Bins up to `calls` more calls; true once every call is in (then
  // overview() is complete).
  bool step(uint64_t calls);
  uint64_t done() const { return done_; }
  uint64_t total() const { return overview_.calls; }
  const Overview& overview() const { return overview_; }

 private:
  const Timeline& tl_;
  Overview overview_;
  std::vector<int64_t> thresholds_;
  std::vector<std::pair<std::size_t, uint32_t>> depths_;  // (lane, depth) with calls, to bin
  std::size_t at_depth_ = 0, at_call_ = 0;
  uint64_t done_ = 0;
  bool closed_ = false;
};

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
