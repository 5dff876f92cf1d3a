// timeline: what the Ranks panel draws from one region's aligned calls
// (Timeline::aligned_calls): the rank × step grid of its heatmap at a given
// number of columns, and each rank's mean lateness, so the page receives a
// few hundred columns, never every call. Each is one rule, fed either an
// answer's columns or a timeline's walk step by step (visit_aligned: over
// a whole job no entry column is written); the two give the same bits.
#pragma once

#include <cstdint>
#include <vector>

#include "timeline/timeline.hpp"

namespace scope_speedscope {

// excess / median duration (+0.5: a call 50 % longer than its step's
// median); ±infinity for an excess over a median of 0, 0 for none.
double stray_share(double excess, double median);

// A column holds one step k, or `group` consecutive steps when there are
// more steps than columns (group = ceil(steps / max_columns)); the cell
// (rank r, column c) shows the step of its column whose call on rank r
// strays furthest from that step's median duration (|stray_share|; the
// first such step on ties).
struct AlignedGrid {
  uint32_t rows = 0;  // the answer's ranks
  uint64_t cols = 0, group = 1;
  std::vector<int64_t> ranks;
  std::vector<uint64_t> counts;
  uint64_t common = 0;
  std::vector<uint64_t> k_first, k_last;  // per column: its first and last step
  // Per cell (r * cols + c): the step shown, its call's excess and duration,
  // and the earliest start and latest end of that step over every rank.
  std::vector<uint64_t> k;
  std::vector<double> excess, duration;
  std::vector<int64_t> span_start, span_end;
};
// Throws Error(bad_argument) for max_columns 0.
AlignedGrid aligned_grid(const Timeline::AlignedCalls& a, uint64_t max_columns);
// The same of tl.aligned_calls(frame, start, end), from its walk; throws as
// that does, then as the above.
AlignedGrid aligned_grid(const Timeline& tl, int32_t frame, int64_t start, int64_t end,
                         uint64_t max_columns);

// Per rank of the answer, the mean of its entries' lateness (start − the
// step's median start), NaN for every rank when the answer has no step.
struct RankLateness {
  std::vector<int64_t> ranks;
  std::vector<double> lateness;
};
RankLateness mean_lateness(const Timeline::AlignedCalls& a);
// The same of tl.aligned_calls(frame, start, end), from its walk.
RankLateness mean_lateness(const Timeline& tl, int32_t frame, int64_t start, int64_t end);

}  // namespace scope_speedscope
