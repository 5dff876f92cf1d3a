// narrow: the option grammar, the keep/clip rule, the overview of a selection
// and the suggested narrowing. (The exported bytes of narrowed runs are
// checked in cases_test.cpp and cli_test.cpp against the Python model.)
#include <gtest/gtest.h>

#include <random>

#include "export/export.hpp"
#include "export/narrow.hpp"
#include "test_support.hpp"

namespace scope_speedscope::test {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return std::string(e.kind_name()) + " [" + e.field() + "] " + e.what();
  }
  return "no error";
}

// ---- grammar ----------------------------------------------------------------------

TEST(narrow, times_in_seconds_or_with_a_unit) {
  EXPECT_EQ(parse_time_ns("1e-4", true), 100000);
  EXPECT_EQ(parse_time_ns("0.5", true), 500000000);
  EXPECT_EQ(parse_time_ns(".25", true), 250000000);
  EXPECT_EQ(parse_time_ns("2", true), 2000000000);
  EXPECT_EQ(parse_time_ns("2.", true), 2000000000);
  EXPECT_EQ(parse_time_ns("3e+2", true), 300000000000);
  EXPECT_EQ(parse_time_ns("1E3ns", true), 1000);
  EXPECT_EQ(parse_time_ns("500ns", true), 500);
  EXPECT_EQ(parse_time_ns("100us", true), 100000);
  EXPECT_EQ(parse_time_ns("100\xc2\xb5s", true), 100000);  // micro sign
  EXPECT_EQ(parse_time_ns("100\xce\xbcs", true), 100000);  // Greek mu
  EXPECT_EQ(parse_time_ns("2ms", true), 2000000);
  EXPECT_EQ(parse_time_ns("1s", true), 1000000000);
  EXPECT_EQ(parse_time_ns("0", true), 0);
  EXPECT_EQ(parse_time_ns("0.000ms", true), 0);
  EXPECT_EQ(parse_time_ns("007ms", true), 7000000);
}

TEST(narrow, fractions_of_a_nanosecond_round_as_asked) {
  EXPECT_EQ(parse_time_ns("1.5ns", true), 2);
  EXPECT_EQ(parse_time_ns("1.5ns", false), 1);
  EXPECT_EQ(parse_time_ns("1e-100", true), 1);
  EXPECT_EQ(parse_time_ns("1e-100", false), 0);
  EXPECT_EQ(parse_time_ns("1.0000000001", true), 1000000001);
  EXPECT_EQ(parse_time_ns("1.0000000001", false), 1000000000);
  EXPECT_EQ(parse_time_ns("2.50ns", false), 2);
}

TEST(narrow, huge_times_saturate) {
  EXPECT_EQ(parse_time_ns("1e300", true), INT64_MAX);
  EXPECT_EQ(parse_time_ns("9223372036.854775807", true), INT64_MAX);
  EXPECT_EQ(parse_time_ns("9223372036.854775808", false), INT64_MAX);
  EXPECT_EQ(parse_time_ns("9223372036.854775806", false), INT64_MAX - 1);
  EXPECT_EQ(parse_time_ns("99999999999999999999999", true), INT64_MAX);
}

TEST(narrow, malformed_times_are_refused) {
  for (const char* text :
       {"",      "-1",   "+1", "1 s", " 1", "1s ", "abc", "1e",   "1e+", ".",    "e3",
        "1.2.3", "1min", "1S", "1MS", "1h", "nan", "inf", "0x10", "1,5", "1_000"}) {
    EXPECT_FALSE(parse_time_ns(text, true).has_value()) << "'" << text << "'";
  }
}

TEST(narrow, javascript_numbers_become_their_shortest_text) {
  EXPECT_EQ(seconds_text(1e-4), "0.0001");
  EXPECT_EQ(seconds_text(1e-7), "1e-07");
  EXPECT_EQ(seconds_text(0.002), "0.002");
  EXPECT_EQ(seconds_text(2), "2.0");
  EXPECT_EQ(seconds_text(0), "0.0");
  EXPECT_EQ(seconds_text(-1), "");
  EXPECT_EQ(seconds_text(-0.0), "");
  EXPECT_EQ(seconds_text(std::nan("")), "");
  EXPECT_EQ(parse_time_ns(seconds_text(1e-7), true), 100);
  EXPECT_EQ(parse_time_ns(seconds_text(0.1 + 0.2), true), 300000001);  // 0.30000000000000004
}

