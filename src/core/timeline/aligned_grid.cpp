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

class GridBuilder final : public Timeline::AlignedVisitor {
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
  // A cell shows the step of its column whose call strays furthest
  // (|stray_share|), the first on ties.
  void steps(uint64_t k0, std::size_t n, const int64_t* start, const int64_t* end,
             const double* /*lateness*/, const double* excess) noexcept override {
    const uint64_t rows = g_.rows;
    for (std::size_t j = 0; j < n; ++j)
      step(k0 + j, start + j * rows, end + j * rows, excess + j * rows);
  }
  AlignedGrid take() { return std::move(g_); }
  bool reads_lateness() const override { return false; }

 private:
  void step(uint64_t k, const int64_t* start, const int64_t* end, const double* excess) noexcept {
    const uint64_t rows = g_.rows, c = j_ / g_.group;
    int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
    for (uint64_t r = 0; r < rows; ++r) {
      lo = std::min(lo, start[r]);
      hi = std::max(hi, end[r]);
    }
    const bool first_of_column = j_ % g_.group == 0;
    if (first_of_column) g_.k_first[c] = k;
    g_.k_last[c] = k;
    for (uint64_t r = 0; r < rows; ++r) {
      const std::size_t cell = r * g_.cols + c;
      const double duration = static_cast<double>(end[r] - start[r]);
      const double strays = std::fabs(stray_share(excess[r], duration - excess[r]));
      if (!first_of_column && strays <= stray_[cell]) continue;
      stray_[cell] = strays;
      g_.k[cell] = k;
      g_.excess[cell] = excess[r];
      g_.duration[cell] = duration;
      g_.span_start[cell] = lo;
      g_.span_end[cell] = hi;
    }
    ++j_;
  }

  uint64_t max_columns_;
  AlignedGrid g_;
  std::vector<double> stray_;  // |share| of the call each cell shows
  uint64_t j_ = 0;             // the steps seen
};

class LatenessBuilder final : public Timeline::AlignedVisitor {
 public:
  void begin(const Timeline::AlignedHead& head) override {
    out_.ranks = head.ranks;
    sum_.assign(head.ranks.size(), 0.0);
    steps_ = 0;
  }
  void steps(uint64_t /*k0*/, std::size_t n, const int64_t* /*start*/, const int64_t* /*end*/,
             const double* lateness, const double* /*excess*/) noexcept override {
    const std::size_t rows = sum_.size();
    for (std::size_t j = 0; j < n; ++j) {
      for (std::size_t r = 0; r < rows; ++r) sum_[r] += lateness[j * rows + r];
    }
    steps_ += n;
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
  tl.visit_aligned(frame, start, end, b);
  return b.take();
}

RankLateness mean_lateness(const Timeline::AlignedCalls& a) {
  LatenessBuilder b;
  feed(a, b);
  return b.take();
}

RankLateness mean_lateness(const Timeline& tl, int32_t frame, int64_t start, int64_t end) {
  LatenessBuilder b;
  tl.visit_aligned(frame, start, end, b);
  return b.take();
}

}  // namespace scope_speedscope
