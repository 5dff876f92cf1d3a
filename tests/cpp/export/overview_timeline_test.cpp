// overview_timeline: the overview of an open timeline's calls, from its
// columns, is overview_run's of the run with the timeline's ranks and
// filters, field for field, at once and in slices (TimelineOverview): on every readable one-file
// fixture case (every rank, and one rank of several) and on seeded random runs of several ranks and
// lanes, for seeded bin counts.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "export/overview.hpp"
#include "test_support.hpp"
#include "timeline/timeline.hpp"
#include "timeline_model.hpp"

namespace scope_speedscope::test {
namespace {

void expect_overview_eq(const Overview& got, const Overview& want) {
  EXPECT_EQ(got.calls, want.calls);
  EXPECT_EQ(got.origin_ns, want.origin_ns);
  EXPECT_EQ(got.first_start_ns, want.first_start_ns);
  EXPECT_EQ(got.last_end_ns, want.last_end_ns);
  EXPECT_EQ(got.first_edge_ns, want.first_edge_ns);
  EXPECT_EQ(got.bin_width_ns, want.bin_width_ns);
  EXPECT_EQ(got.starts, want.starts);
  EXPECT_EQ(got.ends, want.ends);
  EXPECT_EQ(got.duration_counts, want.duration_counts);
}

// The same overview a slice of `calls` at a time: each step bins exactly
// that many more calls (the last one the rest), and only the last says so.
void expect_same_in_slices(const Timeline& tl, std::size_t bins, const Overview& want,
                           uint64_t calls) {
  SCOPED_TRACE("slices of " + std::to_string(calls) + " calls");
  TimelineOverview job(tl, bins);
  EXPECT_EQ(job.total(), want.calls);
  uint64_t steps = 0;
  while (true) {
    const uint64_t before = job.done();
    const bool done = job.step(calls);
    ++steps;
    EXPECT_EQ(job.done(), std::min(before + calls, want.calls));
    EXPECT_EQ(done, job.done() == want.calls);
    if (done || steps > want.calls + 1) break;
  }
  EXPECT_EQ(steps, want.calls == 0 ? 1 : (want.calls + calls - 1) / calls);
  EXPECT_TRUE(job.step(calls));  // once done, done
  expect_overview_eq(job.overview(), want);
}

void expect_same_overview(const scope_speedscope::Run& run, const std::vector<int64_t>& ranks,
                          const Patterns& include, const Patterns& exclude, std::size_t bins) {
  SCOPED_TRACE("bins " + std::to_string(bins) + ", " + std::to_string(ranks.size()) + " ranks");
  TimelineOptions to;
  to.ranks = ranks;
  to.include = include;
  to.exclude = exclude;
  const Timeline tl = open_timeline(run, to);
  const Overview want = overview_run(run, ranks, include, exclude, bins);
  expect_overview_eq(overview_timeline(tl, bins), want);
  for (uint64_t calls : {uint64_t{1}, uint64_t{7}, uint64_t{1000}})
    expect_same_in_slices(tl, bins, want, calls);
}

TEST(OverviewTimeline, seeded_runs_some_ranks_and_filters) {
  for (unsigned seed = 71; seed < 79; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    const scope_speedscope::Run run = random_run(rng, 1 + static_cast<int>(seed % 4),
                                                 1 + static_cast<int>(seed % 3), 300, 4, 8, 20);
    const std::vector<int64_t> all = run_ranks(run);
    for (std::size_t bins : {std::size_t{1}, std::size_t{7}, std::size_t{200}}) {
      expect_same_overview(run, all, std::nullopt, std::nullopt, bins);
      expect_same_overview(run, {all.back()}, std::nullopt, std::nullopt, bins);
      expect_same_overview(run, all, std::vector<std::string>{"r[01]"}, std::nullopt, bins);
    }
    expect_same_overview(run, {all.front(), all.front()}, std::nullopt, std::nullopt, 50);
  }
}

class OverviewTimelineFixture : public ::testing::TestWithParam<Case> {};

TEST_P(OverviewTimelineFixture, the_timelines_overview_is_the_files) {
  const Case& c = GetParam();
  const scope_speedscope::Run run = read_run(c.inputs[0]);
  std::vector<int64_t> ranks = run_ranks(run);
  ASSERT_FALSE(ranks.empty() || c.outputs.empty()) << "a case with no calls to open";
  if (ranks.back() >= run.num_ranks) {
    // Only gap_s1 holds calls on a rank scope-profiler cannot export (its
    // schema 1 counts rank groups): the ranks it can export are compared.
    EXPECT_EQ(c.name, "gap_s1");
    while (!ranks.empty() && ranks.back() >= run.num_ranks) ranks.pop_back();
    ASSERT_FALSE(ranks.empty());
  }
  expect_same_overview(run, ranks, c.include, c.exclude, 200);
  if (ranks.size() > 1) expect_same_overview(run, {ranks.front()}, c.include, c.exclude, 37);
}

std::vector<Case> one_file_cases() {
  std::vector<Case> out;
  for (const Case& c : all_cases())
    if (c.inputs.size() == 1 && !c.is_error) out.push_back(c);
  return out;
}

INSTANTIATE_TEST_SUITE_P(cases, OverviewTimelineFixture, ::testing::ValuesIn(one_file_cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return case_test_name(info.param);
                         });

}  // namespace
}  // namespace scope_speedscope::test