TEST(narrow, durations_and_seconds_as_exact_text) {
  EXPECT_EQ(format_duration_ns(0), "0ns");
  EXPECT_EQ(format_duration_ns(999), "999ns");
  EXPECT_EQ(format_duration_ns(1500), "1.5us");
  EXPECT_EQ(format_duration_ns(2000000), "2ms");
  EXPECT_EQ(format_duration_ns(3250000000), "3.25s");
  EXPECT_EQ(format_duration_ns(1000000001), "1.000000001s");
  EXPECT_EQ(format_seconds_ns(0), "0");
  EXPECT_EQ(format_seconds_ns(2500000000), "2.5");
  EXPECT_EQ(format_seconds_ns(1500000), "0.0015");
  EXPECT_EQ(format_seconds_ns(1), "0.000000001");
  EXPECT_EQ(format_seconds_ns(-5), "-0.000000005");
}

TEST(narrow, option_errors_name_the_option_and_the_grammar) {
  Narrowing n;
  EXPECT_EQ(error_of([&] { set_min_duration(n, "1x", "argument --min-duration", true); }),
            "UsageError [minDuration] argument --min-duration: invalid duration '1x' (expected "
            "seconds such as 1e-4 or 0.5, or a number with a unit: 500ns, 100us, 2ms, 1s)");
  EXPECT_EQ(error_of([&] { set_min_duration(n, "-1.0", "minDuration", false); }),
            "ValueError [minDuration] minDuration: invalid duration '-1.0' (expected seconds such "
            "as 1e-4 or 0.5, or a number with a unit: 500ns, 100us, 2ms, 1s)");
  EXPECT_EQ(error_of([&] { set_time_window(n, "5:2", "argument --time-window", true); }),
            "UsageError [timeWindow] argument --time-window: invalid time window '5:2' (END must "
            "be after START)");
  EXPECT_EQ(
      error_of([&] { set_time_window(n, "2:2", "timeWindow", false); }),
      "ValueError [timeWindow] timeWindow: invalid time window '2:2' (END must be after START)");
  const std::string grammar =
      "(expected START:END in seconds from the run's first call, e.g. 2:5, 0.5:, :10, or with "
      "units: 100ms:250ms)";
  EXPECT_EQ(error_of([&] { set_time_window(n, "2-5", "timeWindow", false); }),
            "ValueError [timeWindow] timeWindow: invalid time window '2-5' " + grammar);
  EXPECT_EQ(error_of([&] { set_time_window(n, "1:2:3", "timeWindow", false); }),
            "ValueError [timeWindow] timeWindow: invalid time window '1:2:3' " + grammar);
  EXPECT_EQ(error_of([&] { set_time_window(n, "a", "", "timeWindow", false); }),
            "ValueError [timeWindow] timeWindow: invalid time window 'a:' " + grammar);
}

TEST(narrow, windows_open_ends_and_rounding_outwards) {
  Narrowing n;
  set_time_window(n, "2:5", "t", false);
  EXPECT_TRUE(n.window);
  EXPECT_EQ(n.window_start_ns, 2000000000);
  EXPECT_EQ(n.window_end_ns, 5000000000);
  EXPECT_EQ(n.window_text, "2:5");
  set_time_window(n, ":10ms", "t", false);
  EXPECT_FALSE(n.window_start_ns.has_value());
  EXPECT_EQ(n.window_end_ns, 10000000);
  set_time_window(n, "0.5:", "t", false);
  EXPECT_EQ(n.window_start_ns, 500000000);
  EXPECT_FALSE(n.window_end_ns.has_value());
  set_time_window(n, "1.5ns:2.5ns", "t", false);  // widened to whole nanoseconds
  EXPECT_EQ(n.window_start_ns, 1);
  EXPECT_EQ(n.window_end_ns, 3);
  set_time_window(n, ":", "t", false);  // no window at all
  EXPECT_FALSE(n.window);
  EXPECT_FALSE(n.active());
  set_min_duration(n, "0", "m", false);
  EXPECT_TRUE(n.active());
  EXPECT_EQ(n.min_duration_ns, 0);
}

