// Who waits for whom (Timeline::imbalance, Timeline::aligned_calls) against
// a naive model on seeded random runs of several ranks, lanes and depths,
// and pinned examples whose answers are worked out by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "test_support.hpp"
#include "text/messages.hpp"
#include "timeline/timeline.hpp"
#include "timeline_model.hpp"

namespace scope_speedscope::test {
namespace {

// ---- the model -----------------------------------------------------------------------

std::vector<int64_t> model_ranks(const Model& m) {
  std::vector<int64_t> rs;
  for (const auto& l : m.lanes) rs.push_back(l.rank);
  std::sort(rs.begin(), rs.end());
  rs.erase(std::unique(rs.begin(), rs.end()), rs.end());
  return rs;
}

// A rank's lanes, each distinct lane once (a rank listed twice repeats them).
std::vector<std::size_t> lanes_of(const Model& m, int64_t rank) {
  std::vector<std::size_t> out;
  std::vector<std::string> seen;
  for (std::size_t l = 0; l < m.lanes.size(); ++l) {
    if (m.lanes[l].rank != rank) continue;
    if (std::find(seen.begin(), seen.end(), m.lanes[l].name) != seen.end()) continue;
    seen.push_back(m.lanes[l].name);
    out.push_back(l);
  }
  return out;
}

double model_median(std::vector<int64_t> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  if (n % 2 == 1) return static_cast<double>(v[n / 2]);
  return (static_cast<double>(v[n / 2 - 1]) + static_cast<double>(v[n / 2])) / 2;
}

std::vector<Timeline::RegionImbalance> model_imbalance(const Model& m, int64_t a, int64_t z) {
  const std::vector<int64_t> rs = model_ranks(m);
  std::map<int32_t, std::vector<int64_t>> values;  // frame -> per rank
  for (std::size_t r = 0; r < rs.size(); ++r) {
    for (const auto& [frame, covered] : model_covered(m, a, z, lanes_of(m, rs[r]))) {
      auto& v = values[frame];
      if (v.empty()) v.assign(rs.size(), 0);
      v[r] = covered;
    }
  }
  std::vector<Timeline::RegionImbalance> out;
  for (const auto& [frame, v] : values) {
    Timeline::RegionImbalance row{};
    row.frame = frame;
    row.ranks = static_cast<uint32_t>(rs.size());
    row.min_ns = *std::min_element(v.begin(), v.end());
    row.max_ns = *std::max_element(v.begin(), v.end());
    __int128 sum = 0;
    for (int64_t x : v) sum += x;
    row.mean_ns = static_cast<double>(sum) / static_cast<double>(v.size());
    row.median_ns = model_median(v);
    row.imbalance = row.max_ns > 0 ? (static_cast<double>(row.max_ns) - row.mean_ns) /
                                         static_cast<double>(row.max_ns)
                                   : 0.0;
    for (std::size_t r = 0; r < v.size(); ++r) {
      if (v[r] == row.max_ns) {
        row.slowest_rank = rs[r];
        break;
      }
    }
    out.push_back(row);
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& x, const auto& y) {
    return static_cast<double>(x.max_ns) - x.mean_ns > static_cast<double>(y.max_ns) - y.mean_ns;
  });
  return out;
}

// A rank's calls of a frame in start order, then lane, then depth.
std::vector<ModelCall> numbered_calls(const Model& m, int64_t rank, int32_t frame) {
  std::vector<std::tuple<int64_t, std::size_t, uint32_t, ModelCall>> all;
  const std::vector<std::size_t> lanes = lanes_of(m, rank);
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    for (const ModelCall& c : m.lanes[lanes[i]].calls) {
      if (c.frame == frame) all.emplace_back(c.s, i, c.depth, c);
    }
  }
  std::stable_sort(all.begin(), all.end(), [](const auto& x, const auto& y) {
    return std::tie(std::get<0>(x), std::get<1>(x), std::get<2>(x)) <
           std::tie(std::get<0>(y), std::get<1>(y), std::get<2>(y));
  });
  std::vector<ModelCall> out;
  for (const auto& t : all) out.push_back(std::get<3>(t));
  return out;
}

