// reconstruct: build_call_arrays + split_by_lane (spec sections 3, 4, 6).
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <set>

#include "reconstruct/calls.hpp"
#include "test_support.hpp"

namespace scope_speedscope::test {
namespace {

using Calls = std::vector<std::pair<int64_t, int64_t>>;

std::string build(const scope_speedscope::Run& run, const std::vector<uint32_t>& order,
                  int64_t rank = 0) {
  return outcome(
      run, [&] { return materialize(build_call_arrays(run, order, rank, CallStorage::indexed)); });
}
std::string build_literal(const scope_speedscope::Run& run, const std::vector<uint32_t>& order,
                          int64_t rank = 0) {
  return outcome(run, [&] { return detail::build_call_arrays_literal(run, order, rank); });
}
std::string build_merged(const scope_speedscope::Run& run, const std::vector<uint32_t>& order,
                         int64_t rank = 0, std::set<std::string>* kinds = nullptr) {
  return outcome(run, [&] { return materialize(build_call_arrays(run, order, rank), kinds); });
}
// All implementations, which must agree; returns the fast one's outcome.
std::string build_both(const scope_speedscope::Run& run, const std::vector<uint32_t>& order,
                       int64_t rank = 0) {
  const std::string fast = build(run, order, rank);
  EXPECT_EQ(fast, build_literal(run, order, rank)) << "fast and literal differ";
  EXPECT_EQ(fast, build_merged(run, order, rank)) << "indexed and streamed differ";
  return fast;
}
std::string build_all(const scope_speedscope::Run& run, int64_t rank = 0) {
  return build_both(run, all_regions(run), rank);
}

// The parent of each call (index in the lane, -1 for roots), implied by the
// pre-order and the depths: the nearest earlier call one level up.
std::vector<long> parents(const RankCalls& calls, const Lane& lane) {
  std::vector<long> out;
  for (std::size_t i = lane.begin; i < lane.end; ++i) {
    long p = -1;
    if (calls.calls[i].depth > 0) {
      for (std::size_t j = i; j-- > lane.begin;) {
        if (calls.calls[j].depth + 1 == calls.calls[i].depth) {
          p = static_cast<long>(j - lane.begin);
          break;
        }
      }
    }
    out.push_back(p);
  }
  return out;
}

std::string nested(const std::string& child, const std::string& parent) {
  return "error NestingError: " + nesting_message(child, parent);
}

// ---- the pinned examples of tests/unit/test_call_stack.py (spec 3.8) -----------

TEST(call_stack, depth_and_parent_follow_containment) {
  const scope_speedscope::Run run = make_run(
      {{"outer", 0, {{0, 100}}}, {"inner", 0, {{10, 40}, {50, 90}}}, {"leaf", 0, {{15, 20}}}});
  EXPECT_EQ(build_all(run), "lane -1: outer[0,100]d0 inner[10,40]d1 leaf[15,20]d2 inner[50,90]d1");
  const RankCalls calls = materialize(build_call_arrays(run, all_regions(run), 0));
  ASSERT_EQ(calls.lanes.size(), 1u);
  EXPECT_EQ(parents(calls, calls.lanes[0]), (std::vector<long>{-1, 0, 1, 0}));
  EXPECT_EQ(calls.size(), 4u);
  EXPECT_EQ(calls.rank, 0);
}

TEST(call_stack, touching_intervals_are_siblings) {
  const scope_speedscope::Run run = make_run({{"a", 0, {{0, 10}, {10, 20}}}});
  EXPECT_EQ(build_all(run), "lane -1: a[0,10]d0 a[10,20]d0");
}

TEST(call_stack, recursion_nests_one_region_in_itself) {
  const scope_speedscope::Run run = make_run({{"fib", 0, {{0, 100}, {10, 90}, {60, 80}}}});
  EXPECT_EQ(build_all(run), "lane -1: fib[0,100]d0 fib[10,90]d1 fib[60,80]d2");
}

TEST(call_stack, zero_length_call_nests_in_open_parent) {
  const scope_speedscope::Run run =
      make_run({{"outer", 0, {{0, 100}}}, {"tick", 0, {{0, 0}, {50, 50}}}});
  EXPECT_EQ(build_all(run), "lane -1: outer[0,100]d0 tick[0,0]d1 tick[50,50]d1");
}

TEST(call_stack, zero_length_call_at_parent_end_is_a_sibling) {
  const scope_speedscope::Run run =
      make_run({{"outer", 0, {{0, 100}}}, {"tick", 0, {{100, 100}, {0, 0}}}});
  EXPECT_EQ(build_all(run), "lane -1: outer[0,100]d0 tick[0,0]d1 tick[100,100]d0");
}

TEST(call_stack, zero_length_calls_at_one_instant_nest_in_order) {
  // Each zero-length call counts as open at its own start.
  const scope_speedscope::Run run = make_run({{"z", 0, {{5, 5}, {5, 5}, {5, 5}}}});
  EXPECT_EQ(build_all(run), "lane -1: z[5,5]d0 z[5,5]d1 z[5,5]d2");
}

TEST(call_stack, equal_starts_put_the_longer_call_first) {
  const scope_speedscope::Run run = make_run({{"inner", 0, {{5, 40}}}, {"outer", 0, {{5, 100}}}});
  EXPECT_EQ(build_all(run), "lane -1: outer[5,100]d0 inner[5,40]d1");
}

TEST(call_stack, identical_intervals_nest_in_region_order) {
  const scope_speedscope::Run run = make_run({{"twinA", 0, {{0, 10}}}, {"twinB", 0, {{0, 10}}}});
  EXPECT_EQ(build_both(run, {0, 1}), "lane -1: twinA[0,10]d0 twinB[0,10]d1");
  EXPECT_EQ(build_both(run, {1, 0}), "lane -1: twinB[0,10]d0 twinA[0,10]d1");
}

TEST(call_stack, identical_intervals_of_one_region_keep_call_order) {
  const scope_speedscope::Run run = make_run({{"a", 0, {{0, 10}, {0, 10}, {0, 10}}}});
  EXPECT_EQ(build_all(run), "lane -1: a[0,10]d0 a[0,10]d1 a[0,10]d2");
}

TEST(call_stack, unsorted_calls_are_sorted_by_start_then_longest) {
  const scope_speedscope::Run run = make_run({{"a", 0, {{50, 60}, {0, 100}, {10, 20}, {10, 30}}}});
  EXPECT_EQ(build_all(run), "lane -1: a[0,100]d0 a[10,30]d1 a[10,20]d2 a[50,60]d1");
}

TEST(call_stack, only_the_requested_rank_and_regions_count) {
  const scope_speedscope::Run run = make_run(
      {{"a", 0, {{0, 10}}}, {"a", 1, {{0, 100}}}, {"b", 1, {{5, 50}}}, {"c", 1, {{20, 30}}}});
  EXPECT_EQ(build_all(run, 0), "lane -1: a[0,10]d0");
  EXPECT_EQ(build_all(run, 1), "lane -1: a[0,100]d0 b[5,50]d1 c[20,30]d2");
  EXPECT_EQ(build_both(run, {2, 0}, 1), "lane -1: a[0,100]d0 c[20,30]d1");
  EXPECT_EQ(build_all(run, 5), "") << "a rank without calls has no lanes";
  EXPECT_EQ(build_both(run, {}, 1), "");
}

TEST(call_stack, a_region_with_zero_calls_contributes_nothing) {
  const scope_speedscope::Run run = make_run({{"empty", 0, {}}, {"a", 0, {{1, 2}}}});
  EXPECT_EQ(build_all(run), "lane -1: a[1,2]d0");
  const scope_speedscope::Run only_empty = make_run({{"empty", 0, {}}});
  EXPECT_EQ(build_all(only_empty), "");
}

TEST(call_stack, large_timestamps_are_exact) {
  const int64_t t = int64_t{1} << 61;
  const scope_speedscope::Run run =
      make_run({{"a", 0, {{t, t + 3}}}, {"b", 0, {{t + 1, t + 2}, {t + 3, t + 3}}}});
  EXPECT_EQ(build_all(run), "lane -1: a[" + std::to_string(t) + "," + std::to_string(t + 3) +
                                "]d0 b[" + std::to_string(t + 1) + "," + std::to_string(t + 2) +
                                "]d1 b[" + std::to_string(t + 3) + "," + std::to_string(t + 3) +
                                "]d0");
}

TEST(call_stack, times_at_the_ends_of_int64_nest_exactly) {
  // 2 * t overflows 64 bits here (undefined behaviour; numpy would wrap): the
  // spec's doubled comparisons are done in 128 bits. A zero-length call at
  // INT64_MAX, the end of the call around it, is a sibling after it.
  const int64_t lo = INT64_MIN, hi = INT64_MAX;
  const scope_speedscope::Run run =
      make_run({{"a", 0, {{lo, hi}}}, {"b", 0, {{hi - 1, hi}, {hi, hi}}}, {"c", 0, {{lo, lo}}}});
  const std::string L = std::to_string(lo), H = std::to_string(hi), H1 = std::to_string(hi - 1);
  EXPECT_EQ(build_all(run), "lane -1: a[" + L + "," + H + "]d0 c[" + L + "," + L + "]d1 b[" + H1 +
                                "," + H + "]d1 b[" + H + "," + H + "]d0");
  // Partial overlap at the extremes is still found (and named) exactly.
  const scope_speedscope::Run bad = make_run({{"p", 0, {{lo, hi - 1}}}, {"q", 0, {{lo + 1, hi}}}});
  EXPECT_EQ(build_all(bad), nested("'q' call 0 [" + std::to_string(lo + 1) + ", " + H + "] ns",
                                   "'p' call 0 [" + L + ", " + std::to_string(hi - 1) + "] ns"));
}

// ---- errors (spec 3.2, 3.6) -------------------------------------------------------

TEST(call_stack, end_before_start_is_a_nesting_error) {
  const scope_speedscope::Run run = make_run({{"a", 0, {{0, 10}, {20, 19}}}});
  EXPECT_EQ(build_all(run), "error NestingError: a recorded call ends before it starts");
}

TEST(call_stack, partial_overlap_names_both_calls) {
  const scope_speedscope::Run run = make_run({{"short", 0, {{0, 50}}}, {"long", 0, {{10, 200}}}});
  EXPECT_EQ(build_all(run), nested("'long' call 0 [10, 200] ns", "'short' call 0 [0, 50] ns"));
  try {
    build_call_arrays(run, all_regions(run), 0);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::nesting);
    EXPECT_STREQ(e.kind_name(), "NestingError");
  }
}

TEST(call_stack, partial_overlap_message_uses_the_call_index_within_the_region) {
  const scope_speedscope::Run run = make_run(
      {{"p", 0, {{500, 600}, {0, 50}, {1000, 1100}}}, {"q", 0, {{5000, 5001}, {10, 200}}}});
  EXPECT_EQ(build_all(run), nested("'q' call 1 [10, 200] ns", "'p' call 1 [0, 50] ns"));
}

TEST(call_stack, partial_overlap_reports_the_first_offending_call_in_call_order) {
  // (20, 70) ends after its parent (10, 60), and so does (65, 90): the first
  // such call in call_id (start) order is named.
  const scope_speedscope::Run run =
      make_run({{"a", 0, {{0, 100}, {10, 60}}}, {"b", 0, {{20, 70}, {65, 90}}}});
  EXPECT_EQ(build_all(run), nested("'b' call 0 [20, 70] ns", "'a' call 1 [10, 60] ns"));
}

TEST(call_stack, end_before_start_takes_precedence_over_overlap) {
  const scope_speedscope::Run run =
      make_run({{"p", 0, {{0, 50}}}, {"q", 0, {{10, 200}}}, {"r", 0, {{1000, 999}}}});
  EXPECT_EQ(build_all(run), "error NestingError: a recorded call ends before it starts");
  // ... on every lane: the bad call is on another lane than the overlap.
  const scope_speedscope::Run lanes = make_run(
      {{"p", 0, {{0, 50}}, {-2}}, {"q", 0, {{10, 200}}, {-2}}, {"r", 0, {{1000, 999}}, {5}}}, true);
  EXPECT_EQ(build_all(lanes), "error NestingError: a recorded call ends before it starts");
}

TEST(call_stack, nesting_message_quotes_names_like_python_repr) {
  struct Example {
    std::string name;
    std::string repr;
  };
  const std::vector<Example> examples = {
      {"plain", "'plain'"},
      {"it's", "\"it's\""},
      {"say \"hi\"", "'say \"hi\"'"},
      {"both ' and \"", "'both \\' and \"'"},
      {"back\\slash", "'back\\\\slash'"},
      {"tab\there\nnl\rcr", "'tab\\there\\nnl\\rcr'"},
      {std::string("nul\0x", 5), "'nul\\x00x'"},
      {"\x7f\x1b", "'\\x7f\\x1b'"},
      {"\xc2\xa0", "'\\xa0'"},                     // U+00A0 is not printable
      {"\xc3\xa9", "'\xc3\xa9'"},                  // é is kept
      {"\xe2\x80\x8b", "'\\u200b'"},               // zero-width space
      {"\xf0\x9f\x9a\x80", "'\xf0\x9f\x9a\x80'"},  // U+1F680 is printable
      {"\xf3\xa0\x80\x81", "'\\U000e0001'"},       // a tag character is not
  };
  for (const Example& e : examples) {
    const scope_speedscope::Run run = make_run({{e.name, 0, {{0, 50}}}, {"y", 0, {{10, 200}}}});
    EXPECT_EQ(build_all(run), nested("'y' call 0 [10, 200] ns", e.repr + " call 0 [0, 50] ns"))
        << e.repr;
  }
}

// repr() of every code point below U+3000 and a sample of the rest, from
// Python 3.11 (Unicode 14, the version of the core's tables).
TEST(call_stack, nesting_message_quotes_names_like_python_repr_table) {
  expect_python_table(
      "str_repr.txt", 16000, [](const std::string& hex_name, const std::string& hex_repr) {
        const scope_speedscope::Run run =
            make_run({{unhex(hex_name), 0, {{0, 50}}}, {"y", 0, {{10, 200}}}});
        const std::string got = build(run, {0, 1});
        const std::string want =
            nested("'y' call 0 [10, 200] ns", unhex(hex_repr) + " call 0 [0, 50] ns");
        return got == want ? std::string()
                           : "name (hex) " + hex_name + "\n  got:  " + got + "\n  want: " + want;
      });
}

// ---- lanes (spec 4) ---------------------------------------------------------------

TEST(call_stack, lanes_ascend_threads_then_unknown_then_tasks) {
  const scope_speedscope::Run run =
      make_run({{"main", 0, {{0, 100}, {0, 100}, {0, 100}, {0, 100}, {0, 100}}, {-2, 3, -4, -1, 0}},
                {"sub", 0, {{10, 20}, {10, 20}, {10, 20}}, {3, -1, -4}}},
               true);
  EXPECT_EQ(build_all(run),
            "lane -4: main[0,100]d0 sub[10,20]d1 | lane -2: main[0,100]d0 | "
            "lane -1: main[0,100]d0 sub[10,20]d1 | lane 0: main[0,100]d0 | "
            "lane 3: main[0,100]d0 sub[10,20]d1");
}

TEST(call_stack, the_same_intervals_nest_once_they_are_on_separate_lanes) {
  // tests/test_threading.py: (0, 30) and (20, 50) on threads 0 and 1 are both roots.
  const scope_speedscope::Run run =
      make_run({{"a", 0, {{0, 30}}, {-2}}, {"b", 0, {{20, 50}}, {-3}}}, true);
  EXPECT_EQ(build_all(run), "lane -3: b[20,50]d0 | lane -2: a[0,30]d0");
  const scope_speedscope::Run one = make_run({{"a", 0, {{0, 30}}}, {"b", 0, {{20, 50}}}});
  EXPECT_EQ(build_all(one), nested("'b' call 0 [20, 50] ns", "'a' call 0 [0, 30] ns"));
}

TEST(call_stack, a_single_lane_keeps_its_value) {
  const scope_speedscope::Run run = make_run({{"a", 0, {{0, 30}, {1, 2}}, {-4, -4}}}, true);
  EXPECT_EQ(build_all(run), "lane -4: a[0,30]d0 a[1,2]d1");
  const scope_speedscope::Run unknown = make_run({{"a", 0, {{0, 30}, {1, 2}}, {-1, -1}}}, true);
  EXPECT_EQ(build_all(unknown), "lane -1: a[0,30]d0 a[1,2]d1");
}

TEST(call_stack, no_lane_column_is_one_stack) {
  const scope_speedscope::Run run = make_run({{"a", 0, {{0, 30}}}, {"b", 0, {{5, 6}}}});
  const RankCalls calls = materialize(build_call_arrays(run, all_regions(run), 0));
  ASSERT_EQ(calls.lanes.size(), 1u);
  EXPECT_EQ(calls.lanes[0].lane, -1);
  EXPECT_EQ(calls.lanes[0].begin, 0u);
  EXPECT_EQ(calls.lanes[0].end, 2u);
}

TEST(call_stack, lane_overlap_message_follows_global_call_order_not_lane_order) {
  // Thread 0 (lane -2) overlaps at t=10, thread 1 (lane -3, first in lane
  // order) at t=500: the message names thread 0's calls.
  const scope_speedscope::Run run = make_run(
      {{"p", 0, {{0, 100}, {400, 600}}, {-2, -3}}, {"q", 0, {{10, 200}, {500, 700}}, {-2, -3}}},
      true);
  EXPECT_EQ(build_all(run), nested("'q' call 0 [10, 200] ns", "'p' call 0 [0, 100] ns"));
}

TEST(call_stack, lane_id_keeps_thread_and_task_spaces_apart) {
  // tests/test_threading.py: lane_ids([0,1,2,-1]) = [-2,-3,-4,-1];
  // with tasks [-1,7,-1,0] -> [-2,7,-4,0].
  const int64_t threads[] = {0, 1, 2, -1};
  const int64_t tasks[] = {-1, 7, -1, 0};
  const int64_t want_plain[] = {-2, -3, -4, -1};
  const int64_t want_tasks[] = {-2, 7, -4, 0};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(lane_id(threads[i], nullptr), want_plain[i]) << i;
    EXPECT_EQ(lane_id(threads[i], &tasks[i]), want_tasks[i]) << i;
  }
  // -2 - thread_id without undefined behaviour at the extremes (the reader
  // refuses INT64_MAX as damage; numpy would wrap as this does).
  EXPECT_EQ(lane_id(INT64_MAX - 1, nullptr), INT64_MIN);
  EXPECT_EQ(lane_id(INT64_MAX, nullptr), INT64_MAX);
  EXPECT_EQ(lane_id(INT64_MIN, nullptr), -1);
}

