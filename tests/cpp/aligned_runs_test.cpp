// AlignedRuns against a naive model: on seeded pairs of random runs (several
// ranks and lanes; B slowed down, a region renamed, other runs with other
// call counts), each bar of B carries the ratio of its calls' durations to
// their partners' in A (lane by name, region by name, k by start then depth).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "compare/aligned_runs.hpp"
#include "test_support.hpp"
#include "timeline_model.hpp"

namespace scope_speedscope::test {
namespace {

using Key = std::tuple<std::string, std::string, uint64_t>;  // lane, region, k

// Each call's (lane name, region name, k) -> its duration, and per lane per
// depth the keys of its calls in time order.
struct Numbered {
  std::map<Key, int64_t> duration;
  std::map<std::string, std::vector<std::vector<Key>>> by_depth;
};

Numbered numbered(const Model& m) {
  Numbered out;
  for (const ModelLane& lane : m.lanes) {
    if (out.by_depth.count(lane.name)) continue;  // a lane shown twice
    std::vector<const ModelCall*> calls;
    for (const auto& c : lane.calls) calls.push_back(&c);
    std::stable_sort(calls.begin(), calls.end(), [](const ModelCall* x, const ModelCall* y) {
      return std::tie(x->s, x->depth) < std::tie(y->s, y->depth);
    });
    std::map<int32_t, uint64_t> k;
    std::map<const ModelCall*, Key> key_of;
    for (const ModelCall* c : calls) {
      const Key key{lane.name, m.frames[c->frame], k[c->frame]++};
      out.duration[key] = c->e - c->s;
      key_of[c] = key;
    }
    auto& depths = out.by_depth[lane.name];
    depths.assign(max_depth(lane) + 1, {});
    for (const auto& c : lane.calls) depths[c.depth].push_back(key_of[&c]);  // time order a depth
  }
  return out;
}

void expect_aligned(const AlignedRuns& runs, const Model& ma, const Model& mb,
                    std::mt19937_64& rng) {
  const Numbered a = numbered(ma), b = numbered(mb);
  const Timeline& tb = runs.b();
  for (std::size_t lane = 0; lane < tb.lanes().size(); ++lane) {
    const auto& depths = b.by_depth.at(tb.lanes()[lane].name);
    const int64_t end = tb.lanes()[lane].end_ns + 2;
    for (int round = 0; round < 6; ++round) {
      const int64_t s = static_cast<int64_t>(rng() % static_cast<uint64_t>(end)) - 1;
      const int64_t z =
          round == 0 ? end : s + 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(end));
      const auto width = static_cast<uint32_t>(1 + rng() % 300);
      AlignedRuns::Bars got;
      runs.aligned(lane, round == 0 ? -1 : s, z, width, got);
      ASSERT_EQ(got.ratio.size(), got.bars.size());
      for (std::size_t i = 0; i < got.bars.size(); ++i) {
        const uint32_t d = got.bars.depth[i];
        const Timeline::DepthView v = tb.depth_view(lane, d);
        const std::size_t first = got.bars.first[i];
        ASSERT_EQ(v.start[first], got.bars.start[i]);
        ASSERT_EQ(v.end[first + got.bars.count[i] - 1], got.bars.end[i]);
        double sb = 0, sa = 0;
        for (std::size_t c = first; c < first + got.bars.count[i]; ++c) {
          const Key& key = depths[d][c];
          const auto partner = a.duration.find(key);
          if (partner == a.duration.end()) continue;
          sb += static_cast<double>(b.duration.at(key));
          sa += static_cast<float>(partner->second);
        }
        const double want =
            got.bars.count[i] == 1
                ? (sa == 0 && sb == 0 && a.duration.count(depths[d][first]) == 0 ? std::nan("")
                                                                                 : sb / sa)
                : (sa == 0 && sb == 0 ? std::nan("") : sb / sa);
        if (std::isnan(want)) {
          EXPECT_TRUE(std::isnan(got.ratio[i])) << "lane " << lane << " item " << i;
        } else {
          EXPECT_EQ(got.ratio[i], want) << "lane " << lane << " item " << i;
        }
      }
    }
  }
}

void expect_same_rows(const std::vector<RegionDelta>& got, const std::vector<RegionDelta>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].name, want[i].name);
    EXPECT_EQ(got[i].a.calls, want[i].a.calls);
    EXPECT_EQ(got[i].a.total_ns, want[i].a.total_ns);
    EXPECT_EQ(got[i].a.self_ns, want[i].a.self_ns);
    EXPECT_EQ(got[i].b.calls, want[i].b.calls);
    EXPECT_EQ(got[i].b.total_ns, want[i].b.total_ns);
    EXPECT_EQ(got[i].b.self_ns, want[i].b.self_ns);
    EXPECT_EQ(got[i].delta_self_pct, want[i].delta_self_pct);
  }
}