Timeline::AlignedCalls model_aligned(const Model& m, int32_t frame, int64_t a, int64_t z) {
  Timeline::AlignedCalls out;
  out.ranks = model_ranks(m);
  std::vector<std::vector<ModelCall>> calls;
  for (int64_t r : out.ranks) {
    calls.push_back(numbered_calls(m, r, frame));
    out.counts.push_back(calls.back().size());
  }
  out.common = *std::min_element(out.counts.begin(), out.counts.end());
  for (uint64_t k = 0; k < out.common; ++k) {
    bool wanted = false;
    std::vector<int64_t> starts, durations;
    for (const auto& c : calls) {
      wanted = wanted || (c[k].s >= a && c[k].s < z);
      starts.push_back(c[k].s);
      durations.push_back(c[k].e - c[k].s);
    }
    if (!wanted) continue;
    for (std::size_t r = 0; r < calls.size(); ++r) {
      out.k.push_back(k);
      out.rank.push_back(out.ranks[r]);
      out.start_ns.push_back(calls[r][k].s);
      out.end_ns.push_back(calls[r][k].e);
      out.lateness_ns.push_back(static_cast<double>(starts[r]) - model_median(starts));
      out.excess_ns.push_back(static_cast<double>(durations[r]) - model_median(durations));
    }
  }
  return out;
}

void expect_rows_equal(const std::vector<Timeline::RegionImbalance>& got,
                       const std::vector<Timeline::RegionImbalance>& want,
                       const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < want.size(); ++i) {
    const std::string at = what + " row " + std::to_string(i);
    EXPECT_EQ(got[i].frame, want[i].frame) << at;
    EXPECT_EQ(got[i].ranks, want[i].ranks) << at;
    EXPECT_EQ(got[i].min_ns, want[i].min_ns) << at;
    EXPECT_EQ(got[i].max_ns, want[i].max_ns) << at;
    EXPECT_EQ(got[i].median_ns, want[i].median_ns) << at;
    EXPECT_EQ(got[i].mean_ns, want[i].mean_ns) << at;
    EXPECT_EQ(got[i].imbalance, want[i].imbalance) << at;
    EXPECT_EQ(got[i].slowest_rank, want[i].slowest_rank) << at;
  }
}

void expect_aligned_equal(const Timeline::AlignedCalls& got, const Timeline::AlignedCalls& want,
                          const std::string& what) {
  ASSERT_EQ(got.ranks, want.ranks) << what;
  ASSERT_EQ(got.counts, want.counts) << what;
  ASSERT_EQ(got.common, want.common) << what;
  ASSERT_EQ(got.k, want.k) << what;
  ASSERT_EQ(got.rank, want.rank) << what;
  ASSERT_EQ(got.start_ns, want.start_ns) << what;
  ASSERT_EQ(got.end_ns, want.end_ns) << what;
  ASSERT_EQ(got.lateness_ns, want.lateness_ns) << what;
  ASSERT_EQ(got.excess_ns, want.excess_ns) << what;
}

// Per pixel, the lanes' top-level calls' time within it over its length
// (the instant at its start when it is empty), averaged over the lanes.
std::vector<float> model_busy(const Model& m, const std::vector<std::size_t>& lanes, int64_t a,
                              int64_t z, uint32_t width) {
  std::vector<double> sum(width, 0.0);
  for (std::size_t l : lanes) {
    for (uint32_t p = 0; p < width; ++p) {
      const auto pa = static_cast<int64_t>(a + (Wide{z} - a) * p / width);
      auto pz = static_cast<int64_t>(a + (Wide{z} - a) * (p + 1) / width);
      if (pz == pa) pz = pa + 1;
      Wide ns = 0;
      for (const ModelCall& c : m.lanes[l].calls) {
        if (c.depth != 0) continue;
        const int64_t lo = std::max(c.s, pa), hi = std::min(c.e, pz);
        if (hi > lo) ns += Wide{hi} - lo;
      }
      sum[p] += static_cast<double>(ns) / static_cast<double>(Wide{pz} - pa);
    }
  }
  std::vector<float> out(width);
  for (uint32_t p = 0; p < width; ++p) out[p] = static_cast<float>(sum[p] / lanes.size());
  return out;
}