// ---- scale --------------------------------------------------------------------------

scope_speedscope::Run chain(int64_t n) {
  Calls calls;
  for (int64_t i = 0; i < n; ++i) calls.emplace_back(i, 4 * n - i);
  return make_run({{"deep", 0, calls}, {"leaf", 0, {{n, n + 1}}}});
}

TEST(call_stack, a_5000_deep_chain_needs_no_recursion) {
  const scope_speedscope::Run run = chain(5000);
  for (const bool literal : {false, true}) {
    const RankCalls calls = literal ? detail::build_call_arrays_literal(run, {0, 1}, 0)
                                    : materialize(build_call_arrays(run, {0, 1}, 0));
    ASSERT_EQ(calls.size(), 5001u);
    for (uint32_t i = 0; i < 5001; ++i) {
      ASSERT_EQ(calls.calls[i].depth, i) << i;
      ASSERT_EQ(calls.calls[i].region, i < 5000 ? 0u : 1u);
    }
  }
}

TEST(call_stack, a_300000_deep_chain_needs_no_recursion) {
  const scope_speedscope::Run run = chain(300000);
  const RankCalls calls = materialize(build_call_arrays(run, {0, 1}, 0));
  ASSERT_EQ(calls.size(), 300001u);
  EXPECT_EQ(calls.calls.back().depth, 300000u);
  EXPECT_EQ(calls.calls.back().region, 1u);
}