// ---- the rule ---------------------------------------------------------------------------

TEST(narrow, keep_min_duration_keeps_calls_at_least_that_long) {
  Narrowing n;
  set_min_duration(n, "10ns", "m", false);
  const Clip c = clip_of(n, std::nullopt);
  EXPECT_TRUE(c.keep(0, 10));
  EXPECT_TRUE(c.keep(-5, 5));
  EXPECT_FALSE(c.keep(0, 9));
  EXPECT_FALSE(c.keep(5, 0)) << "a call ending before it starts is shorter than anything";
  EXPECT_TRUE(c.keep(INT64_MIN, INT64_MAX)) << "no overflow";
  Narrowing zero;
  set_min_duration(zero, "0", "m", false);
  EXPECT_TRUE(clip_of(zero, std::nullopt).keep(3, 3));
  EXPECT_FALSE(clip_of(zero, std::nullopt).keep(3, 2));
}

TEST(narrow, keep_window_is_half_open_and_zero_length_calls_cover_one_ns) {
  Narrowing n;
  set_time_window(n, "100ns:200ns", "t", false);
  const Clip c = clip_of(n, 1000);  // origin 1000: window [1100, 1200)
  EXPECT_EQ(c.lo, 1100);
  EXPECT_EQ(c.hi, 1200);
  EXPECT_TRUE(c.keep(1000, 2000));
  EXPECT_FALSE(c.keep(1050, 1100)) << "ends at the start";
  EXPECT_TRUE(c.keep(1050, 1101));
  EXPECT_TRUE(c.keep(1100, 1100)) << "zero-length at the start";
  EXPECT_TRUE(c.keep(1199, 1199));
  EXPECT_FALSE(c.keep(1200, 1200)) << "zero-length at the end";
  EXPECT_FALSE(c.keep(1200, 1300)) << "starts at the end";
  EXPECT_TRUE(c.keep(1199, 1300));
  EXPECT_EQ(c.clip_start(1000), 1100);
  EXPECT_EQ(c.clip_end(2000), 1200);
  EXPECT_EQ(c.clip_start(1150), 1150);
  EXPECT_EQ(c.clip_end(1150), 1150);
}

TEST(narrow, narrow_run_copies_kept_calls_and_drops_emptied_slices) {
  scope_speedscope::Run run = make_run({{"a", 0, {{0, 100}, {10, 20}}, {}},
                                        {"b", 0, {{30, 31}}, {}},
                                        {"b", 1, {{5, 500}}, {}},
                                        {"c", 1, {{1, 2}}, {}}});
  Narrowing n;
  set_min_duration(n, "50ns", "m", false);
  const scope_speedscope::Run out = narrow_run(run, {0, 1}, n);  // c is not selected
  ASSERT_EQ(out.regions.size(), 3u);
  ASSERT_EQ(out.regions[0].ranks.size(), 1u);
  EXPECT_EQ(out.regions[0].ranks[0].count, 1u);
  ASSERT_EQ(out.regions[1].ranks.size(), 1u) << "b's rank-0 slice kept nothing";
  EXPECT_EQ(out.regions[1].ranks[0].rank, 1);
  EXPECT_TRUE(out.regions[2].ranks.empty());
  EXPECT_EQ(out.start_ns, (std::vector<int64_t>{0, 5}));
  EXPECT_EQ(out.end_ns, (std::vector<int64_t>{100, 500}));
  EXPECT_EQ(out.num_ranks, run.num_ranks);
  EXPECT_EQ(run_origin_ns(run), 0);
  EXPECT_EQ(selection_calls(run, {0, 1}, {1}), 1u);
  EXPECT_EQ(selection_calls(run, {0, 1, 2}, {0, 1}), 5u);
}

TEST(narrow, the_window_origin_is_the_whole_files_first_call) {
  // Rank 1 (exported) starts at 1000; rank 0's `early` at 10 sets the origin.
  scope_speedscope::Run run =
      make_run({{"early", 0, {{10, 20}}, {}}, {"work", 1, {{1000, 2000}}, {}}});
  Narrowing n;
  set_time_window(n, "1500ns:", "t", false);
  const scope_speedscope::Run out = narrow_run(run, {1}, n);
  EXPECT_EQ(out.start_ns, (std::vector<int64_t>{1510}));
  EXPECT_EQ(out.end_ns, (std::vector<int64_t>{2000}));
}