// ---- seeded random runs --------------------------------------------------------------

struct RanksCase {
  int ranks, lanes, calls, regions, depth;
  int64_t step;
  unsigned seed;
};

class TimelineRanksRandom : public ::testing::TestWithParam<RanksCase> {};

TEST_P(TimelineRanksRandom, imbalance_and_aligned_calls_match_the_model) {
  const RanksCase rc = GetParam();
  std::mt19937_64 rng(rc.seed);
  const scope_speedscope::Run run =
      random_run(rng, rc.ranks, rc.lanes, rc.calls, rc.regions, rc.depth, rc.step);
  std::vector<int64_t> ranks;
  for (int r = rc.ranks - 1; r >= 0; --r) ranks.push_back(r);  // any order; listed twice below
  if (rc.ranks > 1) ranks.push_back(1);
  TimelineOptions options;
  options.ranks = ranks;
  const Timeline tl = open_timeline(run, options);
  const Model m = model_of(run, ranks);
  ASSERT_EQ(tl.ranks(), model_ranks(m));
  for (std::size_t l = 0; l < m.lanes.size(); ++l) EXPECT_EQ(tl.lanes()[l].rank, m.lanes[l].rank);

  int64_t run_end = 0;
  for (const auto& info : tl.lanes()) run_end = std::max(run_end, info.end_ns);
  std::uniform_int_distribution<int64_t> instant(-5, run_end + 5);
  Timeline::AlignedCalls reused;
  for (int round = 0; round < 40; ++round) {
    int64_t a, z;
    switch (round % 4) {
      case 0: a = -1, z = run_end + 2; break;      // the whole run
      case 1: a = instant(rng), z = a + 1; break;  // one nanosecond
      case 2: a = instant(rng), z = a + 1 + static_cast<int64_t>(rng() % (run_end / 50 + 2)); break;
      default: a = instant(rng), z = std::max(a + 1, instant(rng));
    }
    const std::string what = "[" + std::to_string(a) + ", " + std::to_string(z) + ")";
    expect_rows_equal(tl.imbalance(a, z), model_imbalance(m, a, z), "imbalance " + what);
    const auto frame = static_cast<int32_t>(rng() % tl.frames().size());
    const Timeline::AlignedCalls want = model_aligned(m, frame, a, z);
    expect_aligned_equal(tl.aligned_calls(frame, a, z), want,
                         "aligned_calls frame " + std::to_string(frame) + " " + what);
    // Asked into the answer of every round before (larger, smaller, empty).
    tl.aligned_calls(frame, a, z, reused);
    expect_aligned_equal(
        reused, want,
        "aligned_calls into a reused answer, frame " + std::to_string(frame) + " " + what);
    const std::vector<int64_t> rs = model_ranks(m);
    const std::vector<std::size_t> lanes = lanes_of(m, rs[rng() % rs.size()]);
    const auto width = static_cast<uint32_t>(1 + rng() % 700);
    ASSERT_EQ(tl.busy(lanes, a, z, width), model_busy(m, lanes, a, z, width))
        << "busy " << what << " at " << width << " px";
  }
}

