// timeline: the heatmap's grid and the ranks' lateness (see aligned_grid.hpp).
#include "timeline/aligned_grid.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "timeline/checks.hpp"

namespace scope_speedscope {

double stray_share(double excess, double median) {
  if (median > 0) return excess / median;
  constexpr double inf = std::numeric_limits<double>::infinity();
  return excess > 0 ? inf : excess < 0 ? -inf : 0.0;
}

namespace {

// An answer's steps, as visit_aligned gives them: blocks of consecutive k.
void feed(const Timeline::AlignedCalls& a, Timeline::AlignedVisitor& v) {
  const std::size_t rows = a.ranks.size(), steps = rows ? a.size() / rows : 0;
  v.begin(Timeline::AlignedHead{a.ranks, a.counts, a.common, steps});
  for (std::size_t j = 0; j < steps;) {
    std::size_t n = 1;
    while (j + n < steps && a.k[(j + n) * rows] == a.k[j * rows] + n) ++n;
    const std::size_t base = j * rows;
    v.steps(a.k[base], n, &a.start_ns[base], &a.end_ns[base], &a.lateness_ns[base],
            &a.excess_ns[base]);
    j += n;
  }
}

// The grid, fed either step by step (an answer's columns) or rank by rank
// (a timeline's walk): each cell sees its rank's steps in order either way,
// so the two give the same bits.
class GridBuilder final : public Timeline::AlignedVisitor, public Timeline::RankVisitor {
 public:
  explicit GridBuilder(uint64_t max_columns) : max_columns_(max_columns) {}
  void begin(const Timeline::AlignedHead& head) override {
    if (max_columns_ == 0) detail::bad_argument("alignedGrid: maxColumns must be at least 1");
    g_.rows = static_cast<uint32_t>(head.ranks.size());
    g_.ranks = head.ranks;
    g_.counts = head.counts;
    g_.common = head.common;
    const uint64_t steps = g_.rows ? head.steps : 0;
    g_.group = steps > max_columns_ ? (steps + max_columns_ - 1) / max_columns_ : 1;
    g_.cols = (steps + g_.group - 1) / g_.group;
    const std::size_t cells = static_cast<std::size_t>(g_.rows * g_.cols);
    g_.k_first.assign(g_.cols, 0);
    g_.k_last.assign(g_.cols, 0);
    g_.k.assign(cells, 0);
    g_.excess.assign(cells, 0);
    g_.duration.assign(cells, 0);
    g_.span_start.assign(cells, 0);
    g_.span_end.assign(cells, 0);
    stray_.assign(cells, 0);
    j_ = 0;
  }
  void steps(uint64_t k0, std::size_t n, const int64_t* start, const int64_t* end,
             const double* /*lateness*/, const double* excess) noexcept override {
    const uint64_t rows = g_.rows;
    for (std::size_t i = 0; i < n; ++i, ++j_) {
      const int64_t* s = start + i * rows;
      const int64_t* e = end + i * rows;
      int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
      for (uint64_t r = 0; r < rows; ++r) {
        lo = std::min(lo, s[r]);
        hi = std::max(hi, e[r]);
      }
      const uint64_t c = j_ / g_.group;
      const bool first = j_ % g_.group == 0;
      step_column(c, first, k0 + i);
      for (uint64_t r = 0; r < rows; ++r) {
        cell(r * g_.cols + c, first, k0 + i, static_cast<double>(e[r] - s[r]), excess[i * rows + r],
             lo, hi);
      }
    }
  }
  // (The column and the place in it counted along: a division a call
  // would cost more than the rest of the call's work.)
  void calls(std::size_t r, uint64_t j0, uint64_t k0, std::size_t n, const int64_t* start,
             const int64_t* end, const Timeline::StepStats& st) noexcept override {
    uint64_t c = j0 / g_.group, in = j0 % g_.group;
    const std::size_t row = r * g_.cols;
    for (std::size_t i = 0; i < n; ++i) {
      if (r == 0) step_column(c, in == 0, k0 + i);
      const auto duration = static_cast<double>(end[i] - start[i]);
      cell(row + c, in == 0, k0 + i, duration, duration - st.duration_median[i], st.first_start[i],
           st.last_end[i]);
      if (++in == g_.group) in = 0, ++c;
    }
  }
  AlignedGrid take() { return std::move(g_); }
  bool reads_lateness() const override { return false; }