// ---- overview ---------------------------------------------------------------------------

TEST(narrow, duration_edges_are_r10_numbers) {
  EXPECT_EQ(duration_edge_text(0), "1ns");
  EXPECT_EQ(duration_edge_text(1), "1.25ns");
  EXPECT_EQ(duration_edge_text(5), "3.15ns");
  EXPECT_EQ(duration_edge_text(10), "10ns");
  EXPECT_EQ(duration_edge_text(29), "800ns");
  EXPECT_EQ(duration_edge_text(30), "1us");
  EXPECT_EQ(duration_edge_text(45), "31.5us");
  EXPECT_EQ(duration_edge_text(61), "1.25ms");
  EXPECT_EQ(duration_edge_text(90), "1s");
  EXPECT_EQ(duration_edge_text(kDurationEdges - 1), "8000000000s");
  EXPECT_EQ(duration_edge_ns(0), 1);
  EXPECT_EQ(duration_edge_ns(1), 2);  // 1.25 ns: durations of 2 ns and more
  EXPECT_EQ(duration_edge_ns(5), 4);
  EXPECT_EQ(duration_edge_ns(45), 31500);
  EXPECT_EQ(duration_edge_ns(kDurationEdges - 1), 8000000000000000000);
  EXPECT_DOUBLE_EQ(duration_edge_seconds(45), 31.5e-6);
  for (int j = 0; j < kDurationEdges; ++j) {
    EXPECT_EQ(parse_time_ns(duration_edge_text(j), true), duration_edge_ns(j)) << j;
    if (j > 0) {
      EXPECT_LE(duration_edge_ns(j - 1), duration_edge_ns(j));
    }
  }
}

TEST(narrow, overview_of_a_small_run) {
  // origin 1000 (rank 1's `x`, not selected); rank 0: a [1100, 1300),
  // b [1150, 1160), z [1300, 1300] (zero length).
  scope_speedscope::Run run = make_run({{"a", 0, {{1100, 1300}}, {}},
                                        {"b", 0, {{1150, 1160}}, {}},
                                        {"z", 0, {{1300, 1300}}, {}},
                                        {"x", 1, {{1000, 5000}}, {}}});
  const Overview o = overview_run(run, {0}, std::nullopt, std::nullopt, 4);
  EXPECT_EQ(o.calls, 3u);
  EXPECT_EQ(o.origin_ns, 1000);
  EXPECT_EQ(o.first_start_ns, 100);
  EXPECT_EQ(o.last_end_ns, 301);   // z covers [1300, 1301)
  EXPECT_EQ(o.bin_width_ns, 100);  // span 201 / 4 bins -> 51 -> 100 (1-2-5)
  EXPECT_EQ(o.first_edge_ns, 100);
  EXPECT_EQ(o.starts, (std::vector<uint64_t>{2, 0, 1}));
  EXPECT_EQ(o.ends, (std::vector<uint64_t>{1, 1, 1}));
  // 0 ns: z; 10 ns: b (edge 10 = 10 ns); 200 ns: a (edge 23 = 200 ns).
  ASSERT_EQ(o.duration_counts.size(), 25u);
  EXPECT_EQ(o.duration_counts[0], 1u);
  EXPECT_EQ(o.duration_counts[11], 1u);
  EXPECT_EQ(o.duration_counts[24], 1u);
  EXPECT_EQ(o.calls_at_least(0), 2u);
  EXPECT_EQ(o.calls_at_least(10), 2u);
  EXPECT_EQ(o.calls_at_least(11), 1u);
  EXPECT_EQ(o.calls_in_window(0, 3), 3u);
  EXPECT_EQ(o.calls_in_window(1, 2), 1u);  // [200, 300): a only
  EXPECT_EQ(o.calls_in_window(2, 3), 1u);  // [300, 400): z only (a ends at 300)
}