// Enough calls a depth for whole chunks (256 calls) on every rank, and runs
// where a frame is nested in itself (its covered time counts the outermost).
INSTANTIATE_TEST_SUITE_P(
    seeded, TimelineRanksRandom,
    ::testing::Values(RanksCase{3, 1, 3000, 3, 4, 5, 11}, RanksCase{4, 3, 1500, 5, 12, 10, 12},
                      RanksCase{2, 1, 6000, 1, 3, 2, 13}, RanksCase{5, 2, 800, 4, 30, 0, 14},
                      RanksCase{1, 4, 2000, 6, 8, 50, 15}, RanksCase{6, 1, 2500, 2, 2, 3, 16},
                      RanksCase{3, 6, 600, 7, 100, 20, 17}));

// alignedCalls of every frame of a run of ranks 0 .. ranks - 1, asked into
// one reused answer, against the model: over the whole run, then in 19
// random windows of up to `max_span` ns.
void expect_aligned_rounds(const scope_speedscope::Run& run, int ranks, std::mt19937_64& rng,
                           uint64_t max_span) {
  std::vector<int64_t> all;
  for (int r = 0; r < ranks; ++r) all.push_back(r);
  TimelineOptions options;
  options.ranks = all;
  const Timeline tl = open_timeline(run, options);
  const Model m = model_of(run, all);
  int64_t run_end = 0;
  for (const auto& info : tl.lanes()) run_end = std::max(run_end, info.end_ns);
  Timeline::AlignedCalls reused;
  for (int round = 0; round < 20; ++round) {
    const int64_t a = round == 0 ? 0 : static_cast<int64_t>(rng() % (run_end + 1));
    const int64_t z = round == 0 ? run_end + 1 : a + 1 + static_cast<int64_t>(rng() % max_span);
    for (int32_t frame = 0; frame < static_cast<int32_t>(tl.frames().size()); ++frame) {
      const std::string what = std::to_string(ranks) + " ranks, frame " + std::to_string(frame) +
                               " [" + std::to_string(a) + ", " + std::to_string(z) + ")";
      tl.aligned_calls(frame, a, z, reused);
      expect_aligned_equal(reused, model_aligned(m, frame, a, z), what);
    }
  }
}

// Flat runs (no call inside another, one lane a rank): each region's calls
// lie at one depth of one lane, so the walk scans that slot instead of
// choosing among slots call by call; the same answers as the model.
TEST(TimelineRanks, aligned_calls_of_flat_runs_match_the_model) {
  std::mt19937_64 rng(19);
  for (int ranks = 1; ranks <= 5; ++ranks) {
    std::vector<SliceSpec> slices;
    for (int r = 0; r < ranks; ++r) {
      std::map<int, SliceSpec> by_region;
      int64_t t = static_cast<int64_t>(rng() % 50);
      const int calls = 300 + static_cast<int>(rng() % 700);
      for (int c = 0; c < calls; ++c) {
        const int region = static_cast<int>(rng() % 3);
        const int64_t d = 1 + static_cast<int64_t>(rng() % 40);
        auto& spec = by_region[region];
        spec.region = "r" + std::to_string(region);
        spec.rank = r;
        spec.calls.push_back({t, t + d});
        t += d + 1 + static_cast<int64_t>(rng() % 20);
      }
      for (auto& [region, spec] : by_region) slices.push_back(spec);
    }
    expect_aligned_rounds(make_run(slices, false), ranks, rng, 3000);
  }
}

// Regions each alone at their depth (`step` at depth 0 holding `inner`,
// which holds `leaf`), over more than one block of 1,024 k: the walk copies
// the slot's calls without looking at their frames; the same answers as
// the model, whole and in random windows.
TEST(TimelineRanks, aligned_calls_of_regions_alone_at_their_depth_match_the_model) {
  std::mt19937_64 rng(23);
  for (int ranks = 1; ranks <= 4; ++ranks) {
    std::vector<SliceSpec> slices;
    for (int r = 0; r < ranks; ++r) {
      SliceSpec step{"step", r, {}, {}}, inner{"inner", r, {}, {}}, leaf{"leaf", r, {}, {}};
      int64_t t = static_cast<int64_t>(rng() % 50);
      const int steps = 1100 + static_cast<int>(rng() % 1500);
      for (int c = 0; c < steps; ++c) {
        const int64_t d = 10 + static_cast<int64_t>(rng() % 40);
        step.calls.push_back({t, t + d});
        if (rng() % 3 != 0) {
          inner.calls.push_back({t + 2, t + d - 2});
          if (rng() % 2 == 0) leaf.calls.push_back({t + 3, t + 5});
        }
        t += d + static_cast<int64_t>(rng() % 5);
      }
      slices.push_back(step);
      slices.push_back(inner);
      slices.push_back(leaf);
    }
    expect_aligned_rounds(make_run(slices, false), ranks, rng, 60000);
  }
}

