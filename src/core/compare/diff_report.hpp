// compare: the `diff` command's report (native and Node CLIs alike): what
// got slower from run A to run B, region by region (compare_regions), as a
// table or as JSON, and whether any region grew past a limit (for CI).
#pragma once

#include <optional>
#include <string>

#include "compare/compare.hpp"
#include "model/run.hpp"

namespace scope_speedscope {

enum class DiffMetric { self, total };

struct DiffReportOptions {
  CompareOptions selection;
  bool json = false;
  std::optional<double> max_regression_pct;  // --max-regression P
  DiffMetric metric = DiffMetric::self;      // --metric
  // --source: each region's file:line and text, B's (A's for a region B
  // lacks): a last column; JSON "source": {"file", "line", "text"}, null
  // when unknown. The runs must have been read with their sources.
  bool source = false;
};

struct DiffReport {
  std::string text;
  bool regressed = false;  // some region's metric grew by more than max_regression_pct
};

// The table: a heading naming both files and the ranks, the 30 rows with the
// largest growth of self time (aligned columns, times in the unit that
// fits), then, with max_regression_pct, the regions that grew past it. A
// region whose metric was 0 in A and is not in B counts as grown past any
// limit. JSON: {"regions": [{"name", "a": {"calls", "total", "self"}, "b":
// {...}, "deltaTotal", "deltaSelf", "deltaSelfPct"}]} (times in ns,
// deltaSelfPct null when A's self is 0), and "regressions" (the names)
// with max_regression_pct.
DiffReport diff_report(const Run& a, const Run& b, const DiffReportOptions& options);

}  // namespace scope_speedscope