TEST(narrow, overview_of_an_empty_selection_and_bad_arguments) {
  scope_speedscope::Run run = make_run({{"a", 0, {{0, 10}}, {}}, {"b", 1, {{0, 10}}, {}}});
  const Overview o = overview_run(run, {0}, std::vector<std::string>{"b"}, std::nullopt, 10);
  EXPECT_EQ(o.calls, 0u);
  EXPECT_TRUE(o.starts.empty());
  EXPECT_TRUE(o.duration_counts.empty());
  EXPECT_EQ(error_of([&] {
              overview_run(run, {0, 2}, std::nullopt, std::nullopt, 10);
            }),
            "ValueError [ranks] Invalid rank requested: 2");
  EXPECT_EQ(
      error_of([&] { overview_run(run, {0}, std::nullopt, std::vector<std::string>{"("}, 10); }),
      "PatternError [exclude] Invalid regular expression '(': missing closing parenthesis at "
      "position 1");
}

// Random runs: every bin-aligned window and every duration edge the overview
// reports keeps exactly as many calls as narrowing with it does, and the
// suggestion fits and is the best of its kind.
TEST(narrow, overview_counts_match_narrowing_and_suggestions_fit) {
  std::mt19937_64 rng(11);
  for (int iteration = 0; iteration < 60; ++iteration) {
    std::vector<SliceSpec> slices;
    const int regions = 1 + static_cast<int>(rng() % 4);
    for (int r = 0; r < regions; ++r) {
      for (int rank = 0; rank < 2; ++rank) {
        SliceSpec s{"r" + std::to_string(r), rank, {}, {}};
        const int n = static_cast<int>(rng() % 30);
        for (int k = 0; k < n; ++k) {
          const int64_t start = 5000 + static_cast<int64_t>(rng() % 100000);
          const int64_t scale = int64_t{1} << (rng() % 16);
          const int64_t len = rng() % 7 == 0 ? 0 : static_cast<int64_t>(rng() % scale);
          s.calls.push_back({start, start + len});
        }
        slices.push_back(s);
      }
    }
    slices.push_back({"origin", 1, {{static_cast<int64_t>(rng() % 5000), 6000}}, {}});
    const scope_speedscope::Run run = make_run(slices);
    const std::vector<int64_t> ranks = {0};
    const std::size_t bins = 1 + rng() % 40;
    const Overview o =
        overview_run(run, ranks, std::nullopt, std::vector<std::string>{"origin"}, bins);
    const std::vector<uint32_t> selected =
        filter_regions(run, std::nullopt, std::vector<std::string>{"origin"}, nullptr);
    ASSERT_EQ(o.calls, selection_calls(run, selected, ranks));
    if (o.calls == 0) continue;
    ASSERT_LE(o.starts.size(), bins);
    auto kept_by = [&](const Narrowing& n) {
      return selection_calls(narrow_run(run, selected, n), selected, ranks);
    };
    for (std::size_t a = 0; a < o.starts.size(); ++a) {
      for (std::size_t b = a + 1; b <= o.starts.size(); ++b) {
        Narrowing n;
        set_time_window(
            n, format_seconds_ns(o.first_edge_ns + static_cast<int64_t>(a) * o.bin_width_ns),
            format_seconds_ns(o.first_edge_ns + static_cast<int64_t>(b) * o.bin_width_ns), "t",
            false);
        ASSERT_EQ(o.calls_in_window(a, b), kept_by(n)) << iteration << " window " << a << ".." << b;
      }
    }
    for (int j = 0; j < kDurationEdges; j += 1 + static_cast<int>(rng() % 5)) {
      Narrowing n;
      set_min_duration(n, duration_edge_text(j), "m", false);
      ASSERT_EQ(o.calls_at_least(j), kept_by(n)) << iteration << " edge " << j;
    }
    const uint64_t max_events = 2 * (1 + rng() % o.calls);
    const Suggestion s = suggest_narrowing(o, max_events);
    EXPECT_EQ(s.fits, o.calls * 2 <= max_events);
    if (s.fits) continue;
    if (s.has_min_duration) {
      EXPECT_EQ(s.min_duration_text, duration_edge_text(s.min_duration_edge));
      EXPECT_EQ(s.min_duration_calls, o.calls_at_least(s.min_duration_edge));
      EXPECT_LE(2 * s.min_duration_calls, max_events);
      EXPECT_GT(s.min_duration_calls, 0u);
      if (s.min_duration_edge > 0) {
        EXPECT_GT(2 * o.calls_at_least(s.min_duration_edge - 1), max_events);
      }
    } else {
      for (int j = 0; j < kDurationEdges; ++j) {
        const uint64_t k = o.calls_at_least(j);
        EXPECT_TRUE(k == 0 || 2 * k > max_events) << j;
      }
    }
    // The longest window that fits, the earliest of equals.
    std::size_t best = 0, best_a = 0;
    for (std::size_t a = 0; a < o.starts.size(); ++a) {
      for (std::size_t b = a + 1; b <= o.starts.size(); ++b) {
        const uint64_t k = o.calls_in_window(a, b);
        if (k > 0 && 2 * k <= max_events && b - a > best) {
          best = b - a;
          best_a = a;
        }
      }
    }
    ASSERT_EQ(s.has_window, best > 0) << iteration;
    const Suggestion::Pick preferred =
        s.has_min_duration && (!s.has_window || s.min_duration_calls >= s.window_calls)
            ? Suggestion::Pick::min_duration
            : (s.has_window ? Suggestion::Pick::window : Suggestion::Pick::none);
    EXPECT_EQ(s.preferred, preferred) << iteration;
    if (!s.has_window) continue;
    EXPECT_EQ(s.window_end_bin - s.window_first_bin, best);
    EXPECT_EQ(s.window_first_bin, best_a);
    EXPECT_EQ(s.window_calls, o.calls_in_window(s.window_first_bin, s.window_end_bin));
    Narrowing n;
    set_time_window(n, s.window_text, "t", false);
    EXPECT_EQ(kept_by(n), s.window_calls) << s.window_text;
  }
}

