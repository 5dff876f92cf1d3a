// compare_regions against a naive model (the spec's own reconstruction,
// each call's self time its duration less its direct children's) on seeded
// pairs of random runs of several ranks and lanes: a region slowed by a
// factor, one added, one removed, different call counts; pinned numbers of
// the fixture pair (make_pair.py) and the errors.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "compare/compare.hpp"
#include "read/h5_reader.hpp"
#include "test_support.hpp"
#include "timeline_model.hpp"

namespace scope_speedscope::test {
namespace {

std::map<std::string, RegionTotals> model_totals(const scope_speedscope::Run& run,
                                                 const std::vector<int64_t>& ranks) {
  const Model m = model_of(run, ranks);
  std::map<std::string, RegionTotals> out;
  for (const auto& lane : m.lanes) {
    for (const auto& c : lane.calls) {
      RegionTotals& t = out[m.frames[c.frame]];
      ++t.calls;
      t.total_ns += c.e - c.s;
      t.self_ns += c.self;
    }
  }
  return out;
}

void expect_model(const std::vector<RegionDelta>& got, const scope_speedscope::Run& a,
                  const scope_speedscope::Run& b, const std::vector<int64_t>& ranks) {
  const auto ta = model_totals(a, ranks), tb = model_totals(b, ranks);
  std::map<std::string, RegionDelta> want;
  for (const auto& [name, t] : ta) want[name].a = t;
  for (const auto& [name, t] : tb) want[name].b = t;
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    const RegionDelta& g = got[i];
    SCOPED_TRACE(g.name);
    ASSERT_EQ(want.count(g.name), 1u);
    const RegionDelta& w = want[g.name];
    EXPECT_EQ(g.a.calls, w.a.calls);
    EXPECT_EQ(g.a.total_ns, w.a.total_ns);
    EXPECT_EQ(g.a.self_ns, w.a.self_ns);
    EXPECT_EQ(g.b.calls, w.b.calls);
    EXPECT_EQ(g.b.total_ns, w.b.total_ns);
    EXPECT_EQ(g.b.self_ns, w.b.self_ns);
    EXPECT_EQ(g.delta_total_ns, w.b.total_ns - w.a.total_ns);
    EXPECT_EQ(g.delta_self_ns, w.b.self_ns - w.a.self_ns);
    if (w.a.self_ns == 0) {
      EXPECT_FALSE(g.delta_self_pct.has_value());
    } else {
      ASSERT_TRUE(g.delta_self_pct.has_value());
      EXPECT_EQ(*g.delta_self_pct, 100.0 * static_cast<double>(w.b.self_ns - w.a.self_ns) /
                                       static_cast<double>(w.a.self_ns));
    }
    if (w.a.total_ns == 0) {
      EXPECT_FALSE(g.delta_total_pct.has_value());
    } else {
      ASSERT_TRUE(g.delta_total_pct.has_value());
      EXPECT_EQ(*g.delta_total_pct, 100.0 * static_cast<double>(w.b.total_ns - w.a.total_ns) /
                                        static_cast<double>(w.a.total_ns));
    }
    if (i > 0) {
      EXPECT_TRUE(got[i - 1].delta_self_ns > g.delta_self_ns ||
                  (got[i - 1].delta_self_ns == g.delta_self_ns && got[i - 1].name < g.name));
    }
  }
}

// Run B: run A slowed down by 3/2 (every time stretched from the first
// start: the calls still nest), r1 renamed r9 (removed in B, added there).
scope_speedscope::Run changed(const scope_speedscope::Run& a) {
  scope_speedscope::Run b = a;
  const int64_t t0 = *run_origin_ns(a);
  for (auto* column : {&b.start_ns, &b.end_ns})
    for (int64_t& t : *column) t = t0 + (t - t0) * 3 / 2;
  for (Region& region : b.regions)
    if (region.name == "r1") region.name = "r9";
  return b;
}

TEST(Compare, seeded_pairs_match_the_model) {
  for (unsigned seed = 61; seed < 67; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    const int ranks = 1 + static_cast<int>(seed % 3);
    const scope_speedscope::Run a =
        random_run(rng, ranks, 1 + static_cast<int>(seed % 2), 300, 4, 8, 50);
    const scope_speedscope::Run b = changed(a);
    std::vector<int64_t> all;
    for (int r = 0; r < ranks; ++r) all.push_back(r);
    CompareOptions o;
    o.ranks = all;
    expect_model(compare_regions(a, b, o), a, b, all);
    // Deeper runs, compared as they are and against another seed's run.
    const scope_speedscope::Run c = random_run(rng, ranks, 2, 400, 5, 12, 20);
    const scope_speedscope::Run d = random_run(rng, ranks, 2, 500, 6, 12, 20);
    expect_model(compare_regions(c, d, o), c, d, all);
    o.ranks = std::vector<int64_t>{0, 0};  // a rank listed twice counts once
    expect_model(compare_regions(c, d, o), c, d, {0});
  }
}

TEST(Compare, the_fixture_pair_worked_out_by_hand) {
  const scope_speedscope::Run a = read_run(shared_dir() + "/h5/pair_a_s3.h5");
  const scope_speedscope::Run b = read_run(shared_dir() + "/h5/pair_b_s3.h5");
  CompareOptions o;
  o.ranks = std::vector<int64_t>{0, 1};
  const std::vector<RegionDelta> rows = compare_regions(a, b, o);
  std::vector<std::string> names;
  for (const auto& r : rows) names.push_back(r.name);
  EXPECT_EQ(names, (std::vector<std::string>{"kernel", "solve", "exchange", "halo", "step", "io"}));
  EXPECT_EQ(rows[1].a.self_ns, 1600);
  EXPECT_EQ(rows[1].b.self_ns, 2500);
  EXPECT_EQ(rows[1].a.total_ns, 4800);
  EXPECT_EQ(rows[1].b.total_ns, 7500);
  EXPECT_EQ(*rows[1].delta_self_pct, 56.25);
  EXPECT_EQ(rows[3].a.calls, 0u);
  EXPECT_FALSE(rows[3].delta_self_pct.has_value());
  EXPECT_EQ(rows[5].b.calls, 0u);
  EXPECT_EQ(*rows[5].delta_self_pct, -100.0);
  EXPECT_FALSE(rows[4].delta_self_pct.has_value());  // step: no self time in A
}

TEST(Compare, errors_blame_the_file) {
  const scope_speedscope::Run a = read_run(shared_dir() + "/h5/pair_a_s3.h5");
  const scope_speedscope::Run b = read_run(shared_dir() + "/h5/hdf5-schema-3.h5");
  CompareOptions o;
  o.ranks = std::vector<int64_t>{1};
  try {
    compare_regions(a, b, o);
    FAIL() << "compared";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), "invalid_rank");
    EXPECT_EQ(e.file(), b.path);
  }
  o.ranks.reset();
  o.include = std::vector<std::string>{"no such region"};
  try {
    compare_regions(a, b, o);
    FAIL() << "compared";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), "no_regions_matched");
    EXPECT_EQ(e.field(), "include");
  }
}

}  // namespace
}  // namespace scope_speedscope::test
