// wasm: handles. Open timelines and comparisons live here, by id, until
// they are closed; each keeps the buffers of its last answer, which
// JavaScript copies at once (the views handed out are only valid until the
// next call).
#pragma once

#include <algorithm>
#include <map>
#include <memory>
#include <vector>

#include "boundary.hpp"
#include "compare/aligned_runs.hpp"
#include "options_in.hpp"
#include "timeline/timeline.hpp"

namespace scope_speedscope::wasm {

struct OpenTimeline {
  ss::Timeline timeline;
  ss::Timeline::Bars bars;
  std::vector<double> start, end;             // bars' times as JavaScript numbers
  ss::Timeline::AlignedCalls aligned_answer;  // alignedCalls' last answer, its memory reused
  bool rest_read = false;  // the ranks it did not read were read for an export, without damage
};

inline std::map<int, std::unique_ptr<OpenTimeline>>& open_timelines() {
  static std::map<int, std::unique_ptr<OpenTimeline>> all;
  return all;
}

inline OpenTimeline& timeline_of(int id) {
  const auto it = open_timelines().find(id);
  if (it == open_timelines().end()) {
    throw ss::Error(ss::Msg::bad_argument, {{"detail", "the timeline is closed"}});
  }
  return *it->second;
}

// An aligned query's frame and window from JavaScript numbers.
struct AlignedQuery {
  int32_t frame;
  int64_t start, end;
};
inline AlignedQuery aligned_query(double frame, double start, double end) {
  const NsWindow window = ns_window(start, end);
  const double limit = 2147483647.0;
  return {static_cast<int32_t>(std::max(-1.0, std::min(frame, limit))), window.start, window.end};
}

// aligned_calls of a query into the timeline's last answer (its memory reused).
inline ss::Timeline::AlignedCalls& aligned_answer(OpenTimeline& t, double frame, double start,
                                                  double end) {
  const AlignedQuery q = aligned_query(frame, start, end);
  t.timeline.aligned_calls(q.frame, q.start, q.end, t.aligned_answer);
  return t.aligned_answer;
}

struct OpenComparison {
  int a, b;  // the timelines' ids
  std::unique_ptr<ss::AlignedRuns> runs;
  ss::AlignedRuns::Bars bars;
  std::vector<double> start, end;  // bars' times as JavaScript numbers
};

inline std::map<int, std::unique_ptr<OpenComparison>>& open_comparisons() {
  static std::map<int, std::unique_ptr<OpenComparison>> comparisons;
  return comparisons;
}

inline OpenComparison& comparison_of(int id) {
  const auto it = open_comparisons().find(id);
  if (it == open_comparisons().end()) {
    throw ss::Error(ss::Msg::bad_argument, {{"detail", "the comparison is closed"}});
  }
  return *it->second;
}

}  // namespace scope_speedscope::wasm
