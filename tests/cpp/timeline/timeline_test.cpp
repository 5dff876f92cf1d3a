// The timeline (src/core/timeline.*): every query against a naive model (a
// plain loop over all calls of the reconstruction) on seeded random runs,
// and lanes, frames and times against the exported document of every
// fixture case with one input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "export/export.hpp"
#include "read/h5_reader.hpp"
#include "reconstruct/calls.hpp"
#include "test_support.hpp"
#include "timeline/timeline.hpp"
#include "timeline_model.hpp"

namespace scope_speedscope::test {
namespace {

void expect_bars_equal(const Timeline::Bars& got, const Timeline::Bars& want,
                       const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(got.depth[i], want.depth[i]) << what << " item " << i;
    ASSERT_EQ(got.start[i], want.start[i]) << what << " item " << i;
    ASSERT_EQ(got.end[i], want.end[i]) << what << " item " << i;
    ASSERT_EQ(got.frame[i], want.frame[i]) << what << " item " << i;
    ASSERT_EQ(got.count[i], want.count[i]) << what << " item " << i;
  }
}

// The rules of bars, checked on their own (not only through the model).
void expect_bars_rules(const Timeline::Bars& got, const ModelLane& lane, int64_t a, int64_t z,
                       uint32_t width, const std::string& what) {
  const Wide span = Wide{z} - Wide{a};
  std::map<uint32_t, uint64_t> counted, items;
  std::set<std::tuple<uint32_t, int64_t, int64_t, int32_t, uint32_t>> all;
  for (std::size_t i = 0; i < got.size(); ++i) {
    all.insert({got.depth[i], got.start[i], got.end[i], got.frame[i], got.count[i]});
    counted[got.depth[i]] += got.count[i];
    ++items[got.depth[i]];
    if (i > 0 && got.depth[i] == got.depth[i - 1]) {
      ASSERT_LE(got.end[i - 1], got.start[i]) << what << ": items overlap at " << i;
    }
    ASSERT_GE(got.count[i], 1u);
  }
  std::map<uint32_t, uint64_t> overlapping;
  for (const ModelCall& c : lane.calls) {
    if (!overlaps(c, a, z)) continue;
    ++overlapping[c.depth];
    if ((Wide{c.e} - Wide{c.s}) * width >= span) {  // a call of a pixel or more is its own item
      const bool found = all.count({c.depth, c.s, c.e, c.frame, 1u}) == 1;
      ASSERT_TRUE(found) << what << ": call [" << c.s << ", " << c.e << ") has no item";
    }
  }
  ASSERT_EQ(counted, overlapping) << what << ": counts";
  for (const auto& [d, n] : items) ASSERT_LE(n, 2u * width + 4) << what << " depth " << d;
}

std::string window_text(std::size_t lane, int64_t a, int64_t z, uint32_t w) {
  return "lane " + std::to_string(lane) + " [" + std::to_string(a) + ", " + std::to_string(z) +
         ") width " + std::to_string(w);
}

struct RandomCase {
  int ranks, lanes, calls, regions, depth;
  int64_t step;
  unsigned seed;
};

class TimelineRandom : public ::testing::TestWithParam<RandomCase> {};

TEST_P(TimelineRandom, every_query_matches_the_model) {
  const RandomCase rc = GetParam();
  std::mt19937_64 rng(rc.seed);
  const scope_speedscope::Run run =
      random_run(rng, rc.ranks, rc.lanes, rc.calls, rc.regions, rc.depth, rc.step);
  std::vector<int64_t> ranks;
  for (int r = 0; r < rc.ranks; ++r) ranks.push_back(r);
  if (rc.ranks > 1) ranks.push_back(0);  // a rank listed twice: two lanes each
  TimelineOptions options;
  options.ranks = ranks;
  const Timeline tl = open_timeline(run, options);
  const Model m = model_of(run, ranks);

  ASSERT_EQ(tl.frames(), m.frames);
  ASSERT_EQ(tl.origin_ns(), m.origin);
  ASSERT_EQ(tl.lanes().size(), m.lanes.size());
  for (std::size_t l = 0; l < m.lanes.size(); ++l) {
    const auto& info = tl.lanes()[l];
    const auto& ml = m.lanes[l];
    EXPECT_EQ(info.name, ml.name);
    EXPECT_EQ(info.calls, ml.calls.size());
    EXPECT_EQ(info.max_depth, max_depth(ml));
    EXPECT_EQ(info.start_ns, ml.calls.front().s);
    int64_t latest = ml.calls.front().e;
    for (const auto& c : ml.calls) latest = std::max(latest, c.e);
    EXPECT_EQ(info.end_ns, latest);
    // The columns: each depth's calls in time order.
    for (uint32_t d = 0; d <= info.max_depth; ++d) {
      const Timeline::DepthView v = tl.depth_view(l, d);
      std::size_t k = 0;
      for (const auto& c : ml.calls) {
        if (c.depth != d) continue;
        ASSERT_LT(k, v.calls);
        ASSERT_EQ(v.start(k), c.s);
        ASSERT_EQ(v.end(k), c.e);
        ASSERT_EQ(v.frame(k), c.frame);
        ASSERT_EQ(tl.self_ns(l, d, k), c.self) << "lane " << l << " depth " << d << " call " << k;
        ++k;
      }
      ASSERT_EQ(k, v.calls);
    }
  }

  int64_t run_end = 0;
  for (const auto& info : tl.lanes()) run_end = std::max(run_end, info.end_ns);
  std::uniform_int_distribution<int64_t> instant(-5, run_end + 5);
  const uint32_t widths[] = {1, 2, 3, 7, 64, 1000, 4096};
  for (int round = 0; round < 60; ++round) {
    const std::size_t lane = rng() % m.lanes.size();
    int64_t a, z;
    switch (round % 5) {
      case 0:
        a = 0;
        z = run_end + 1;
        break;  // the whole run
      case 1:
        a = instant(rng);
        z = a + 1;
        break;  // one nanosecond
      case 2:
        a = instant(rng);
        z = a + 1 + static_cast<int64_t>(rng() % 50);
        break;
      case 3:
        a = -100;
        z = instant(rng) + 200;
        break;                                                       // past the edges
      default: a = instant(rng); z = std::max(a + 1, instant(rng));  // anything
    }
    const uint32_t width =
        round % 3 == 0 ? widths[rng() % 7] : 1 + static_cast<uint32_t>(rng() % 4096);
    const std::string what = window_text(lane, a, z, width);
    const Timeline::Bars got = tl.bars(lane, a, z, width);
    expect_bars_equal(got, model_bars(m.lanes[lane], a, z, width), what);
    expect_bars_rules(got, m.lanes[lane], a, z, width, what);
    // rows: where each depth's items start, found by scanning for it.
    ASSERT_EQ(got.rows.size(), max_depth(m.lanes[lane]) + 2u) << what;
    for (uint32_t d = 0; d + 1 < got.rows.size(); ++d) {
      std::size_t first = got.size(), n = 0;
      for (std::size_t i = 0; i < got.size(); ++i) {
        if (got.depth[i] != d) continue;
        first = std::min(first, i);
        ++n;
      }
      if (n) {
        EXPECT_EQ(got.rows[d], first) << what << " depth " << d;
      }
      EXPECT_EQ(got.rows[d + 1] - got.rows[d], n) << what << " depth " << d;
    }

    const int64_t t = instant(rng);
    const auto stack = tl.stack_at(lane, t);
    const auto want_stack = model_stack(m.lanes[lane], t);
    ASSERT_EQ(stack.size(), want_stack.size()) << "stack at " << t;
    for (std::size_t i = 0; i < stack.size(); ++i) {
      EXPECT_EQ(stack[i].frame, want_stack[i].frame);
      EXPECT_EQ(stack[i].start_ns, want_stack[i].start_ns);
      EXPECT_EQ(stack[i].end_ns, want_stack[i].end_ns);
      EXPECT_EQ(stack[i].depth, want_stack[i].depth);
      EXPECT_EQ(stack[i].self_ns, want_stack[i].self_ns);
    }

    std::vector<std::size_t> chosen;
    if (round % 2 == 1) {
      for (std::size_t l = 0; l < m.lanes.size(); ++l) {
        if (rng() % 2) chosen.push_back(l);
      }
    }
    std::vector<std::size_t> model_lanes = chosen;
    if (model_lanes.empty()) {
      for (std::size_t l = 0; l < m.lanes.size(); ++l) model_lanes.push_back(l);
    }
    const auto regions = tl.regions(a, z, chosen);
    const auto want_regions = model_regions(m, a, z, model_lanes);
    ASSERT_EQ(regions.size(), want_regions.size()) << "regions " << what;
    for (std::size_t i = 0; i < regions.size(); ++i) {
      EXPECT_EQ(regions[i].frame, want_regions[i].frame) << what;
      EXPECT_EQ(regions[i].calls, want_regions[i].calls) << what;
      EXPECT_EQ(regions[i].total_ns, want_regions[i].total_ns)
          << what << " frame " << regions[i].frame;
      EXPECT_EQ(regions[i].self_ns, want_regions[i].self_ns)
          << what << " frame " << regions[i].frame;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    seeded, TimelineRandom,
    ::testing::Values(RandomCase{1, 1, 200, 3, 8, 5, 1}, RandomCase{1, 1, 2000, 5, 40, 3, 2},
                      RandomCase{2, 4, 500, 4, 12, 10, 3}, RandomCase{1, 6, 300, 2, 6, 1, 4},
                      RandomCase{3, 3, 800, 7, 200, 20, 5}, RandomCase{1, 1, 3000, 1, 3, 1000, 6},
                      RandomCase{1, 2, 1500, 6, 1000, 2, 7}, RandomCase{2, 1, 50, 3, 4, 0, 8},
                      RandomCase{1, 1, 5000, 4, 16, 7, 9}, RandomCase{1, 8, 400, 5, 30, 50, 10},
                      // Times of milliseconds: groups of 256 starts spanning
                      // 2^32 ns and more (held whole) beside groups within it.
                      RandomCase{1, 1, 4000, 3, 10, 8'000'000, 11},
                      RandomCase{2, 2, 2000, 4, 6, 60'000'000, 12}));

// window_within against its rule, searched naively: the widest half-width
// around the middle that fits, [m, m + 1) when none does.
TEST(Timeline, window_within_is_the_widest_centred_window_that_fits) {
  std::mt19937_64 rng(24);
  const scope_speedscope::Run run = random_run(rng, 2, 3, 400, 5, 6, 3);
  TimelineOptions options;
  options.ranks = std::vector<int64_t>{0, 1};
  const Timeline tl = open_timeline(run, options);
  const Model m = model_of(run, {0, 1});
  std::vector<std::size_t> all_lanes;
  for (std::size_t l = 0; l < m.lanes.size(); ++l) all_lanes.push_back(l);
  auto count = [&](int64_t a, int64_t z) {
    uint64_t n = 0;
    for (const auto& r : model_regions(m, a, z, all_lanes)) n += r.calls;
    return n;
  };
  int64_t run_end = 0;
  for (const auto& info : tl.lanes()) run_end = std::max(run_end, info.end_ns);
  int tried_fits = 0, tried_narrow = 0;
  for (int round = 0; round < 40; ++round) {
    const int64_t a = static_cast<int64_t>(rng() % static_cast<uint64_t>(run_end));
    const int64_t z = a + 1 + static_cast<int64_t>(rng() % 700);
    const uint64_t all = count(a, z);
    const uint64_t budget = round % 4 == 0 ? all : all / 2;
    const Timeline::Window got = tl.window_within(a, z, budget);
    EXPECT_EQ(tl.calls_in(a, z), all);
    if (all <= budget) {
      ++tried_fits;
      EXPECT_EQ(got.start_ns, a);
      EXPECT_EQ(got.end_ns, z);
      EXPECT_EQ(got.calls, all);
      continue;
    }
    ++tried_narrow;
    const int64_t mid = (a + z) / 2;
    Timeline::Window want{mid, mid + 1, count(mid, mid + 1)};
    for (int64_t h = (z - a + 1) / 2 - 1; h >= 1; --h) {
      const int64_t lo = std::max(a, mid - h), hi = std::min(z, mid + h);
      if (count(lo, hi) <= budget) {
        want = Timeline::Window{lo, hi, count(lo, hi)};
        break;
      }
    }
    EXPECT_EQ(got.start_ns, want.start_ns) << a << ":" << z << " budget " << budget;
    EXPECT_EQ(got.end_ns, want.end_ns) << a << ":" << z << " budget " << budget;
    EXPECT_EQ(got.calls, want.calls);
  }
  EXPECT_GT(tried_fits, 5);
  EXPECT_GT(tried_narrow, 20);
}

TEST(Timeline, pinned_example) {
  // outer=(0,100), inner=(10,40),(50,90), leaf=(15,20), tick=(50,50)
  const scope_speedscope::Run run = make_run({{"outer", 0, {{0, 100}}},
                                              {"inner", 0, {{10, 40}, {50, 90}}},
                                              {"leaf", 0, {{15, 20}}},
                                              {"tick", 0, {{50, 50}}}});
  const Timeline tl = open_timeline(run);
  ASSERT_EQ(tl.frames(), (std::vector<std::string>{"outer", "inner", "leaf", "tick"}));
  ASSERT_EQ(tl.lanes().size(), 1u);
  EXPECT_EQ(tl.lanes()[0].name, "rank 0");
  EXPECT_EQ(tl.lanes()[0].max_depth, 2u);
  // Width 10 over [0, 100): a pixel is 10 ns; leaf (5 ns) and tick are blocks.
  const Timeline::Bars b = tl.bars(0, 0, 100, 10);
  ASSERT_EQ(b.size(), 5u);
  EXPECT_EQ(b.start, (std::vector<int64_t>{0, 10, 50, 15, 50}));
  EXPECT_EQ(b.end, (std::vector<int64_t>{100, 40, 90, 20, 50}));
  EXPECT_EQ(b.depth, (std::vector<uint32_t>{0, 1, 1, 2, 2}));
  EXPECT_EQ(b.frame, (std::vector<int32_t>{0, 1, 1, 2, 3}));
  EXPECT_EQ(b.count, (std::vector<uint32_t>{1, 1, 1, 1, 1}));
  EXPECT_EQ(b.rows, (std::vector<uint32_t>{0, 1, 3, 5}));
  EXPECT_EQ(tl.run_end_ns(), 101);  // outer ends at 100
  EXPECT_EQ(tl.bars(0, 95, 100, 10).rows, (std::vector<uint32_t>{0, 1, 1, 1}));
  // One pixel of 100 ns: everything at depth 1 and 2 merges.
  const Timeline::Bars one = tl.bars(0, 0, 100, 1);
  EXPECT_EQ(one.count, (std::vector<uint32_t>{1, 2, 2}));
  EXPECT_EQ(one.frame, (std::vector<int32_t>{0, 1, -1}));
  const auto stack = tl.stack_at(0, 50);
  ASSERT_EQ(stack.size(), 3u);
  EXPECT_EQ(stack[0].self_ns, 100 - 30 - 40);
  EXPECT_EQ(stack[1].self_ns, 40);
  EXPECT_EQ(stack[2].frame, 3);
  const auto regions = tl.regions(30, 60);
  ASSERT_EQ(regions.size(), 3u);  // outer, inner, tick (leaf ends at 20)
  EXPECT_EQ(regions[0].total_ns, 30);
  EXPECT_EQ(regions[0].self_ns, 30 - 10 - 10);
  EXPECT_EQ(regions[1].calls, 2u);
  EXPECT_EQ(regions[1].total_ns, 20);
  EXPECT_EQ(regions[2].calls, 1u);
  EXPECT_EQ(regions[2].total_ns, 0);
}

// A call keeps its duration in 32 bits; a longer one (2^32 - 1 ns and up)
// keeps its end in the table of long calls: both give back the same ends.
TEST(Timeline, calls_of_4_seconds_and_more_keep_their_ends) {
  constexpr int64_t fits = (int64_t{1} << 32) - 2, at_limit = (int64_t{1} << 32) - 1;
  const int64_t a_end = fits, b_end = a_end + at_limit, c_end = b_end + (int64_t{5} << 32);
  const scope_speedscope::Run run =
      make_run({{"outer", 0, {{0, c_end + 7}}},
                {"inner", 0, {{0, a_end}, {a_end, b_end}, {b_end, c_end}}},
                {"leaf", 0, {{b_end, b_end + 3}}}});
  const Timeline tl = open_timeline(run);
  const Timeline::DepthView outer = tl.depth_view(0, 0), inner = tl.depth_view(0, 1);
  ASSERT_EQ(outer.calls, 1u);
  EXPECT_EQ(outer.end(0), c_end + 7);
  ASSERT_EQ(inner.calls, 3u);
  EXPECT_EQ(inner.end(0), a_end);
  EXPECT_EQ(inner.end(1), b_end);
  EXPECT_EQ(inner.end(2), c_end);
  EXPECT_EQ(inner.frame(2), 1);
  EXPECT_EQ(tl.depth_view(0, 2).end(0), b_end + 3);
  EXPECT_EQ(tl.lanes()[0].end_ns, c_end + 7);
  const Timeline::Bars bars = tl.bars(0, 0, c_end + 8, 4096);
  EXPECT_EQ(bars.end, (std::vector<int64_t>{c_end + 7, a_end, b_end, c_end, b_end + 3}));
  EXPECT_EQ(tl.self_ns(0, 1, 2), c_end - b_end - 3);
  EXPECT_EQ(tl.self_ns(0, 0, 0), 7);
  const auto stack = tl.stack_at(0, b_end + 1);
  ASSERT_EQ(stack.size(), 3u);
  EXPECT_EQ(stack[1].end_ns, c_end);
  const auto regions = tl.regions(0, c_end + 8);
  ASSERT_EQ(regions.size(), 3u);
  EXPECT_EQ(regions[1].total_ns, c_end);
  EXPECT_EQ(regions[1].self_ns, c_end - 3);
}

// Starts are 32 bits from their group's least start; a group spanning 2^32
// ns or more holds them whole. Each gives back the starts it was given: a
// group of calls 1 ms apart, one of calls 100 s apart, and one crossing
// from depth 0 to depth 1 (its starts go back in time).
TEST(Timeline, starts_come_back_exact_from_narrow_and_wide_groups) {
  std::vector<std::pair<int64_t, int64_t>> outer, inner;
  int64_t t = 5;
  for (int i = 0; i < 300; ++i, t += 1'000'000) outer.emplace_back(t, t + 999'999);
  for (int i = 0; i < 300; ++i, t += 100'000'000'000) outer.emplace_back(t, t + 7);
  for (int i = 0; i < 40; ++i) inner.emplace_back(outer[i].first + 3, outer[i].first + 9);
  const scope_speedscope::Run run = make_run({{"outer", 0, outer}, {"inner", 0, inner}});
  const Timeline tl = open_timeline(run);
  const int64_t origin = tl.origin_ns();
  const Timeline::DepthView top = tl.depth_view(0, 0), below = tl.depth_view(0, 1);
  ASSERT_EQ(top.calls, outer.size());
  for (std::size_t i = 0; i < outer.size(); ++i) {
    ASSERT_EQ(top.start(i) + origin, outer[i].first) << "call " << i;
    ASSERT_EQ(top.end(i) + origin, outer[i].second) << "call " << i;
  }
  ASSERT_EQ(below.calls, inner.size());
  for (std::size_t i = 0; i < inner.size(); ++i) {
    ASSERT_EQ(below.start(i) + origin, inner[i].first) << "call " << i;
  }
  // A query over the wide groups finds its calls by their starts.
  const int64_t at = outer[450].first - origin;
  const auto stack = tl.stack_at(0, at + 3);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_EQ(stack[0].start_ns, at);
  const Timeline::Bars bars = tl.bars(0, at, at + 8, 8);
  ASSERT_EQ(bars.size(), 1u);
  EXPECT_EQ(bars.start[0], at);
  EXPECT_EQ(bars.end[0], at + 7);
  // 640 calls: 12 bytes each, 3 groups' bases, and the whole starts of the
  // groups that span 2^32 ns (positions 256-511 and 512-639: 384 starts).
  const std::size_t columns = 640 * 12 + 3 * 8 + 384 * 8;
  EXPECT_GE(tl.memory_bytes(), columns);
  EXPECT_LE(tl.memory_bytes(), columns + 2048);
}

TEST(Timeline, origin_in_run_counts_from_the_files_first_call_whatever_is_selected) {
  // rank 0 starts at 1000, rank 1 at 1300 with "late" first at 1450.
  const scope_speedscope::Run run = make_run(
      {{"early", 0, {{1000, 1100}}}, {"mid", 1, {{1300, 1400}}}, {"late", 1, {{1450, 1500}}}});
  EXPECT_EQ(open_timeline(run).origin_in_run_ns(), 0);
  TimelineOptions rank1;
  rank1.ranks = std::vector<int64_t>{1};
  const Timeline one = open_timeline(run, rank1);
  EXPECT_EQ(one.origin_ns(), 1300);
  EXPECT_EQ(one.origin_in_run_ns(), 300);
  rank1.include = std::vector<std::string>{"late"};
  EXPECT_EQ(open_timeline(run, rank1).origin_in_run_ns(), 450);
}

TEST(Timeline, recursion_adds_every_call_to_the_total) {
  // A region's total is the sum of its calls' durations, as diff counts it:
  // fib inside fib adds its 80 and 20; self stays the time of no child.
  const scope_speedscope::Run run = make_run({{"fib", 0, {{0, 100}, {10, 90}, {60, 80}}}});
  const Timeline tl = open_timeline(run);
  const auto r = tl.regions(0, 100);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].calls, 3u);
  EXPECT_EQ(r[0].total_ns, 200);
  EXPECT_EQ(r[0].self_ns, 100);
  const auto cut = tl.regions(50, 70);
  ASSERT_EQ(cut.size(), 1u);
  EXPECT_EQ(cut[0].total_ns, 20 + 20 + 10);
  EXPECT_EQ(cut[0].self_ns, 20);
  const auto imb = tl.imbalance(0, 100);  // covered: the union, 100
  ASSERT_EQ(imb.size(), 1u);
  EXPECT_EQ(imb[0].max_ns, 100);
}

TEST(Timeline, bad_arguments_are_errors) {
  const scope_speedscope::Run run = make_run({{"a", 0, {{0, 10}}}});
  const Timeline tl = open_timeline(run);
  auto code_of = [](auto&& fn) {
    try {
      fn();
    } catch (const Error& e) {
      return std::string(e.code());
    }
    return std::string("none");
  };
  EXPECT_EQ(code_of([&] { tl.bars(1, 0, 10, 10); }), "bad_argument");
  EXPECT_EQ(code_of([&] { tl.bars(0, 10, 10, 10); }), "bad_argument");
  EXPECT_EQ(code_of([&] { tl.bars(0, 0, 10, 0); }), "bad_argument");
  EXPECT_EQ(code_of([&] { tl.bars(0, 0, 10, kTimelineMaxWidth + 1); }), "bad_argument");
  EXPECT_EQ(code_of([&] { tl.bars(0, 0, 10, kTimelineMaxWidth); }), "none");
  EXPECT_EQ(code_of([&] { tl.stack_at(1, 0); }), "bad_argument");
  EXPECT_EQ(code_of([&] { tl.regions(5, 4); }), "bad_argument");
  EXPECT_EQ(code_of([&] { tl.regions(0, 4, {3}); }), "bad_argument");
}

// 12 bytes a call of columns and 8 a group of 256 starts, a byte for each
// frame change and 8 bytes for 256 calls (this random run changes frame at
// 4 calls in 5, the worst a run gets) and the summaries (this run's 5
// regions in most chunks: 32 bytes each per 256 calls).
TEST(Timeline, memory_held_is_within_14_bytes_a_call) {
  std::mt19937_64 rng(11);
  const scope_speedscope::Run run = random_run(rng, 1, 4, 50000, 5, 20, 10);
  const Timeline tl = open_timeline(run);
  uint64_t calls = 0;
  for (const auto& l : tl.lanes()) calls += l.calls;
  EXPECT_LE(tl.memory_bytes(), 14 * calls)
      << tl.memory_bytes() << " bytes for " << calls << " calls";
  EXPECT_GE(tl.memory_bytes(), 12 * calls);  // it counts the columns
}

// ---- against the exported document of the fixtures ----------------------------------

class TimelineFixture : public ::testing::TestWithParam<Case> {};

TEST_P(TimelineFixture, lanes_frames_and_times_are_the_documents) {
  const Case& c = GetParam();
  ExportOptions eo;
  eo.ranks = c.ranks;
  eo.include = c.include;
  eo.exclude = c.exclude;
  eo.verbose = false;
  TimelineOptions to;
  // The export's ranks (its default [0] named: a timeline's default opens
  // the ranks a file has when it has no rank 0; select/job_test.cpp).
  to.ranks = c.ranks ? c.ranks : std::vector<int64_t>{0};
  to.include = c.include;
  to.exclude = c.exclude;

  std::optional<scope_speedscope::Run> run;
  std::string read_error;
  try {
    run.emplace(read_run(c.inputs[0]));
  } catch (const Error& e) {
    read_error = e.what();
  }
  if (!run) {
    EXPECT_TRUE(c.is_error) << read_error;
    return;  // the same reader as every other path
  }
  CollectTarget target;
  std::string export_error, export_code, timeline_error, export_field, timeline_field;
  try {
    export_speedscope({*run}, c.filepath, eo, target);
  } catch (const Error& e) {
    export_error = e.what();
    export_code = e.code();
    export_field = e.field();
  }
  std::optional<Timeline> tl;
  try {
    tl.emplace(open_timeline(scope_speedscope::Run(*run), to));  // its columns taken over
  } catch (const Error& e) {
    timeline_error = e.what();
    timeline_field = e.field();
  }
  if (!export_error.empty() && export_code != "empty_output_name") {
    EXPECT_EQ(timeline_error, export_error);
    EXPECT_EQ(timeline_field, export_field);
    return;
  }
  ASSERT_TRUE(timeline_error.empty()) << timeline_error;
  ASSERT_EQ(target.docs.size(), 1u);
  const nlohmann::json doc = nlohmann::json::parse(target.docs[0].text);
  std::vector<std::string> frames;
  for (const auto& f : doc["shared"]["frames"]) frames.push_back(f["name"].get<std::string>());
  ASSERT_EQ(tl->frames(), frames);
  const auto& profiles = doc["profiles"];
  ASSERT_EQ(tl->lanes().size(), profiles.size());
  const double origin = static_cast<double>(tl->origin_ns()) / 1e9;
  auto at_of = [&](int64_t rel) {  // how the document computes `at`
    return static_cast<double>(tl->origin_ns() + rel) / 1e9 - origin;
  };
  for (std::size_t l = 0; l < profiles.size(); ++l) {
    const auto& p = profiles[l];
    const auto& info = tl->lanes()[l];
    EXPECT_EQ(info.name, p["name"].get<std::string>());
    // The document's calls by depth, from its events.
    struct DocCall {
      int32_t frame;
      double open, close;
    };
    std::vector<std::vector<DocCall>> by_depth;
    std::vector<std::pair<std::size_t, std::size_t>> stack;  // depth, index
    uint64_t calls = 0;
    for (const auto& ev : p["events"]) {
      const double at = ev["at"].get<double>();
      const int32_t frame = ev["frame"].get<int32_t>();
      if (ev["type"] == "O") {
        const std::size_t d = stack.size();
        if (by_depth.size() <= d) by_depth.resize(d + 1);
        by_depth[d].push_back(DocCall{frame, at, 0});
        stack.push_back({d, by_depth[d].size() - 1});
        ++calls;
      } else {
        by_depth[stack.back().first][stack.back().second].close = at;
        stack.pop_back();
      }
    }
    ASSERT_EQ(info.calls, calls);
    ASSERT_EQ(info.max_depth + 1, by_depth.size());
    EXPECT_EQ(at_of(info.start_ns), p["startValue"].get<double>());
    EXPECT_EQ(at_of(info.end_ns), p["endValue"].get<double>());
    for (uint32_t d = 0; d < by_depth.size(); ++d) {
      const Timeline::DepthView v = tl->depth_view(l, d);
      ASSERT_EQ(v.calls, by_depth[d].size()) << "depth " << d;
      for (std::size_t k = 0; k < v.calls; ++k) {
        ASSERT_EQ(v.frame(k), by_depth[d][k].frame);
        ASSERT_EQ(at_of(v.start(k)), by_depth[d][k].open) << "depth " << d << " call " << k;
        ASSERT_EQ(at_of(v.end(k)), by_depth[d][k].close);
        // start / 1e9 is the event's `at` up to the document's rounding.
        ASSERT_NEAR(static_cast<double>(v.start(k)) / 1e9, by_depth[d][k].open,
                    1e-15 * (std::abs(static_cast<double>(tl->origin_ns())) / 1e9 + 1) * 4 + 1e-12);
      }
    }
  }
}

// The cases a timeline opens: one input, no narrowing.
std::vector<Case> timeline_cases() {
  std::vector<Case> out;
  for (const Case& c : all_cases()) {
    if (c.inputs.size() == 1 && !c.min_duration && !c.time_window) out.push_back(c);
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(cases, TimelineFixture, ::testing::ValuesIn(timeline_cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return case_test_name(info.param);
                         });

}  // namespace
}  // namespace scope_speedscope::test
