// compare: two runs of the same code, region by region (ours; scope-profiler
// compares aggregates in its own diff). Each run's selection is
// reconstructed as the export does (the same ranks, filters and errors);
// per region name, its calls, total time (the sum of its calls' durations)
// and self time (each call's duration less its direct children's), in
// integer ns, as scope-profiler's inspect and exclusive_totals count them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/run.hpp"
#include "select/selection.hpp"

namespace scope_speedscope {

struct CompareOptions {
  std::optional<std::vector<int64_t>> ranks;  // nullopt: [0]; each rank counted once
  bool all_ranks = false;                     // every rank of each run instead
  Patterns include;                           // nullopt: no filter
  Patterns exclude;
};

struct RegionTotals {
  uint64_t calls = 0;
  int64_t total_ns = 0;  // sums saturate at the int64 range
  int64_t self_ns = 0;
};

struct RegionDelta {
  std::string name;
  RegionTotals a, b;
  int64_t delta_total_ns = 0;  // b - a (saturating)
  int64_t delta_self_ns = 0;
  std::optional<double> delta_self_pct;   // 100 * (b.self - a.self) / a.self; none when a.self is 0
  std::optional<double> delta_total_pct;  // 100 * (b.total - a.total) / a.total; none when 0
};

// One row per region name with a call in either selection, sorted by
// delta_self_ns descending (then by name). Errors as the export's for each
// run (invalid_rank, nesting, ...; blaming its file); no_regions_matched
// when the filters keep no region of either run.
std::vector<RegionDelta> compare_regions(const Run& a, const Run& b, const CompareOptions& options);

// Per region of `run` (index into run.regions), its totals over the selection.
std::vector<RegionTotals> region_totals(const Run& run, const CompareOptions& options);

// The rows from each run's totals by region name (names with no call left
// out): the one rule compare_regions and the timelines' comparison share.
using NamedTotals = std::vector<std::pair<std::string, RegionTotals>>;
std::vector<RegionDelta> compare_totals(const NamedTotals& a, const NamedTotals& b);

}  // namespace scope_speedscope
