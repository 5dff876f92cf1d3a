// timeline: the k-th call of a frame on each rank, lined up (aligned_calls;
// see timeline.hpp). A rank's calls of the frame are numbered in the merged
// order of its depth slots (start, then slot: lane, then depth); counting
// and stepping skip the chunks whose summary lacks the frame.
#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "timeline/checks.hpp"
#include "timeline/frame_walk.hpp"
#include "timeline/timeline.hpp"

namespace scope_speedscope {

namespace {

// [a, b) intervals of k, merged where they touch.
std::vector<std::pair<uint64_t, uint64_t>> merged(std::vector<std::pair<uint64_t, uint64_t>> v) {
  std::sort(v.begin(), v.end());
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (const auto& [a, b] : v) {
    if (a >= b) continue;
    if (!out.empty() && a <= out.back().second) {
      out.back().second = std::max(out.back().second, b);
    } else {
      out.emplace_back(a, b);
    }
  }
  return out;
}

}  // namespace

namespace {

// aligned_calls' visitor: the steps written into an answer's columns, each
// sized once and written through pointers (the walk's loop calls nothing
// that can throw: in WebAssembly each call that may throw inside a
// function with cleanups goes out to JavaScript and back).
class ColumnsWriter final : public Timeline::AlignedVisitor {
 public:
  explicit ColumnsWriter(Timeline::AlignedCalls& out) : out_(out) {}
  void begin(const Timeline::AlignedHead& head) override {
    out_.ranks = head.ranks;
    out_.counts = head.counts;
    out_.common = head.common;
    rows_ = head.ranks.size();
    const std::size_t n = static_cast<std::size_t>(head.steps) * rows_;
    out_.k.resize(n);
    for (auto* v : {&out_.rank, &out_.start_ns, &out_.end_ns}) v->resize(n);
    for (auto* v : {&out_.lateness_ns, &out_.excess_ns}) v->resize(n);
    at_ = 0;
  }
  void steps(uint64_t k0, std::size_t n, const int64_t* start, const int64_t* end,
             const double* lateness, const double* excess) noexcept override {
    const int64_t* ranks = out_.ranks.data();
    const std::size_t entries = n * rows_;
    uint64_t* k_at = out_.k.data() + at_;
    int64_t* rank_at = out_.rank.data() + at_;
    for (std::size_t j = 0; j < n; ++j) {
      for (std::size_t r = 0; r < rows_; ++r) {
        k_at[j * rows_ + r] = k0 + j;
        rank_at[j * rows_ + r] = ranks[r];
      }
    }
    std::copy(start, start + entries, out_.start_ns.data() + at_);
    std::copy(end, end + entries, out_.end_ns.data() + at_);
    std::copy(lateness, lateness + entries, out_.lateness_ns.data() + at_);
    std::copy(excess, excess + entries, out_.excess_ns.data() + at_);
    at_ += entries;
  }

