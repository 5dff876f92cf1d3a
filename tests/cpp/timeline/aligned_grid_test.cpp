// The Ranks panel's grid and lateness (timeline/aligned_grid.hpp) against
// models written from their definitions, on seeded random answers (steps
// alone and grouped into columns, ties, medians of 0, no steps), and on a
// timeline's own aligned_calls of a random run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "timeline/aligned_grid.hpp"
#include "timeline_model.hpp"

namespace scope_speedscope::test {
namespace {

// An answer as aligned_calls gives it: `steps` steps k0, k0 + 1, ... on each
// of `ranks` (ascending), k then rank; durations small enough to tie and to
// be all excess (a median of 0).
Timeline::AlignedCalls answer_of(std::mt19937_64& rng, const std::vector<int64_t>& ranks,
                                 uint64_t steps) {
  Timeline::AlignedCalls a;
  a.ranks = ranks;
  a.counts.assign(ranks.size(), steps + 3);
  a.common = steps + 3;
  const uint64_t k0 = rng() % 100;
  for (uint64_t j = 0; j < steps; ++j) {
    for (int64_t rank : ranks) {
      const auto start = static_cast<int64_t>(1000 * j + rng() % 50);
      a.k.push_back(k0 + j);
      a.rank.push_back(rank);
      a.start_ns.push_back(start);
      a.end_ns.push_back(start + static_cast<int64_t>(rng() % 4));
      a.lateness_ns.push_back(static_cast<double>(rng() % 21) - 10);
      a.excess_ns.push_back(static_cast<double>(rng() % 7) - 3);
    }
  }
  return a;
}

double model_share(double excess, double median) {
  if (median > 0) return excess / median;
  return excess > 0 ? INFINITY : excess < 0 ? -INFINITY : 0;
}

// Column c holds steps c * group onwards; a cell shows the step whose call
// on its rank strays furthest from its median duration (|excess / median|),
// the earliest of those that stray as far.
AlignedGrid grid_model(const Timeline::AlignedCalls& a, uint64_t max_columns) {
  AlignedGrid g;
  const uint64_t rows = a.ranks.size(), steps = rows ? a.k.size() / rows : 0;
  g.rows = static_cast<uint32_t>(rows);
  g.ranks = a.ranks;
  g.counts = a.counts;
  g.common = a.common;
  g.group = std::max<uint64_t>(1, (steps + max_columns - 1) / max_columns);
  g.cols = (steps + g.group - 1) / g.group;
  for (uint64_t c = 0; c < g.cols; ++c) {
    std::vector<uint64_t> js;
    for (uint64_t j = c * g.group; j < std::min(steps, (c + 1) * g.group); ++j) js.push_back(j);
    g.k_first.push_back(a.k[js.front() * rows]);
    g.k_last.push_back(a.k[js.back() * rows]);
  }
  const std::size_t cells = rows * g.cols;
  g.k.resize(cells);
  g.excess.resize(cells);
  g.duration.resize(cells);
  g.span_start.resize(cells);
  g.span_end.resize(cells);
  for (uint64_t c = 0; c < g.cols; ++c) {
    for (uint64_t r = 0; r < rows; ++r) {
      auto strays = [&](uint64_t j) {
        const uint64_t i = j * rows + r;
        const double d = static_cast<double>(a.end_ns[i] - a.start_ns[i]);
        return std::fabs(model_share(a.excess_ns[i], d - a.excess_ns[i]));
      };
      uint64_t best = c * g.group;
      for (uint64_t j = best; j < std::min(steps, (c + 1) * g.group); ++j)
        if (strays(j) > strays(best)) best = j;
      const uint64_t i = best * rows + r, cell = r * g.cols + c;
      g.k[cell] = a.k[i];
      g.excess[cell] = a.excess_ns[i];
      g.duration[cell] = static_cast<double>(a.end_ns[i] - a.start_ns[i]);
      g.span_start[cell] = a.start_ns[best * rows];
      g.span_end[cell] = a.end_ns[best * rows];
      for (uint64_t q = 0; q < rows; ++q) {
        g.span_start[cell] = std::min(g.span_start[cell], a.start_ns[best * rows + q]);
        g.span_end[cell] = std::max(g.span_end[cell], a.end_ns[best * rows + q]);
      }
    }
  }
  return g;
}

void expect_same_grid(const AlignedGrid& got, const AlignedGrid& want) {
  EXPECT_EQ(got.rows, want.rows);
  EXPECT_EQ(got.cols, want.cols);
  EXPECT_EQ(got.group, want.group);
  EXPECT_EQ(got.ranks, want.ranks);
  EXPECT_EQ(got.counts, want.counts);
  EXPECT_EQ(got.common, want.common);
  EXPECT_EQ(got.k_first, want.k_first);
  EXPECT_EQ(got.k_last, want.k_last);
  EXPECT_EQ(got.k, want.k);
  EXPECT_EQ(got.excess, want.excess);
  EXPECT_EQ(got.duration, want.duration);
  EXPECT_EQ(got.span_start, want.span_start);
  EXPECT_EQ(got.span_end, want.span_end);
}

// Per rank, the mean of its entries' lateness, found by rank (NaN without).
RankLateness lateness_model(const Timeline::AlignedCalls& a) {
  RankLateness out{a.ranks, {}};
  for (int64_t rank : a.ranks) {
    double sum = 0;
    std::size_t n = 0;
    for (std::size_t i = 0; i < a.rank.size(); ++i) {
      if (a.rank[i] != rank) continue;
      sum += a.lateness_ns[i];
      ++n;
    }
    out.lateness.push_back(n ? sum / static_cast<double>(n) : NAN);
  }
  return out;
}

void expect_same_lateness(const RankLateness& got, const RankLateness& want) {
  EXPECT_EQ(got.ranks, want.ranks);
  ASSERT_EQ(got.lateness.size(), want.lateness.size());
  for (std::size_t r = 0; r < got.lateness.size(); ++r) {
    if (std::isnan(want.lateness[r])) {
      EXPECT_TRUE(std::isnan(got.lateness[r])) << r;
    } else {
      EXPECT_EQ(got.lateness[r], want.lateness[r]) << r;
    }
  }
}

TEST(AlignedGrid, steps_alone_and_grouped_match_the_model) {
  std::mt19937_64 rng(20261203);
  int grouped = 0;
  for (int round = 0; round < 300; ++round) {
    const int rows = 1 + static_cast<int>(rng() % 6);
    std::vector<int64_t> ranks;
    for (int r = 0; r < rows; ++r) ranks.push_back(r * 2 + 1);
    const auto a = answer_of(rng, ranks, rng() % 40);
    const uint64_t max_columns = 1 + rng() % 12;
    SCOPED_TRACE("round " + std::to_string(round) + ": " + std::to_string(a.size()) + " entries, " +
                 std::to_string(max_columns) + " columns");
    const AlignedGrid got = aligned_grid(a, max_columns);
    if (got.group > 1) ++grouped;
    expect_same_grid(got, grid_model(a, max_columns));
  }
  EXPECT_GT(grouped, 100);
}

TEST(AlignedGrid, lateness_is_each_ranks_mean_and_nan_without_steps) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 100; ++round) {
    const int rows = 1 + static_cast<int>(rng() % 6);
    std::vector<int64_t> ranks;
    for (int r = 0; r < rows; ++r) ranks.push_back(r + 10);
    const auto a = answer_of(rng, ranks, rng() % 30);
    SCOPED_TRACE("round " + std::to_string(round));
    expect_same_lateness(mean_lateness(a), lateness_model(a));
  }
  const RankLateness none = mean_lateness(answer_of(rng, {0, 4}, 0));
  EXPECT_EQ(none.ranks, (std::vector<int64_t>{0, 4}));
  ASSERT_EQ(none.lateness.size(), 2u);
  EXPECT_TRUE(std::isnan(none.lateness[0]) && std::isnan(none.lateness[1]));
}