// ---- the fast path against the literal algorithm and the Python model ------------

struct RandomRun {
  scope_speedscope::Run run;
  std::vector<uint32_t> order;
  int64_t rank = 0;
};

RandomRun random_run(std::mt19937_64& rng) {
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  const int nreg = static_cast<int>(pick(1, 4));
  const int nranks = static_cast<int>(pick(1, 2));
  const bool lanes = pick(0, 2) == 0;
  const bool nested_mode = pick(0, 1) == 0;
  std::vector<SliceSpec> slices;
  for (int rank = 0; rank < nranks; ++rank) {
    for (int r = 0; r < nreg; ++r) {
      if (pick(0, 4) == 0) continue;
      SliceSpec s{"r" + std::to_string(r), rank, {}, {}};
      const int n = static_cast<int>(pick(0, 6));
      int64_t t = pick(0, 5);
      for (int k = 0; k < n; ++k) {
        int64_t start, end;
        if (nested_mode) {  // mostly well nested: shrinking windows, touching, zero-length
          start = t + pick(0, 2);
          end = start + pick(0, 40 - 5 * k > 0 ? 40 - 5 * k : 0);
          t = start;
        } else {
          start = pick(0, 25);
          end = start + pick(0, 10);
        }
        if (pick(0, 60) == 0) end = start - pick(1, 3);
        s.calls.emplace_back(start, end);
        s.lanes.push_back(pick(0, 3) == 0 ? -1 : pick(-3, 1));
      }
      if (!lanes) s.lanes.clear();
      slices.push_back(s);
    }
  }
  RandomRun out;
  out.run = make_run(slices, lanes);
  for (uint32_t r = 0; r < out.run.regions.size(); ++r) {
    if (pick(0, 9) != 0) out.order.push_back(r);
  }
  std::shuffle(out.order.begin(), out.order.end(), rng);
  out.rank = pick(0, nranks - 1);
  return out;
}