 private:
  void step_column(uint64_t c, bool first, uint64_t k) noexcept {
    if (first) g_.k_first[c] = k;
    g_.k_last[c] = k;
  }
  // A step's call on a rank, in cell `at` (the first of its column or
  // not): the cell shows the step of its column whose call strays furthest
  // (|stray_share|), the first on ties.
  void cell(std::size_t at, bool first, uint64_t k, double duration, double excess, int64_t lo,
            int64_t hi) noexcept {
    const double strays = std::fabs(stray_share(excess, duration - excess));
    if (!first && strays <= stray_[at]) return;
    stray_[at] = strays;
    g_.k[at] = k;
    g_.excess[at] = excess;
    g_.duration[at] = duration;
    g_.span_start[at] = lo;
    g_.span_end[at] = hi;
  }

  uint64_t max_columns_;
  AlignedGrid g_;
  std::vector<double> stray_;  // |share| of the call each cell shows
  uint64_t j_ = 0;             // the steps seen (step by step)
};

// Each rank's lateness summed in step order, fed either way (the same bits).
class LatenessBuilder final : public Timeline::AlignedVisitor, public Timeline::RankVisitor {
 public:
  void begin(const Timeline::AlignedHead& head) override {
    out_.ranks = head.ranks;
    sum_.assign(head.ranks.size(), 0.0);
    steps_ = head.ranks.empty() ? 0 : head.steps;
  }
  void steps(uint64_t /*k0*/, std::size_t n, const int64_t* /*start*/, const int64_t* /*end*/,
             const double* lateness, const double* /*excess*/) noexcept override {
    const std::size_t rows = sum_.size();
    for (std::size_t j = 0; j < n; ++j) {
      for (std::size_t r = 0; r < rows; ++r) sum_[r] += lateness[j * rows + r];
    }
  }
  void calls(std::size_t r, uint64_t /*j0*/, uint64_t /*k0*/, std::size_t n, const int64_t* start,
             const int64_t* /*end*/, const Timeline::StepStats& st) noexcept override {
    double sum = sum_[r];
    for (std::size_t i = 0; i < n; ++i) sum += static_cast<double>(start[i]) - st.start_median[i];
    sum_[r] = sum;
  }
  bool reads_excess() const override { return false; }
  RankLateness take() {
    out_.lateness.resize(sum_.size());
    for (std::size_t r = 0; r < sum_.size(); ++r) {
      out_.lateness[r] =
          steps_ ? sum_[r] / static_cast<double>(steps_) : std::numeric_limits<double>::quiet_NaN();
    }
    return std::move(out_);
  }

 private:
  RankLateness out_;
  std::vector<double> sum_;
  uint64_t steps_ = 0;
};

}  // namespace

AlignedGrid aligned_grid(const Timeline::AlignedCalls& a, uint64_t max_columns) {
  GridBuilder b(max_columns);
  feed(a, b);
  return b.take();
}

AlignedGrid aligned_grid(const Timeline& tl, int32_t frame, int64_t start, int64_t end,
                         uint64_t max_columns) {
  GridBuilder b(max_columns);
  tl.visit_aligned_ranks(frame, start, end, b);
  return b.take();
}

RankLateness mean_lateness(const Timeline::AlignedCalls& a) {
  LatenessBuilder b;
  feed(a, b);
  return b.take();
}

RankLateness mean_lateness(const Timeline& tl, int32_t frame, int64_t start, int64_t end) {
  LatenessBuilder b;
  tl.visit_aligned_ranks(frame, start, end, b);
  return b.take();
}

}  // namespace scope_speedscope