TEST(AlignedGrid, a_timelines_answers_of_random_runs) {
  for (unsigned seed = 91; seed < 95; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    const int ranks = 2 + static_cast<int>(seed % 3);
    std::vector<int64_t> all;
    for (int r = 0; r < ranks; ++r) all.push_back(r);
    TimelineOptions o;
    o.ranks = all;
    const scope_speedscope::Run run = random_run(rng, ranks, 1, 300, 3, 6, 40);
    const Timeline tl = open_timeline(run, o);
    std::size_t entries = 0;
    for (int32_t f = 0; f < static_cast<int32_t>(tl.frames().size()); ++f) {
      const auto a = tl.aligned_calls(f, -10, 1'000'000'000);
      entries += a.size();
      for (uint64_t columns : {1u, 7u, 64u, 100000u}) {
        expect_same_grid(aligned_grid(a, columns), grid_model(a, columns));
        // The walk's grid (no entry columns) is the answer's, bit for bit.
        expect_same_grid(aligned_grid(tl, f, -10, 1'000'000'000, columns),
                         aligned_grid(a, columns));
        const int64_t mid = 150;
        expect_same_grid(aligned_grid(tl, f, mid, mid + 60, columns),
                         aligned_grid(tl.aligned_calls(f, mid, mid + 60), columns));
      }
      expect_same_lateness(mean_lateness(a), lateness_model(a));
      expect_same_lateness(mean_lateness(tl, f, -10, 1'000'000'000), mean_lateness(a));
    }
    EXPECT_GT(entries, 100u);
  }
}

// Each entry's lateness and excess against its step's medians, taken again
// from the answer's own starts and ends (every rank's call of each step).
void expect_medians_of_steps(const Timeline::AlignedCalls& a) {
  const std::size_t rows = a.ranks.size();
  ASSERT_GT(rows, 0u);
  auto median = [](std::vector<int64_t> v) {
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? static_cast<double>(v[m])
                        : (static_cast<double>(v[m - 1]) + static_cast<double>(v[m])) / 2;
  };
  for (std::size_t j = 0; j * rows < a.size(); ++j) {
    std::vector<int64_t> starts, durations;
    for (std::size_t r = 0; r < rows; ++r) {
      starts.push_back(a.start_ns[j * rows + r]);
      durations.push_back(a.end_ns[j * rows + r] - a.start_ns[j * rows + r]);
    }
    const double start_median = median(starts), duration_median = median(durations);
    for (std::size_t r = 0; r < rows; ++r) {
      const std::size_t i = j * rows + r;
      ASSERT_EQ(a.lateness_ns[i], static_cast<double>(starts[r]) - start_median) << "entry " << i;
      ASSERT_EQ(a.excess_ns[i], static_cast<double>(durations[r]) - duration_median)
          << "entry " << i;
    }
  }
}

// Runs of more than a block of steps (1,024) and enough calls to be walked
// on several threads natively: a region alone at one depth (its slot
// copied), regions mixed over depths and lanes, and more steps than a part
// (65,536), whose blocks do not all fit the timeline's budget (the others
// are made for each query). The steps' medians are
// kept by the timeline: asked first by windows (some blocks made), then
// over the whole run, the answers are those of a timeline asked the whole
// run first, bit for bit, and the models'.
TEST(AlignedGrid, many_steps_kept_and_shared_among_threads) {
  struct Shape {
    int ranks, lanes, calls, regions, depth;
    bool kept;  // its blocks fit the timeline's budget (1 MiB: 32 blocks)
  };
  for (const Shape& shape : {Shape{6, 1, 14000, 1, 1, true}, Shape{5, 2, 16000, 2, 4, true},
                             Shape{2, 1, 70000, 1, 1, false}}) {
    SCOPED_TRACE(std::to_string(shape.ranks) + " ranks, depth " + std::to_string(shape.depth));
    std::mt19937_64 rng(static_cast<unsigned>(shape.calls));
    std::vector<int64_t> all;
    for (int r = 0; r < shape.ranks; ++r) all.push_back(r);
    TimelineOptions o;
    o.ranks = all;
    const scope_speedscope::Run run =
        random_run(rng, shape.ranks, shape.lanes, shape.calls, shape.regions, shape.depth, 30);
    const Timeline fresh = open_timeline(run, o), windowed = open_timeline(run, o);
    int64_t end = 0;
    for (const auto& l : fresh.lanes()) end = std::max(end, l.end_ns + 1);
    const int32_t f = 0;
    for (int w = 1; w <= 3; ++w) {
      const int64_t from = end * w / 5, to = from + end / 7;
      expect_same_grid(aligned_grid(windowed, f, from, to, 50),
                       grid_model(windowed.aligned_calls(f, from, to), 50));
      expect_same_lateness(mean_lateness(windowed, f, from, to),
                           lateness_model(fresh.aligned_calls(f, from, to)));
    }
    const Timeline::AlignedCalls a = fresh.aligned_calls(f, 0, end);
    ASSERT_GT(a.size(), 65536u);
    ASSERT_GT(a.size() / a.ranks.size(), 3 * Timeline::kAlignedBlock);
    expect_medians_of_steps(a);
    for (uint64_t columns : {1u, 999u, 100000u}) {
      const AlignedGrid want = grid_model(a, columns);
      expect_same_grid(aligned_grid(fresh, f, 0, end, columns), want);
      expect_same_grid(aligned_grid(windowed, f, 0, end, columns), want);
    }
    expect_same_lateness(mean_lateness(fresh, f, 0, end), lateness_model(a));
    expect_same_lateness(mean_lateness(windowed, f, 0, end), lateness_model(a));
    expect_medians_of_steps(windowed.aligned_calls(f, 0, end));
    // Made ahead (serve's open), frames over the budget left out: the same.
    const Timeline prepared = open_timeline(run, o);
    uint64_t entries = 0, fewest = UINT64_MAX;
    for (int32_t g = 0; g < static_cast<int32_t>(fresh.frames().size()); ++g) {
      const uint64_t n = fresh.aligned_calls(g, 0, end).size();
      entries += n;
      fewest = std::min(fewest, n);
    }
    EXPECT_EQ(prepared.prepare_aligned(fewest - 1), 0u);
    EXPECT_EQ(prepared.prepare_aligned(entries), shape.kept ? entries : 0u);
    expect_same_grid(aligned_grid(prepared, f, 0, end, 999), grid_model(a, 999));
    expect_same_lateness(mean_lateness(prepared, f, 0, end), lateness_model(a));
  }
}

TEST(AlignedGrid, zero_columns_is_refused) {
  std::mt19937_64 rng(1);
  try {
    aligned_grid(answer_of(rng, {0}, 3), 0);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.code()), "bad_argument");
    EXPECT_NE(std::string(e.what()).find("maxColumns must be at least 1"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace scope_speedscope::test