TEST(call_stack, fast_path_equals_literal_algorithm_on_random_runs) {
  std::mt19937_64 rng(20251129);
  int ok = 0, errors = 0, mismatches = 0;
  std::set<std::string> kinds;
  for (int i = 0; i < 20000; ++i) {
    const RandomRun r = random_run(rng);
    const std::string fast = build(r.run, r.order, r.rank);
    const std::string literal = build_literal(r.run, r.order, r.rank);
    const std::string merged = build_merged(r.run, r.order, r.rank, &kinds);
    if ((fast != literal || merged != literal) && ++mismatches <= 5) {
      ADD_FAILURE() << "case " << i << "\n  indexed:  " << fast << "\n  streamed: " << merged
                    << "\n  literal: " << literal;
    }
    (fast.rfind("error", 0) == 0 ? errors : ok)++;
  }
  EXPECT_EQ(mismatches, 0);
  EXPECT_EQ(kinds, (std::set<std::string>{"indexed", "merged"})) << "both streams were tried";
  EXPECT_GT(ok, 5000) << "the generator should make many valid runs";
  EXPECT_GT(errors, 2000) << "and many invalid ones";
}

// A rank of so many rows and events that the rows do not fit in the spare
// bits of the event indices (2^20 + 1 events: 21 bits, room for 2^11 rows;
// here 3,000 rows): its streams look each call's region up instead, and must
// give what the reference gives.
TEST(call_stack, many_rows_are_looked_up_when_they_do_not_fit_the_indices) {
  std::vector<SliceSpec> slices;
  const int64_t rows = 3000, per_row = 350;
  for (int64_t r = 0; r < rows; ++r) {
    SliceSpec s{"r" + std::to_string(r), 0, {}, {}};
    for (int64_t j = 0; j < per_row; ++j) {
      const int64_t start = (j * rows + r) * 10;  // the rows interleave
      s.calls.emplace_back(start, start + 5 + (r % 3));
      s.lanes.push_back(j % 2);
    }
    slices.push_back(std::move(s));
  }
  const scope_speedscope::Run run = make_run(slices, true);
  ASSERT_GT(run.start_ns.size(), (std::size_t{1} << 20));
  const RankCalls built = build_call_arrays(run, all_regions(run), 0);
  ASSERT_EQ(built.streams.size(), 2u);
  const auto* stream = dynamic_cast<IndexedCalls*>(built.streams[0].get());
  ASSERT_NE(stream, nullptr);
  EXPECT_EQ(describe(run, materialize(built)),
            describe(run, detail::build_call_arrays_literal(run, all_regions(run), 0)));
}