 private:
  Timeline::AlignedCalls& out_;
  std::size_t rows_ = 0, at_ = 0;
};

}  // namespace

// Each wanted k, every rank's walk standing before its call k0 (the first
// wanted), a part at a time (its statistics made or found first). The walks
// write each block of up to kAlignedBlock consecutive k into block columns,
// rank after rank (a rank's calls `R` apart), which are still in the caches
// when the visitor reads them, `part` steps at a time. Nothing in the loop
// can throw (see ColumnsWriter).
void Timeline::walk_aligned(AlignedPlan& plan, AlignedVisitor& visitor) const {
  constexpr std::size_t kBlock = kAlignedBlock;
  const std::size_t R = plan.ranks.size();
  // The visitor gets `part` steps at a time: about 4,096 entries, whose
  // lateness and excess (64 kB) stay in the nearest cache between their
  // making and the visitor; one call a block for a single rank.
  const std::size_t part = std::clamp<std::size_t>(4096 / std::max<std::size_t>(R, 1), 1, kBlock);
  std::vector<int64_t> block_columns(2 * kBlock * R);
  std::vector<double> rows(2 * part * R);
  int64_t* starts = block_columns.data();
  int64_t* ends = starts + kBlock * R;
  double* lateness = rows.data();
  double* excess = lateness + part * R;
  const bool late_wanted = visitor.reads_lateness(), excess_wanted = visitor.reads_excess();
  // The block's steps' lateness and excess for the visitor, `part` at a time.
  auto visit = [&](uint64_t k, std::size_t block, const StepStats& st) {
    for (std::size_t j0 = 0; j0 < block; j0 += part) {
      const std::size_t n = std::min(part, block - j0);
      for (std::size_t j = 0; j < n; ++j) {
        const int64_t* s = starts + (j0 + j) * R;
        const int64_t* e = ends + (j0 + j) * R;
        if (late_wanted) {
          double* late = lateness + j * R;
          for (std::size_t r = 0; r < R; ++r)
            late[r] = static_cast<double>(s[r]) - st.start_median[j0 + j];
        }
        if (excess_wanted) {
          double* more = excess + j * R;
          for (std::size_t r = 0; r < R; ++r)
            more[r] = static_cast<double>(e[r] - s[r]) - st.duration_median[j0 + j];
        }
      }
      visitor.steps(k + j0, n, starts + j0 * R, ends + j0 * R, lateness, excess);
    }
  };
  plan.parts([&](uint64_t lo, uint64_t hi) {
    const StepBlocks stats = step_blocks(plan, lo, hi);
    plan.wanted_within(lo, hi, [&](uint64_t a, uint64_t b) {
      for (FrameWalk& w : plan.walks) w.go_to(plan.at, a);
      for (uint64_t k = a; k < b;) {
        const auto block =
            static_cast<std::size_t>(std::min<uint64_t>(b, (k / kBlock + 1) * kBlock) - k);
        for (std::size_t r = 0; r < R; ++r) plan.walks[r].take(block, starts + r, ends + r, R);
        visit(k, block, stats.of(k));
        k += block;
      }
      plan.at = b;
    });
  });
}

Timeline::AlignedCalls Timeline::aligned_calls(int32_t frame, int64_t start, int64_t end) const {
  AlignedCalls out;
  aligned_calls(frame, start, end, out);
  return out;
}

// The entry columns keep their length until the writer's begin sets the
// new one: a column cleared and then resized to 2.7 M entries would first
// be written with zeros (in WebAssembly by a loop as long as the query).
void Timeline::aligned_calls(int32_t frame, int64_t start, int64_t end, AlignedCalls& out) const {
  try {
    ColumnsWriter writer(out);
    visit_aligned(frame, start, end, writer);
  } catch (...) {
    out.k.clear();
    for (auto* v : {&out.rank, &out.start_ns, &out.end_ns}) v->clear();
    for (auto* v : {&out.lateness_ns, &out.excess_ns}) v->clear();
    out.ranks.clear();
    out.counts.clear();
    out.common = 0;
    throw;
  }
}

Timeline::AlignedPlan Timeline::plan_aligned(int32_t frame, int64_t start, int64_t end) const {
  detail::check_window("alignedCalls", start, end);
  if (frame < 0 || static_cast<std::size_t>(frame) >= frames_.size()) {
    detail::bad_argument("alignedCalls: frame " + std::to_string(frame) +
                         " is out of range (the timeline has " + std::to_string(frames_.size()) +
                         " frames)");
  }
  AlignedPlan plan;
  plan.frame = frame;
  plan.ranks = ranks();
  const std::size_t R = plan.ranks.size();
  std::vector<uint64_t> first(R);  // per rank: the number of its first call in the window
  std::vector<std::pair<uint64_t, uint64_t>> ks;
  for (const auto& blocks : rank_blocks()) plan.walks.emplace_back(*this, frame, blocks);
  for (std::size_t r = 0; r < R; ++r) {
    plan.counts.push_back(plan.walks[r].count_all());
    const uint64_t after = plan.walks[r].seek(end);
    first[r] = plan.walks[r].seek(start);
    ks.emplace_back(first[r], after);
  }
  plan.common = R == 0 ? 0 : *std::min_element(plan.counts.begin(), plan.counts.end());
  for (auto& k : ks) k.second = std::min(k.second, plan.common);
  plan.wanted = merged(ks);
  for (const auto& [a, b] : plan.wanted) plan.steps += b - a;
  if (plan.wanted.empty()) return plan;
  // Each walk, its cursors at `start` before call first[r], to stand before the first wanted.
  plan.at = plan.wanted.front().first;
  for (std::size_t r = 0; r < R; ++r) plan.walks[r].go_to(first[r], plan.at);
  return plan;
}

void Timeline::visit_aligned(int32_t frame, int64_t start, int64_t end,
                             AlignedVisitor& visitor) const {
  AlignedPlan plan = plan_aligned(frame, start, end);
  visitor.begin(AlignedHead{plan.ranks, plan.counts, plan.common, plan.steps});
  if (!plan.wanted.empty()) walk_aligned(plan, visitor);
}

}  // namespace scope_speedscope
