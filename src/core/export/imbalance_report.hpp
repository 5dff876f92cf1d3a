// export: the `imbalance` command's report (native and Node CLIs alike):
// per region, how its covered time spreads over the selected ranks in a
// time window (Timeline::imbalance), as a table or as JSON.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "export/narrow.hpp"
#include "model/run.hpp"
#include "select/selection.hpp"

namespace scope_speedscope {

struct ImbalanceReportOptions {
  std::optional<std::vector<int64_t>> ranks;  // nullopt: every rank of the run
  Patterns include;
  Patterns exclude;
  Narrowing narrowing;  // its time window (seconds from the run's first call); nothing else
  bool json = false;
  // --source: each region's file:line and text (a last column; JSON:
  // "source": {"file", "line", "text"}, null when unknown). The run must
  // have been read with its sources (ReadPlan::sources).
  bool source = false;
};

// The table: a heading line naming the file, the ranks and the window, then
// one row per region (max - mean descending). JSON: {"file", "ranks",
// "window": {"start", "end"} (ns from the run's first call; null for an
// open end), "regions": [{"frame", "name", "ranks", "min", "median",
// "mean", "max", "imbalance", "slowestRank"}]}, times in ns. Errors as
// open_timeline's (no_regions_matched, invalid_rank, no_calls_recorded).
// The run's event columns are taken over (see open_timeline(Run&&)).
std::string imbalance_report(Run&& run, const ImbalanceReportOptions& options);

}  // namespace scope_speedscope