// ---- pinned examples -----------------------------------------------------------------

// Rank r runs `step` three times, each lasting 10 * (r + 1) ns, back to
// back from t = 0 (rank 2 is the slowest); rank 1 also runs `io` once.
Run three_ranks() {
  std::vector<SliceSpec> slices;
  for (int r = 0; r < 3; ++r) {
    SliceSpec step{"step", r, {}, {}};
    const int64_t d = 10 * (r + 1);
    for (int k = 0; k < 3; ++k) step.calls.push_back({1000 + k * d, 1000 + (k + 1) * d});
    slices.push_back(step);
  }
  slices.push_back(SliceSpec{"io", 1, {{2000, 2005}}, {}});
  return make_run(slices, false);
}

TEST(TimelineRanks, imbalance_of_a_pinned_run) {
  TimelineOptions options;
  options.ranks = std::vector<int64_t>{0, 1, 2};
  const Timeline tl = open_timeline(three_ranks(), options);
  ASSERT_EQ(tl.frames(), (std::vector<std::string>{"step", "io"}));
  const auto rows = tl.imbalance(0, 2000);
  ASSERT_EQ(rows.size(), 2u);
  // step: 30, 60, 90 ns; mean 60; (90 - 60) / 90.
  EXPECT_EQ(rows[0].frame, 0);
  EXPECT_EQ(rows[0].ranks, 3u);
  EXPECT_EQ(rows[0].min_ns, 30);
  EXPECT_EQ(rows[0].max_ns, 90);
  EXPECT_EQ(rows[0].median_ns, 60.0);
  EXPECT_EQ(rows[0].mean_ns, 60.0);
  EXPECT_DOUBLE_EQ(rows[0].imbalance, 1.0 / 3.0);
  EXPECT_EQ(rows[0].slowest_rank, 2);
  // io: 0, 5, 0 ns on ranks 0, 1, 2.
  EXPECT_EQ(rows[1].frame, 1);
  EXPECT_EQ(rows[1].min_ns, 0);
  EXPECT_EQ(rows[1].max_ns, 5);
  EXPECT_EQ(rows[1].median_ns, 0.0);
  EXPECT_DOUBLE_EQ(rows[1].mean_ns, 5.0 / 3.0);
  EXPECT_EQ(rows[1].slowest_rank, 1);
  // A window cuts the calls: [25, 35) holds 5 ns of step on rank 0 (of its
  // third call, 20-30), 10 on rank 1 (20-40) and 5 + 5 on rank 2 (0-30, 30-60).
  const auto cut = tl.imbalance(25, 35);
  ASSERT_EQ(cut.size(), 1u);
  EXPECT_EQ(cut[0].min_ns, 5);
  EXPECT_EQ(cut[0].max_ns, 10);
  EXPECT_EQ(cut[0].slowest_rank, 1);  // the lowest rank holding the max
}

