// open_timeline_in_groups: a selection read a group of ranks at a time (the
// file's index first, then each group's calls alone) must be the timeline
// open_timeline makes of the whole run, column for column, and fail with
// its errors, in its order. The reads it asks for show the groups.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "model/run.hpp"
#include "select/selection.hpp"
#include "test_support.hpp"
#include "timeline/same_timeline.hpp"
#include "timeline/timeline.hpp"
#include "timeline_model.hpp"

namespace scope_speedscope::test {
namespace {

// The run as the reader gives it with ReadPlan::ranks `ranks` (ascending)
// and no other rank's first starts: the events of those ranks alone, in
// the run's order; the other ranks' slices not held.
Run held_only(const Run& run, const std::vector<int64_t>& ranks) {
  Run out = without_events(run);
  out.partial = true;
  for (Region& region : out.regions) {
    for (RankSlice& slice : region.ranks) {
      if (!std::binary_search(ranks.begin(), ranks.end(), slice.rank)) {
        slice.held = false;
        slice.offset = 0;
        slice.min_start_ns.reset();
        continue;
      }
      slice.offset = append_events(run, slice.offset, slice.count, out);
    }
  }
  return out;
}

// The run as the engine's one read of `ranks` gives it: the other ranks'
// slices not held but their first starts taken (ReadPlan::others_first_starts).
Run read_at_once(const Run& run, const std::vector<int64_t>& ranks) {
  Run out = held_only(run, ranks);
  for (std::size_t r = 0; r < run.regions.size(); ++r) {
    for (std::size_t k = 0; k < run.regions[r].ranks.size(); ++k) {
      RankSlice& slice = out.regions[r].ranks[k];
      if (!slice.held && slice.count > 0)
        slice.min_start_ns = slice_min_start_ns(run, run.regions[r].ranks[k]);
    }
  }
  return out;
}

RunOrder order_of(const scope_speedscope::Run& run) {
  return {region_order_keys(run), run_origin_ns(run)};
}

// Opens `run` in groups of `group_calls`, the reads asked kept in `asked`.
Timeline in_groups(const scope_speedscope::Run& run, const TimelineOptions& options,
                   uint64_t group_calls, std::vector<std::vector<int64_t>>* asked = nullptr) {
  const ReadRanks read = [&](const std::vector<int64_t>& ranks) {
    if (asked != nullptr) asked->push_back(ranks);
    return held_only(run, ranks);
  };
  return open_timeline_in_groups(held_only(run, {}), read, order_of(run), options, group_calls);
}

struct GroupCase {
  int ranks, lanes, calls, regions, depth;
  int64_t step;  // 3e9: starts of a group 2^32 ns apart or more, calls of 4.29 s or more
  unsigned seed;
};

class TimelineInGroups : public ::testing::TestWithParam<GroupCase> {};

TEST_P(TimelineInGroups, the_same_timeline_whatever_the_groups) {
  const GroupCase gc = GetParam();
  std::mt19937_64 rng(gc.seed);
  const scope_speedscope::Run run =
      random_run(rng, gc.ranks, gc.lanes, gc.calls, gc.regions, gc.depth, gc.step);
  std::vector<int64_t> every, backwards;
  for (int r = 0; r < gc.ranks; ++r) every.push_back(r);
  backwards.assign(every.rbegin(), every.rend());
  std::vector<int64_t> twice = backwards;
  twice.push_back(gc.ranks - 1);
  struct Try {
    const char* what;
    TimelineOptions options;
  };
  std::vector<Try> tries(5);
  tries[0] = {"every rank", {}};
  tries[0].options.every_rank = true;
  tries[1] = {"the ranks backwards (another origin than the file's)", {}};
  tries[1].options.ranks = backwards;
  tries[2] = {"a rank listed twice", {}};
  tries[2].options.ranks = twice;
  tries[3] = {"rank 0 alone", {}};
  tries[4] = {"a filter (frames renumbered, another origin)", {}};
  tries[4].options.every_rank = true;
  tries[4].options.exclude = std::vector<std::string>{"r0"};
  const uint64_t per_rank = static_cast<uint64_t>(gc.lanes) * static_cast<uint64_t>(gc.calls);
  for (const Try& t : tries) {
    SCOPED_TRACE(t.what);
    // What the engine's one read of these ranks opens, and the whole run's.
    std::vector<int64_t> wanted =
        t.options.every_rank ? every : t.options.ranks.value_or(std::vector<int64_t>{0});
    std::sort(wanted.begin(), wanted.end());
    wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
    const Timeline whole = open_timeline(read_at_once(run, wanted), t.options);
    expect_same_timeline(whole, open_timeline(run, t.options));
    for (const uint64_t group_calls : {uint64_t{1}, 2 * per_rank + 1, uint64_t{1} << 40}) {
      SCOPED_TRACE("groups of " + std::to_string(group_calls) + " calls");
      std::vector<std::vector<int64_t>> asked;
      const Timeline grouped = in_groups(run, t.options, group_calls, &asked);
      expect_same_timeline(grouped, whole);
      EXPECT_EQ(grouped.unread_ranks(), whole.unread_ranks());
      EXPECT_EQ(grouped.unread_calls(), whole.unread_calls());
      EXPECT_EQ(grouped.holds_every_rank(), whole.holds_every_rank());
      EXPECT_EQ(grouped.frame_totals().size(), whole.frame_totals().size());
      for (std::size_t f = 0; f < whole.frame_totals().size(); ++f) {
        EXPECT_EQ(grouped.frame_totals()[f].calls, whole.frame_totals()[f].calls);
        EXPECT_EQ(grouped.frame_totals()[f].total_ns, whole.frame_totals()[f].total_ns);
        EXPECT_EQ(grouped.frame_totals()[f].self_ns, whole.frame_totals()[f].self_ns);
      }
      // Each distinct rank read once, in the order listed; one read when a group holds them all.
      std::vector<int64_t> read_order;
      for (const auto& group : asked)
        read_order.insert(read_order.end(), group.begin(), group.end());
      std::vector<int64_t> distinct;
      for (int64_t r : grouped.selection().ranks.value_or(std::vector<int64_t>{}))
        if (std::find(distinct.begin(), distinct.end(), r) == distinct.end()) distinct.push_back(r);
      std::vector<int64_t> sorted_read = read_order, sorted_distinct = distinct;
      std::sort(sorted_read.begin(), sorted_read.end());
      std::sort(sorted_distinct.begin(), sorted_distinct.end());
      EXPECT_EQ(sorted_read, sorted_distinct);
      if (group_calls == 1) {
        EXPECT_EQ(read_order, distinct);
        EXPECT_EQ(asked.size(), distinct.size());
      }
      if (group_calls == uint64_t{1} << 40) {
        EXPECT_EQ(asked.size(), 1u);
      }
      if (group_calls == 2 * per_rank + 1 && distinct.size() > 2 && !t.options.exclude) {
        EXPECT_GT(asked.size(), 1u);
        EXPECT_LT(asked.size(), distinct.size());
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(seeded, TimelineInGroups,
                         ::testing::Values(GroupCase{5, 3, 300, 4, 10, 7, 41},
                                           GroupCase{4, 1, 2000, 3, 4, 40, 42},
                                           GroupCase{3, 2, 700, 3, 6, 3'000'000'000, 43},
                                           GroupCase{1, 4, 900, 5, 8, 7, 44}));

// Starts 2^32 ns apart or more within a group of 256 positions are kept
// whole; calls of 4.29 s or more keep their ends apart: both survive the
// packing group by group and the move to another origin.
TEST(TimelineInGroups, wide_groups_and_long_calls_survive_the_packing) {
  std::mt19937_64 rng(45);
  const scope_speedscope::Run run = random_run(rng, 3, 2, 700, 3, 6, 3'000'000'000);
  TimelineOptions options;
  options.ranks = std::vector<int64_t>{};
  for (int64_t r = 2; r >= 0; --r) {  // every rank but the one holding the run's first call
    TimelineOptions alone;
    alone.ranks = std::vector<int64_t>{r};
    if (open_timeline(run, alone).origin_in_run_ns() != 0) options.ranks->push_back(r);
  }
  ASSERT_EQ(options.ranks->size(), 2u);
  const Timeline grouped = in_groups(run, options, 1);
  const Timeline whole = open_timeline(run, options);
  expect_same_timeline(grouped, whole);
  ASSERT_NE(grouped.origin_in_run_ns(), 0);  // the starts were moved
  EXPECT_EQ(grouped.memory_bytes(), whole.memory_bytes());
  // (The same bytes: the table of whole starts as long as the whole open's.)
  bool long_call = false;
  int64_t first = INT64_MAX, last = INT64_MIN;
  for (std::size_t l = 0; l < whole.lanes().size(); ++l) {
    first = std::min(first, whole.lanes()[l].start_ns);
    last = std::max(last, whole.lanes()[l].end_ns);
    for (uint32_t d = 0; d <= whole.lanes()[l].max_depth; ++d) {
      const Timeline::DepthView v = whole.depth_view(l, d);
      for (std::size_t i = 0; i < v.calls; ++i)
        long_call = long_call || v.end(i) - v.start(i) >= (int64_t{1} << 32);
    }
  }
  EXPECT_TRUE(long_call);
  EXPECT_GT(last - first,
            int64_t{1} << 40);  // a group where a depth ends and the next begins is wide
}

// The errors of a whole open, in its order: a rank that is not in the run
// (named by its place in the list), a rank whose calls do not nest, no call.
TEST(TimelineInGroups, fails_as_the_whole_open_fails) {
  std::vector<SliceSpec> slices = {
      {"step", 0, {{0, 100}, {200, 300}}, {}},
      {"step", 1, {{0, 100}}, {}},
      {"io", 1, {{50, 150}}, {}},  // overlaps rank 1's step without nesting
      {"step", 2, {{10, 20}}, {}},
  };
  const scope_speedscope::Run run = make_run(slices);
  auto message = [](auto&& open) {
    try {
      open();
    } catch (const Error& e) {
      return std::string(e.what()) + " | field " + e.field() + " " + std::to_string(e.index());
    }
    return std::string("opened");
  };
  const std::vector<std::vector<int64_t>> lists = {{0, 7}, {2, 1, 7}, {7, 1}, {0, 2}};
  int failed = 0;
  for (const auto& ranks : lists) {
    TimelineOptions options;
    options.ranks = ranks;
    const std::string whole = message([&] { open_timeline(run, options); });
    for (const uint64_t group_calls : {uint64_t{1}, uint64_t{1} << 40}) {
      EXPECT_EQ(message([&] { in_groups(run, options, group_calls); }), whole)
          << "ranks " << ranks.size() << ", groups of " << group_calls;
    }
    failed += whole != "opened";
  }
  EXPECT_EQ(failed, 3);
  TimelineOptions none;
  none.include = std::vector<std::string>{"nothing"};
  EXPECT_EQ(message([&] { in_groups(run, none, 1); }), message([&] { open_timeline(run, none); }));
  // Another file's order is refused, not used.
  RunOrder wrong = order_of(run);
  wrong.region_keys.pop_back();
  const ReadRanks read = [&](const std::vector<int64_t>& ranks) { return held_only(run, ranks); };
  EXPECT_THROW(open_timeline_in_groups(held_only(run, {}), read, wrong, {}, 1), Error);
}

}  // namespace
}  // namespace scope_speedscope::test
