// open_timeline(Run&&): the run's event columns taken over as the
// timeline's when the selected ranks lie one after another in them. The
// timeline must be the one open_timeline(const Run&) makes, column for
// column, whichever way it was made; which way it was made shows in what
// is left of the run.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "timeline/same_timeline.hpp"
#include "timeline/timeline.hpp"
#include "timeline_model.hpp"

namespace scope_speedscope::test {
namespace {

// The run with its events moved so each rank's lie together, the ranks in
// `order` (a rank not in it keeps its events after them, slice by slice).
Run grouped_by_rank(const Run& run, const std::vector<int64_t>& order) {
  Run out = without_events(run);
  std::vector<int64_t> ranks = order;
  for (const Region& region : run.regions)
    for (const RankSlice& s : region.ranks)
      if (std::find(ranks.begin(), ranks.end(), s.rank) == ranks.end()) ranks.push_back(s.rank);
  for (int64_t rank : ranks) {
    for (std::size_t r = 0; r < run.regions.size(); ++r) {
      for (std::size_t k = 0; k < run.regions[r].ranks.size(); ++k) {
        const RankSlice& s = run.regions[r].ranks[k];
        if (s.rank != rank) continue;
        out.regions[r].ranks[k].offset = append_events(run, s.offset, s.count, out);
      }
    }
  }
  return out;
}

struct TakeOverCase {
  int ranks, lanes, calls, regions, depth;
  unsigned seed;
};

class TimelineTakeOver : public ::testing::TestWithParam<TakeOverCase> {};

TEST_P(TimelineTakeOver, the_same_timeline_whether_the_columns_are_taken_over_or_copied) {
  const TakeOverCase tc = GetParam();
  std::mt19937_64 rng(tc.seed);
  const scope_speedscope::Run shuffled =
      random_run(rng, tc.ranks, tc.lanes, tc.calls, tc.regions, tc.depth, 7);
  std::vector<int64_t> descending;
  for (int r = tc.ranks - 1; r >= 0; --r) descending.push_back(r);
  const scope_speedscope::Run grouped = grouped_by_rank(shuffled, descending);
  std::vector<int64_t> ascending(descending.rbegin(), descending.rend());

  struct Try {
    const char* what;
    const scope_speedscope::Run* run;
    std::vector<int64_t> ranks;
    bool taken;  // the columns are the run's
  };
  std::vector<int64_t> listed_twice = ascending;
  listed_twice.push_back(0);
  const std::vector<Try> tries = {
      {"grouped, every rank", &grouped, ascending, true},
      {"grouped, every rank, one listed twice", &grouped, listed_twice, true},
      {"grouped, ranks in another order", &grouped, descending, true},
      {"grouped, rank 0 alone (under 7/8 of the events)", &grouped, {0}, tc.ranks == 1},
      {"ranks interleaved", &shuffled, ascending, tc.ranks == 1},
  };
  for (const Try& t : tries) {
    SCOPED_TRACE(t.what);
    TimelineOptions options;
    options.ranks = t.ranks;
    const Timeline copied = open_timeline(*t.run, options);
    scope_speedscope::Run consumed = *t.run;
    const Timeline taken = open_timeline(std::move(consumed), options);
    EXPECT_EQ(consumed.start_ns.empty(), t.taken);
    EXPECT_TRUE(consumed.lane.empty());
    expect_same_timeline(taken, copied);
  }
}

INSTANTIATE_TEST_SUITE_P(seeded, TimelineTakeOver,
                         ::testing::Values(TakeOverCase{4, 3, 900, 5, 12, 31},
                                           TakeOverCase{3, 1, 2000, 3, 4, 32},
                                           TakeOverCase{6, 2, 700, 4, 30, 33},
                                           TakeOverCase{1, 4, 1500, 6, 8, 34}));

// Filters that keep most of the events still take the columns over; the
// excluded regions' events are left behind, never read.
TEST(TimelineTakeOver, a_filter_keeping_most_events_takes_them_over) {
  std::vector<SliceSpec> slices;
  for (int r = 0; r < 2; ++r) {
    SliceSpec step{"step", r, {}, {}};
    SliceSpec io{"io", r, {}, {}};
    for (int k = 0; k < 16; ++k) step.calls.push_back({100 * k, 100 * k + 50 + r});
    io.calls.push_back({1700, 1710});
    slices.push_back(step);
    slices.push_back(io);
  }
  const scope_speedscope::Run run = make_run(slices, false);  // rank 0's slices, then rank 1's
  TimelineOptions options;
  options.ranks = std::vector<int64_t>{0, 1};
  options.include = std::vector<std::string>{"step"};
  scope_speedscope::Run consumed = run;
  const Timeline taken = open_timeline(std::move(consumed), options);
  EXPECT_TRUE(consumed.start_ns.empty());
  expect_same_timeline(taken, open_timeline(run, options));
  ASSERT_EQ(taken.depth_view(1, 0).calls, 16u);
  EXPECT_EQ(taken.depth_view(1, 0).end(15), 1551);
}

}  // namespace
}  // namespace scope_speedscope::test