scope_speedscope::Run slowed(const scope_speedscope::Run& a) {
  scope_speedscope::Run b = a;
  const int64_t t0 = *run_origin_ns(a);
  for (auto* column : {&b.start_ns, &b.end_ns})
    for (int64_t& t : *column) t = t0 + (t - t0) * 5 / 4;
  for (Region& region : b.regions)
    if (region.name == "r1") region.name = "r9";
  return b;
}

TEST(AlignedRuns, bars_carry_the_ratio_to_their_partners_in_a) {
  for (unsigned seed = 71; seed < 77; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    const int ranks = 1 + static_cast<int>(seed % 3);
    std::vector<int64_t> all;
    for (int r = 0; r < ranks; ++r) all.push_back(r);
    TimelineOptions o;
    o.ranks = all;
    const scope_speedscope::Run a =
        random_run(rng, ranks, 2 + static_cast<int>(seed % 2), 600, 4, 10, 30);
    const scope_speedscope::Run b = slowed(a);
    const Timeline ta = open_timeline(a, o), tb = open_timeline(b, o);
    expect_aligned(AlignedRuns(ta, tb), model_of(a, all), model_of(b, all), rng);
    const scope_speedscope::Run c = random_run(rng, ranks, 3, 500, 5, 12, 20);
    const Timeline tc = open_timeline(c, o);
    expect_aligned(AlignedRuns(ta, tc), model_of(a, all), model_of(c, all), rng);
    // The regions from the timelines are compare_regions' from the runs.
    CompareOptions co;
    co.ranks = all;
    expect_same_rows(AlignedRuns(ta, tc).regions(), compare_regions(a, c, co));
    expect_same_rows(AlignedRuns(ta, tb).regions(), compare_regions(a, b, co));
  }
}

TEST(AlignedRuns, a_run_slowed_everywhere_is_slower_by_its_factor) {
  std::mt19937_64 rng(5);
  const scope_speedscope::Run a = random_run(rng, 2, 1, 800, 3, 6, 1000);
  scope_speedscope::Run b = a;
  const int64_t t0 = *run_origin_ns(a);
  for (auto* column : {&b.start_ns, &b.end_ns})
    for (int64_t& t : *column) t = t0 + (t - t0) * 2;
  TimelineOptions o;
  o.ranks = std::vector<int64_t>{0, 1};
  const Timeline ta = open_timeline(a, o), tb = open_timeline(b, o);
  const AlignedRuns runs(ta, tb);
  EXPECT_EQ(runs.partner_lanes(), (std::vector<int64_t>{0, 1}));
  AlignedRuns::Bars got;
  runs.aligned(0, -1, runs.b().lanes()[0].end_ns + 1, 5, got);
  ASSERT_GT(got.bars.size(), 0u);
  for (double r : got.ratio) EXPECT_TRUE(std::isnan(r) || r == 2.0) << r;  // 0/0 for zero-length
  EXPECT_THROW(runs.aligned(2, 0, 10, 5, got), Error);
}

}  // namespace
}  // namespace scope_speedscope::test
