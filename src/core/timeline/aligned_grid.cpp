// timeline: the heatmap's grid and the ranks' lateness (see aligned_grid.hpp).
#include "timeline/aligned_grid.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "timeline/checks.hpp"

namespace scope_speedscope {

double stray_share(double excess, double median) {
  if (median > 0) return excess / median;
  constexpr double inf = std::numeric_limits<double>::infinity();
  return excess > 0 ? inf : excess < 0 ? -inf : 0.0;
}

AlignedGrid aligned_grid(const Timeline::AlignedCalls& a, uint64_t max_columns) {
  if (max_columns == 0) detail::bad_argument("alignedGrid: maxColumns must be at least 1");
  AlignedGrid g;
  g.rows = static_cast<uint32_t>(a.ranks.size());
  g.ranks = a.ranks;
  g.counts = a.counts;
  g.common = a.common;
  const uint64_t rows = g.rows, steps = rows ? a.size() / rows : 0;
  g.group = steps > max_columns ? (steps + max_columns - 1) / max_columns : 1;
  g.cols = (steps + g.group - 1) / g.group;
  const std::size_t cells = static_cast<std::size_t>(rows * g.cols);
  g.k_first.assign(g.cols, 0);
  g.k_last.assign(g.cols, 0);
  g.k.assign(cells, 0);
  g.excess.assign(cells, 0);
  g.duration.assign(cells, 0);
  g.span_start.assign(cells, 0);
  g.span_end.assign(cells, 0);
  std::vector<double> stray(cells, 0);  // |share| of the call each cell shows
  for (uint64_t j = 0; j < steps; ++j) {
    const uint64_t c = j / g.group, base = j * rows;
    int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
    for (uint64_t r = 0; r < rows; ++r) {
      lo = std::min(lo, a.start_ns[base + r]);
      hi = std::max(hi, a.end_ns[base + r]);
    }
    const bool first_of_column = j % g.group == 0;
    if (first_of_column) g.k_first[c] = a.k[base];
    g.k_last[c] = a.k[base];
    for (uint64_t r = 0; r < rows; ++r) {
      const std::size_t i = base + r, cell = r * g.cols + c;
      const double duration = static_cast<double>(a.end_ns[i] - a.start_ns[i]);
      const double excess = a.excess_ns[i];
      const double strays = std::fabs(stray_share(excess, duration - excess));
      if (!first_of_column && strays <= stray[cell]) continue;
      stray[cell] = strays;
      g.k[cell] = a.k[i];
      g.excess[cell] = excess;
      g.duration[cell] = duration;
      g.span_start[cell] = lo;
      g.span_end[cell] = hi;
    }
  }
  return g;
}

RankLateness mean_lateness(const Timeline::AlignedCalls& a) {
  RankLateness out;
  out.ranks = a.ranks;
  const std::size_t rows = a.ranks.size(), steps = rows ? a.size() / rows : 0;
  std::vector<double> sum(rows, 0.0);  // entries go step after step, a rank each in order
  for (std::size_t base = 0; base < a.size(); base += rows) {
    for (std::size_t r = 0; r < rows; ++r) sum[r] += a.lateness_ns[base + r];
  }
  out.lateness.resize(rows);
  for (std::size_t r = 0; r < rows; ++r) {
    out.lateness[r] =
        steps ? sum[r] / static_cast<double>(steps) : std::numeric_limits<double>::quiet_NaN();
  }
  return out;
}

}  // namespace scope_speedscope