std::string expected_from_json(const scope_speedscope::Run& run, const nlohmann::json& expect) {
  if (expect.contains("error")) return "error " + expect["error"].get<std::string>();
  std::ostringstream s;
  bool first_lane = true;
  for (const auto& lane : expect["lanes"]) {
    if (!first_lane) s << " | ";
    first_lane = false;
    s << "lane " << lane[0].get<int64_t>() << ":";
    for (const auto& c : lane[1]) {
      s << " " << run.regions.at(c[0].get<std::size_t>()).name << "[" << c[1].get<int64_t>() << ","
        << c[2].get<int64_t>() << "]d" << c[3].get<int64_t>();
    }
  }
  return s.str();
}

// 3000 random runs through tests/fixtures/gen/reference_export.py.
TEST(call_stack, both_paths_equal_the_python_model_on_random_runs) {
  std::ifstream in(tables_dir() + "/call_stack.jsonl");
  ASSERT_TRUE(in) << tables_dir() << "/call_stack.jsonl";
  std::string line;
  std::getline(in, line);
  const std::size_t count = std::stoul(line.substr(8));
  std::size_t seen = 0;
  int mismatches = 0;
  while (std::getline(in, line)) {
    ++seen;
    const nlohmann::json j = nlohmann::json::parse(line);
    // Keep every region (even one without slices) at its index.
    scope_speedscope::Run run = make_run({}, j["lane_column"].get<bool>());
    for (const auto& region : j["regions"]) {
      run.regions.push_back(Region{region["name"].get<std::string>(), {}});
      for (const auto& sl : region["slices"]) {
        RankSlice slice;
        slice.rank = sl["rank"].get<int64_t>();
        slice.offset = run.start_ns.size();
        slice.count = sl["calls"].size();
        run.regions.back().ranks.push_back(slice);
        for (std::size_t k = 0; k < sl["calls"].size(); ++k) {
          run.start_ns.push_back(sl["calls"][k][0].get<int64_t>());
          run.end_ns.push_back(sl["calls"][k][1].get<int64_t>());
          if (run.lane_column) run.lane.push_back(sl["lanes"][k].get<int64_t>());
        }
        run.num_ranks = std::max(run.num_ranks, slice.rank + 1);
      }
    }
    const auto order = j["order"].get<std::vector<uint32_t>>();
    const int64_t rank = j["rank"].get<int64_t>();
    const std::string want = expected_from_json(run, j["expect"]);
    const std::string fast = build(run, order, rank);
    const std::string literal = build_literal(run, order, rank);
    if ((fast != want || literal != want) && ++mismatches <= 5) {
      ADD_FAILURE() << "line " << seen + 1 << ": " << line << "\n  fast:    " << fast
                    << "\n  literal: " << literal << "\n  python:  " << want;
    }
  }
  EXPECT_EQ(seen, count);
  EXPECT_EQ(mismatches, 0);
}

}  // namespace
}  // namespace scope_speedscope::test
