// What a rank's band shows (Timeline::band_frames, band_depth) against
// models written from their definitions (a loop over every call a pixel),
// on seeded random runs and on a pinned one.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "text/messages.hpp"
#include "timeline/timeline.hpp"
#include "timeline_model.hpp"

namespace scope_speedscope::test {
namespace {

// Per pixel [pa, pz) (busy's pixels), its middle instant pa + (pz - pa) / 2
// (pa when empty); the frame of the deepest call at depth <= depth covering
// it on the first lane, in the order given, with one; -1 without.
std::vector<int32_t> model_band_frames(const Model& m, const std::vector<std::size_t>& lanes,
                                       uint32_t depth, int64_t a, int64_t z, uint32_t width) {
  std::vector<int32_t> out(width, -1);
  for (uint32_t p = 0; p < width; ++p) {
    const auto pa = static_cast<int64_t>(a + (Wide{z} - a) * p / width);
    const auto pz = static_cast<int64_t>(a + (Wide{z} - a) * (p + 1) / width);
    const int64_t mid = pz > pa ? static_cast<int64_t>(pa + (Wide{pz} - pa) / 2) : pa;
    for (std::size_t l : lanes) {
      const ModelCall* best = nullptr;
      for (const ModelCall& c : m.lanes[l].calls) {
        if (c.depth > depth || c.s > mid || covered_end(c) <= mid) continue;
        if (best == nullptr || c.depth > best->depth) best = &c;
      }
      if (best != nullptr) {
        out[p] = best->frame;
        break;
      }
    }
  }
  return out;
}

// The first depth without a region spanning the lanes: one whose calls
// at that depth last 95 % of the extent (first start to latest end) times
// the lanes with calls (the deepest depth when every depth has one).
uint32_t model_band_depth(const Model& m, const std::vector<std::size_t>& lanes) {
  int64_t first = INT64_MAX, last = INT64_MIN;
  uint32_t deepest = 0;
  std::size_t busy = 0;
  for (std::size_t l : lanes) {
    if (!m.lanes[l].calls.empty()) ++busy;
    for (const ModelCall& c : m.lanes[l].calls) {
      first = std::min(first, c.s);
      last = std::max(last, c.e);
      deepest = std::max(deepest, c.depth);
    }
  }
  if (busy == 0 || last <= first) return 0;
  const double whole = static_cast<double>(Wide{last} - first) * static_cast<double>(busy);
  for (uint32_t d = 0; d < deepest; ++d) {
    std::map<int32_t, double> time;
    for (std::size_t l : lanes) {
      for (const ModelCall& c : m.lanes[l].calls) {
        if (c.depth == d) time[c.frame] += static_cast<double>(Wide{c.e} - c.s);
      }
    }
    double most = 0;
    for (const auto& [f, t] : time) most = std::max(most, t);
    if (most < 0.95 * whole) return d;
  }
  return deepest;
}

struct BandCase {
  int ranks, lanes, calls, regions, depth;
  int64_t step;
  unsigned seed;
};

class TimelineBandRandom : public ::testing::TestWithParam<BandCase> {};

TEST_P(TimelineBandRandom, frames_and_depth_match_the_model) {
  const BandCase bc = GetParam();
  std::mt19937_64 rng(bc.seed);
  const scope_speedscope::Run run =
      random_run(rng, bc.ranks, bc.lanes, bc.calls, bc.regions, bc.depth, bc.step);
  std::vector<int64_t> ranks;
  for (int r = 0; r < bc.ranks; ++r) ranks.push_back(r);
  TimelineOptions options;
  options.ranks = ranks;
  const Timeline tl = open_timeline(run, options);
  const Model m = model_of(run, ranks);
  ASSERT_EQ(tl.lanes().size(), m.lanes.size());
  int64_t run_end = 0;
  for (const auto& info : tl.lanes()) run_end = std::max(run_end, info.end_ns);
  std::uniform_int_distribution<int64_t> instant(-5, run_end + 5);
  for (int round = 0; round < 30; ++round) {
    // A rank's lanes, or a random choice of lanes in a random order.
    std::vector<std::size_t> lanes;
    if (round % 3 != 2) {
      const auto rank = static_cast<int64_t>(rng() % bc.ranks);
      for (std::size_t l = 0; l < m.lanes.size(); ++l)
        if (m.lanes[l].rank == rank) lanes.push_back(l);
    } else {
      for (std::size_t l = 0; l < m.lanes.size(); ++l)
        if (rng() % 2) lanes.push_back(l);
      if (lanes.empty()) lanes.push_back(0);
      std::shuffle(lanes.begin(), lanes.end(), rng);
    }
    EXPECT_EQ(tl.band_depth(lanes), model_band_depth(m, lanes)) << "band_depth round " << round;
    int64_t a, z;
    switch (round % 4) {
      case 0: a = -1, z = run_end + 2; break;  // the whole run
      case 1: a = instant(rng), z = a + 1; break;
      case 2: a = instant(rng), z = a + 1 + static_cast<int64_t>(rng() % (run_end / 50 + 2)); break;
      default: a = instant(rng), z = std::max(a + 1, instant(rng));
    }
    const auto width = static_cast<uint32_t>(1 + rng() % 900);
    const auto depth = static_cast<uint32_t>(rng() % (bc.depth + 2));
    ASSERT_EQ(tl.band_frames(lanes, depth, a, z, width),
              model_band_frames(m, lanes, depth, a, z, width))
        << "band_frames depth " << depth << " [" << a << ", " << z << ") at " << width << " px";
  }
}

// Zero-length calls and touching calls (step 0 often), deep and shallow
// nesting, threads and tasks.
INSTANTIATE_TEST_SUITE_P(seeded, TimelineBandRandom,
                         ::testing::Values(BandCase{3, 1, 2000, 3, 4, 5, 21},
                                           BandCase{2, 3, 1200, 5, 12, 10, 22},
                                           BandCase{4, 2, 600, 4, 30, 0, 23},
                                           BandCase{1, 4, 1500, 6, 8, 50, 24},
                                           BandCase{2, 1, 40, 2, 3, 1000, 25}));

// main spans the rank; step ⊃ solve, then assemble (steps cover 60 %
// of it): the band shows depth 1.
Run spanned_run() {
  std::vector<SliceSpec> slices;
  slices.push_back(SliceSpec{"main", 0, {{0, 1000}}, {}});
  SliceSpec step{"step", 0, {}, {}};
  SliceSpec solve{"solve", 0, {}, {}};
  SliceSpec assemble{"assemble", 0, {}, {}};
  for (int k = 0; k < 4; ++k) {
    const int64_t t = 100 + 200 * k;
    step.calls.push_back({t, t + 150});
    solve.calls.push_back({t + 10, t + 100});
    assemble.calls.push_back({t + 150, t + 190});
  }
  slices.push_back(step);
  slices.push_back(solve);
  slices.push_back(assemble);
  return make_run(slices, false);
}

TEST(TimelineBand, a_run_inside_main_shows_what_main_does) {
  TimelineOptions options;
  options.ranks = std::vector<int64_t>{0};
  const Timeline tl = open_timeline(spanned_run(), options);
  ASSERT_EQ(tl.frames(), (std::vector<std::string>{"main", "step", "solve", "assemble"}));
  EXPECT_EQ(tl.band_depth({0}), 1u);
  // 10 px over [0, 1000): middles 50, 150, ..., 950; steps start at 100,
  // 300, 500, 700 (150 ns, solve 10 ns in for 90 ns), assemble after each.
  EXPECT_EQ(tl.band_frames({0}, 1, 0, 1000, 10),
            (std::vector<int32_t>{0, 1, 3, 1, 3, 1, 3, 1, 3, 0}));
  EXPECT_EQ(tl.band_frames({0}, 2, 0, 1000, 10),
            (std::vector<int32_t>{0, 2, 3, 2, 3, 2, 3, 2, 3, 0}));
  EXPECT_EQ(tl.band_frames({0}, 0, 0, 1000, 4), (std::vector<int32_t>{0, 0, 0, 0}));
  // Outside the run: nothing.
  EXPECT_EQ(tl.band_frames({0}, 5, 1000, 1100, 2), (std::vector<int32_t>{-1, -1}));
}

// main ⊃ ten back-to-back steps of 100 ns ⊃ solve (60 ns) then exchange:
// main and step both span the rank (step 100 %), so the band shows depth 2;
// with 6 steps of the 10 (60 %), depth 1.
TEST(TimelineBand, a_loop_inside_main_shows_what_each_step_does) {
  for (const int steps : {10, 6}) {
    std::vector<SliceSpec> slices;
    slices.push_back(SliceSpec{"main", 0, {{0, 1000}}, {}});
    SliceSpec step{"step", 0, {}, {}}, solve{"solve", 0, {}, {}}, exchange{"exchange", 0, {}, {}};
    for (int k = 0; k < steps; ++k) {
      step.calls.push_back({100 * k, 100 * k + 100});
      solve.calls.push_back({100 * k, 100 * k + 60});
      exchange.calls.push_back({100 * k + 60, 100 * k + 100});
    }
    for (const SliceSpec& spec : {step, solve, exchange}) slices.push_back(spec);
    TimelineOptions options;
    options.ranks = std::vector<int64_t>{0};
    const Timeline tl = open_timeline(make_run(slices, false), options);
    EXPECT_EQ(tl.band_depth({0}), steps == 10 ? 2u : 1u) << steps << " steps";
  }
}

TEST(TimelineBand, bad_arguments_are_refused) {
  TimelineOptions options;
  options.ranks = std::vector<int64_t>{0};
  const Timeline tl = open_timeline(spanned_run(), options);
  const auto message = [&](auto&& f) {
    try {
      f();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([&] { tl.band_frames({}, 1, 0, 10, 1); }), "bandFrames: no lanes");
  EXPECT_EQ(message([&] { tl.band_depth({}); }), "bandDepth: no lanes");
  EXPECT_NE(message([&] { tl.band_frames({3}, 1, 0, 10, 1); }), "no error");
  EXPECT_NE(message([&] { tl.band_frames({0}, 1, 10, 10, 1); }), "no error");
  EXPECT_NE(message([&] { tl.band_frames({0}, 1, 0, 10, 0); }), "no error");
  EXPECT_NE(message([&] { tl.band_depth({1}); }), "no error");
}

}  // namespace
}  // namespace scope_speedscope::test
