// AlignedRuns against a naive model: on seeded pairs of random runs (several
// ranks and lanes; B slowed down, a region renamed, other runs with other
// call counts), each bar of B carries the ratio of its calls' durations to
// their partners' in A (lane by name, region by name, k by start then depth).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "compare/aligned_runs.hpp"
#include "read/h5_reader.hpp"
#include "test_support.hpp"
#include "timeline_model.hpp"

namespace scope_speedscope::test {
namespace {

constexpr int64_t kOpenStart = std::numeric_limits<int64_t>::min();
constexpr int64_t kOpenEnd = std::numeric_limits<int64_t>::max();

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
        ASSERT_EQ(v.start(first), got.bars.start[i]);
        ASSERT_EQ(v.end(first + got.bars.count[i] - 1), got.bars.end[i]);
        double sb = 0, sa = 0;
        for (std::size_t c = first; c < first + got.bars.count[i]; ++c) {
          const Key& key = depths[d][c];
          const auto partner = a.duration.find(key);
          if (partner == a.duration.end()) continue;
          sb += static_cast<double>(b.duration.at(key));
          sa += static_cast<float>(partner->second);
        }
        const double want = got.bars.count[i] == 1
                                ? (a.duration.count(depths[d][first]) == 0 ? std::nan("")
                                   : sa == 0 && sb == 0 ? 1.0  // zero-length partners
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

// A seeded round's ranks (1 to 3 of them) and the options opening them.
struct SeededRanks {
  std::vector<int64_t> all;
  TimelineOptions options;
  explicit SeededRanks(unsigned seed) {
    for (int r = 0; r < 1 + static_cast<int>(seed % 3); ++r) all.push_back(r);
    options.ranks = all;
  }
};

// fn(seed, rng, ranks, options) for each seed of [first, last), traced.
template <class Fn>
void for_each_seed(unsigned first, unsigned last, Fn&& fn) {
  for (unsigned seed = first; seed < last; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    const SeededRanks sr(seed);
    fn(seed, rng, sr.all, sr.options);
  }
}

TEST(AlignedRuns, bars_carry_the_ratio_to_their_partners_in_a) {
  for_each_seed(71, 77,
                [](unsigned seed, std::mt19937_64& rng, const std::vector<int64_t>& all,
                   const TimelineOptions& o) {
                  const int ranks = static_cast<int>(all.size());
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
                  // Frames of the comparison: B's (r9 for r1), then A's others (r1).
                  const AlignedRuns renamed(ta, tb);
                  std::vector<std::string> want = tb.frames();
                  for (const std::string& name : ta.frames())
                    if (std::find(want.begin(), want.end(), name) == want.end())
                      want.push_back(name);
                  EXPECT_EQ(renamed.frames(), want);
                  EXPECT_NE(std::find(want.begin(), want.end(), "r1"), want.end());
                  for (std::size_t f = 0; f < ta.frames().size(); ++f)
                    EXPECT_EQ(renamed.frames()[renamed.frame_of_a()[f]], ta.frames()[f]);
                });
}

// Each call's partner (AlignedRuns::partner, either way round) is the
// model's call of the same (lane name, region name, k) in the other run,
// and A's bars are NaN exactly where A's call has none in B.
// Counts into `none_seen` A's calls drawn alone without a partner.
void expect_partners(const AlignedRuns& runs, const Model& ma, const Model& mb,
                     std::size_t& none_seen) {
  const Numbered a = numbered(ma), b = numbered(mb);
  for (const bool of_a : {false, true}) {
    const Timeline& own = of_a ? runs.a() : runs.b();
    const Timeline& other = of_a ? runs.b() : runs.a();
    const Numbered& mine = of_a ? a : b;
    const Numbered& theirs = of_a ? b : a;
    for (std::size_t lane = 0; lane < own.lanes().size(); ++lane) {
      const auto& depths = mine.by_depth.at(own.lanes()[lane].name);
      for (uint32_t d = 0; d < depths.size(); ++d) {
        for (std::size_t i = 0; i < depths[d].size(); ++i) {
          const Key& key = depths[d][i];
          const auto got = runs.partner(of_a, lane, d, i);
          SCOPED_TRACE(std::get<0>(key) + " " + std::get<1>(key) + " k " +
                       std::to_string(std::get<2>(key)) + (of_a ? " of A" : " of B"));
          ASSERT_EQ(got.has_value(), theirs.duration.count(key) == 1);
          if (!got) continue;
          EXPECT_EQ(other.lanes()[got->lane].name, std::get<0>(key));
          const auto& there = theirs.by_depth.at(std::get<0>(key));
          EXPECT_EQ(there[got->depth][got->index], key);
          // And back again.
          const auto back = runs.partner(!of_a, got->lane, got->depth, got->index);
          ASSERT_TRUE(back.has_value());
          EXPECT_EQ(own.lanes()[back->lane].name, own.lanes()[lane].name);
          EXPECT_EQ(std::tie(back->depth, back->index), std::tie(d, i));
        }
      }
      if (!of_a) continue;
      AlignedRuns::Bars bars;
      std::size_t alone = 0, none = 0;  // items of one call; of them without a partner
      runs.aligned_a(lane, -1, own.lanes()[lane].end_ns + 2, 16384, bars);
      for (std::size_t k = 0; k < bars.bars.size(); ++k) {
        if (bars.bars.count[k] != 1) continue;
        ++alone;
        const Key& key = depths[bars.bars.depth[k]][bars.bars.first[k]];
        const int64_t mine_ns = a.duration.at(key);
        const auto partner = b.duration.find(key);
        if (partner == b.duration.end()) {
          ++none;
          EXPECT_TRUE(std::isnan(bars.ratio[k])) << k;
        } else if (mine_ns > 0) {
          EXPECT_EQ(bars.ratio[k], static_cast<double>(static_cast<float>(partner->second)) /
                                       static_cast<double>(mine_ns))
              << k;
        }
      }
      EXPECT_GT(alone, depths.size());
      none_seen += none;
    }
  }
  EXPECT_THROW(runs.partner(false, 0, 0, SIZE_MAX), Error);
}

TEST(AlignedRuns, each_call_has_the_models_partner_either_way_round) {
  for_each_seed(81, 85,
                [](unsigned, std::mt19937_64& rng, const std::vector<int64_t>& all,
                   const TimelineOptions& o) {
                  const int ranks = static_cast<int>(all.size());
                  const scope_speedscope::Run a = random_run(rng, ranks, 2, 300, 4, 10, 30);
                  const scope_speedscope::Run b = slowed(a);
                  const scope_speedscope::Run c = random_run(rng, ranks, 3, 250, 5, 12, 20);
                  const Timeline ta = open_timeline(a, o), tb = open_timeline(b, o),
                                 tc = open_timeline(c, o);
                  // B slowed down renames r1: A's r1 calls have no partner in B.
                  std::size_t none = 0;
                  expect_partners(AlignedRuns(ta, tb), model_of(a, all), model_of(b, all), none);
                  EXPECT_GT(none, 0u);
                  expect_partners(AlignedRuns(ta, tc), model_of(a, all), model_of(c, all), none);
                });
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
  EXPECT_EQ(runs.frames(), tb.frames());  // the same regions: B's frames alone
  for (std::size_t f = 0; f < ta.frames().size(); ++f)
    EXPECT_EQ(runs.frames()[runs.frame_of_a()[f]], ta.frames()[f]);
  AlignedRuns::Bars got;
  runs.aligned(0, -1, runs.b().lanes()[0].end_ns + 1, 5, got);
  ASSERT_GT(got.bars.size(), 0u);
  for (std::size_t i = 0; i < got.ratio.size(); ++i) {
    // Zero-length partners are as fast; a block of them alone has no ratio (0 / 0).
    const Timeline::DepthView v = runs.b().depth_view(0, got.bars.depth[i]);
    bool zero = true;
    for (std::size_t c = got.bars.first[i]; c < got.bars.first[i] + got.bars.count[i]; ++c)
      zero = zero && v.start(c) == v.end(c);
    const double r = got.ratio[i];
    EXPECT_TRUE(r == 2.0 || (zero && (r == 1.0 || (got.bars.count[i] > 1 && std::isnan(r))))) << r;
  }
  EXPECT_THROW(runs.aligned(2, 0, 10, 5, got), Error);
}

// The rows over [start, end) of each run, worked out from the model: each
// run's model_regions of the window summed by region name; deltas b - a;
// percentages of a's value (none when it is 0); largest delta self first,
// then by name.
std::vector<RegionDelta> model_window_rows(const Model& ma, const Model& mb, int64_t start,
                                           int64_t end) {
  std::map<std::string, RegionDelta> by_name;
  auto add = [&](const Model& m, bool is_b) {
    std::vector<std::size_t> lanes;
    for (std::size_t l = 0; l < m.lanes.size(); ++l) lanes.push_back(l);
    for (const auto& r : model_regions(m, start, end, lanes)) {
      RegionTotals& t = is_b ? by_name[m.frames[r.frame]].b : by_name[m.frames[r.frame]].a;
      t.calls += r.calls;
      t.total_ns += r.total_ns;
      t.self_ns += r.self_ns;
    }
  };
  add(ma, false);
  add(mb, true);
  std::vector<RegionDelta> out;
  for (auto& [name, row] : by_name) {
    row.name = name;
    row.delta_total_ns = row.b.total_ns - row.a.total_ns;
    row.delta_self_ns = row.b.self_ns - row.a.self_ns;
    if (row.a.self_ns) row.delta_self_pct = 100.0 * row.delta_self_ns / row.a.self_ns;
    if (row.a.total_ns) row.delta_total_pct = 100.0 * row.delta_total_ns / row.a.total_ns;
    out.push_back(row);
  }
  std::sort(out.begin(), out.end(), [](const RegionDelta& x, const RegionDelta& y) {
    return x.delta_self_ns != y.delta_self_ns ? x.delta_self_ns > y.delta_self_ns : x.name < y.name;
  });
  return out;
}

TEST(AlignedRuns, rows_of_a_window_match_the_model) {
  for_each_seed(81, 87,
                [](unsigned, std::mt19937_64& rng, const std::vector<int64_t>& all,
                   const TimelineOptions& o) {
                  const int ranks = static_cast<int>(all.size());
                  const scope_speedscope::Run a = random_run(rng, ranks, 2, 400, 4, 10, 30);
                  const scope_speedscope::Run c = random_run(rng, ranks, 2, 500, 5, 12, 20);
                  const scope_speedscope::Run b = slowed(a);
                  for (const auto* other : {&b, &c}) {
                    const Timeline ta = open_timeline(a, o), tb = open_timeline(*other, o);
                    const AlignedRuns runs(ta, tb);
                    const Model ma = model_of(a, all), mb = model_of(*other, all);
                    int64_t run_end = 0;
                    for (const auto* tl : {&ta, &tb})
                      for (const auto& lane : tl->lanes()) run_end = std::max(run_end, lane.end_ns);
                    std::uniform_int_distribution<int64_t> at(-5, run_end + 5);
                    for (int round = 0; round < 40; ++round) {
                      int64_t x = at(rng), y = at(rng);
                      if (x > y) std::swap(x, y);
                      if (x == y) ++y;
                      SCOPED_TRACE("window " + std::to_string(x) + ":" + std::to_string(y));
                      const auto got = runs.regions(x, y), want = model_window_rows(ma, mb, x, y);
                      expect_same_rows(got, want);
                      for (std::size_t i = 0; i < std::min(got.size(), want.size()); ++i) {
                        EXPECT_EQ(got[i].delta_total_ns, want[i].delta_total_ns);
                        EXPECT_EQ(got[i].delta_self_ns, want[i].delta_self_ns);
                        EXPECT_EQ(got[i].delta_total_pct, want[i].delta_total_pct);
                      }
                    }
                    // Over the whole run: the rows compare_regions (diff) gives.
                    CompareOptions co;
                    co.ranks = all;
                    expect_same_rows(runs.regions(kOpenStart, kOpenEnd),
                                     compare_regions(a, *other, co));
                  }
                });
}

TEST(AlignedRuns, a_region_inside_itself_totals_every_call_as_diff_does) {
  // nested_pair (make_nested_pair.py): kernel inside kernel every 4th step.
  const scope_speedscope::Run a = read_run(shared_dir() + "/h5/nested_pair_a_s3.h5");
  const scope_speedscope::Run b = read_run(shared_dir() + "/h5/nested_pair_b_s3.h5");
  const Timeline ta = open_timeline(a), tb = open_timeline(b);  // rank 0, as diff's default
  const AlignedRuns runs(ta, tb);
  CompareOptions co;
  const auto rows = compare_regions(a, b, co);
  // Frames: B's, then A's others (none here); A's renumbered into them.
  EXPECT_EQ(runs.frames(), tb.frames());
  ASSERT_EQ(runs.frame_of_a().size(), ta.frames().size());
  for (std::size_t f = 0; f < ta.frames().size(); ++f)
    EXPECT_EQ(runs.frames()[runs.frame_of_a()[f]], ta.frames()[f]);
  expect_same_rows(runs.regions(kOpenStart, kOpenEnd), rows);
  expect_same_rows(runs.regions(), rows);
  ASSERT_EQ(rows[0].name, "kernel");
  // The union of kernel's calls (imbalance's covered time) is less: the
  // nested calls are not counted again.
  int64_t covered = -1;
  for (const auto& r : ta.imbalance(kOpenStart, kOpenEnd))
    if (ta.frames()[r.frame] == "kernel") covered = r.max_ns;
  EXPECT_GT(rows[0].a.total_ns, covered);
  EXPECT_EQ(rows[0].a.total_ns, 6717);  // diff --json's "total" of kernel in A
}

}  // namespace
}  // namespace scope_speedscope::test