TEST(TimelineRanks, aligned_calls_of_a_pinned_run) {
  TimelineOptions options;
  options.ranks = std::vector<int64_t>{2, 0, 1};
  const Timeline tl = open_timeline(three_ranks(), options);
  // The only call starting in [25, 35) is rank 2's k = 1 (30-60); k = 1 on
  // ranks 0 and 1 starts at 10 and 20. Times are from the origin (t = 1000).
  const auto got = tl.aligned_calls(0, 25, 35);
  EXPECT_EQ(got.ranks, (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(got.counts, (std::vector<uint64_t>{3, 3, 3}));
  EXPECT_EQ(got.common, 3u);
  EXPECT_EQ(got.k, (std::vector<uint64_t>{1, 1, 1}));
  EXPECT_EQ(got.rank, (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(got.start_ns, (std::vector<int64_t>{10, 20, 30}));
  EXPECT_EQ(got.end_ns, (std::vector<int64_t>{20, 40, 60}));
  EXPECT_EQ(got.lateness_ns, (std::vector<double>{-10, 0, 10}));
  EXPECT_EQ(got.excess_ns, (std::vector<double>{-10, 0, 10}));
}

// Rank 2 runs step [1000, 1030), [1030, 1060), [1060, 1090): busy all
// along; at 8 px over [1000, 1100) the last pixel is [1087, 1100): 3 of 13 ns.
TEST(TimelineRanks, busy_of_a_pinned_run) {
  TimelineOptions options;
  options.ranks = std::vector<int64_t>{0, 1, 2};
  const Timeline tl = open_timeline(three_ranks(), options);
  const int64_t o = 1000 - tl.origin_ns();  // the run's t = 1000 in the timeline's terms
  const std::vector<float> b = tl.busy({2}, o, o + 100, 8);
  const std::vector<float> want = {1, 1, 1, 1, 1, 1, 1, 3.0f / 13.0f};
  EXPECT_EQ(b, want);
  // Rank 0 ([1000, 1030)) and rank 2 together over [1000, 1040) at 2 px:
  // (1 + 1) / 2 and (10/20 + 1) / 2.
  EXPECT_EQ(tl.busy({0, 2}, o, o + 40, 2), (std::vector<float>{1.0f, 0.75f}));
  EXPECT_THROW(tl.busy({}, o, o + 40, 2), Error);
  EXPECT_THROW(tl.busy({3}, o, o + 40, 2), Error);
  EXPECT_THROW(tl.busy({0}, o, o, 2), Error);
  EXPECT_THROW(tl.busy({0}, o, o + 1, 0), Error);
}

TEST(TimelineRanks, bad_arguments_are_errors) {
  TimelineOptions options;
  options.ranks = std::vector<int64_t>{0, 1};
  const Timeline tl = open_timeline(three_ranks(), options);
  auto message_of = [](auto&& fn) {
    try {
      fn();
    } catch (const Error& e) {
      return std::string(e.code()) + ": " + e.what();
    }
    return std::string("none");
  };
  EXPECT_EQ(message_of([&] { tl.imbalance(5, 5); }),
            "bad_argument: imbalance: end (5) must be after start (5)");
  EXPECT_EQ(message_of([&] { tl.aligned_calls(2, 0, 10); }),
            "bad_argument: alignedCalls: frame 2 is out of range (the timeline has 2 frames)");
  EXPECT_EQ(message_of([&] { tl.aligned_calls(-1, 0, 10); }),
            "bad_argument: alignedCalls: frame -1 is out of range (the timeline has 2 frames)");
  EXPECT_EQ(message_of([&] { tl.aligned_calls(0, 0, 10); }), "none");
  // An answer asked into again is cleared by a refused question.
  Timeline::AlignedCalls answer;
  tl.aligned_calls(0, 0, 100, answer);
  ASSERT_GT(answer.size(), 0u);
  EXPECT_EQ(message_of([&] { tl.aligned_calls(0, 10, 10, answer); }),
            "bad_argument: alignedCalls: end (10) must be after start (10)");
  EXPECT_EQ(answer.size(), 0u);
  EXPECT_TRUE(answer.ranks.empty() && answer.counts.empty() && answer.common == 0);
}

}  // namespace
}  // namespace scope_speedscope::test