TEST(narrow, suggestion_when_everything_fits_or_nothing_does) {
  scope_speedscope::Run run =
      make_run({{"main", 0, {{0, 1000}}, {}}, {"leaf", 0, {{10, 20}, {30, 40}, {50, 60}}, {}}});
  const Overview o = overview_run(run, {0}, std::nullopt, std::nullopt, 10);
  EXPECT_TRUE(suggest_narrowing(o, 8).fits);
  const Suggestion s = suggest_narrowing(o, 2);  // one call
  EXPECT_FALSE(s.fits);
  EXPECT_EQ(s.max_calls, 1u);
  ASSERT_TRUE(s.has_min_duration);
  EXPECT_EQ(s.min_duration_text, "12.5ns");
  EXPECT_EQ(s.min_duration_calls, 1u);
  // `main` overlaps every window: with one call, only windows after the leaves.
  ASSERT_TRUE(s.has_window);
  EXPECT_EQ(s.window_text, "0.0000001:0.000001");
  EXPECT_EQ(s.window_calls, 1u);
  EXPECT_EQ(s.preferred, Suggestion::Pick::min_duration);  // as many calls: the whole time span
  const Suggestion none = suggest_narrowing(o, 0);
  EXPECT_FALSE(none.has_min_duration);
  EXPECT_FALSE(none.has_window);
  EXPECT_EQ(none.preferred, Suggestion::Pick::none);
  EXPECT_EQ(suggest_narrowing(o, 8).preferred, Suggestion::Pick::none);
}

// A long root call over many equally short ones (what bench/make_run.py
// writes): the shortest minimum duration that fits keeps the root alone,
// a time window keeps a real share of the run, and is the one offered.
TEST(narrow, the_suggestion_offered_is_the_one_that_keeps_more) {
  std::vector<std::pair<int64_t, int64_t>> leaves;
  for (int64_t i = 0; i < 100; ++i) leaves.push_back({10 + 10 * i, 15 + 10 * i});
  scope_speedscope::Run run = make_run({{"root", 0, {{0, 1010}}, {}}, {"leaf", 0, leaves, {}}});
  const Overview o = overview_run(run, {0}, std::nullopt, std::nullopt, 100);
  const Suggestion s = suggest_narrowing(o, 2 * 30);
  ASSERT_TRUE(s.has_min_duration);
  EXPECT_EQ(s.min_duration_calls, 1u);
  ASSERT_TRUE(s.has_window);
  EXPECT_GT(s.window_calls, 20u);  // the root and a fifth of the leaves or more
  EXPECT_LE(s.window_calls, 30u);
  EXPECT_EQ(s.preferred, Suggestion::Pick::window);
}

}  // namespace
}  // namespace scope_speedscope::test
