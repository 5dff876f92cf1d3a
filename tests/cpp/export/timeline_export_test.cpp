// export_timeline: an open timeline's calls (whole or narrowed) written
// from its columns must be the file's export with its ranks and that
// narrowing, byte for byte, with the same output names and the same errors:
// on every readable one-file fixture case and on seeded random runs, for
// seeded windows and minimum durations (and both), for windows that keep
// nothing, and for timelines of some ranks (whose region order is the
// file's; a narrowing whose order they cannot know is refused).
#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "export/timeline_export.hpp"
#include "read/h5_reader.hpp"
#include "test_support.hpp"
#include "timeline/timeline.hpp"
#include "timeline_model.hpp"

namespace scope_speedscope::test {
namespace {

struct Outcome {
  std::vector<std::string> names, docs;
  std::string error, code, field;
};

template <class Export>
Outcome outcome_of(Export&& run_export) {
  Outcome o;
  CollectTarget target;
  try {
    run_export(target);
    for (const auto& d : target.docs) o.docs.push_back(d.text);
    o.names = target.names;
  } catch (const Error& e) {
    o.error = e.what();
    o.code = e.code();
    o.field = e.field();
  }
  return o;
}

const char* const kOrderUnknown =
    "exportSpeedscope: the region order of this narrowing depends on ranks the timeline does "
    "not hold (open it with ranks: 'all', or export from the file)";

// The ranks given (every rank of the run without), the selection as given;
// each narrowing exported from the run and from its timeline. A timeline
// without every rank may refuse a narrowing (with exactly kOrderUnknown),
// never the whole run; returns how many it refused.
int expect_same_exports(const scope_speedscope::Run& run, const Patterns& include,
                        const Patterns& exclude, const std::vector<Narrowing>& narrowings,
                        std::optional<std::vector<int64_t>> ranks = std::nullopt) {
  TimelineOptions to;
  to.ranks = ranks ? *ranks : run_ranks(run);
  to.include = include;
  to.exclude = exclude;
  const Timeline tl = open_timeline(run, to);
  if (!ranks) {
    EXPECT_TRUE(tl.holds_every_rank());
  }
  std::vector<Narrowing> all = narrowings;
  all.push_back(Narrowing{});  // the whole run
  int refused = 0;
  for (const Narrowing& n : all) {
    SCOPED_TRACE("narrowing " + n.min_duration_text + " " + n.window_text);
    ExportOptions eo;
    eo.ranks = to.ranks;
    eo.include = include;
    eo.exclude = exclude;
    eo.narrowing = n;
    eo.verbose = false;
    const Outcome file =
        outcome_of([&](OutputTarget& t) { export_speedscope({run}, "out", eo, t); });
    ExportOptions only;  // the selection comes from the timeline
    only.narrowing = n;
    only.verbose = false;
    const Outcome timeline =
        outcome_of([&](OutputTarget& t) { export_timeline(tl, "out", only, t); });
    if (timeline.error == kOrderUnknown && !tl.holds_every_rank() && n.active()) {
      ++refused;
      continue;
    }
    EXPECT_EQ(timeline.error, file.error);
    EXPECT_EQ(timeline.code, file.code);
    EXPECT_EQ(timeline.field, file.field);
    EXPECT_EQ(timeline.names, file.names);
    EXPECT_EQ(timeline.docs.size(), file.docs.size());
    for (std::size_t i = 0; i < std::min(file.docs.size(), timeline.docs.size()); ++i)
      EXPECT_TRUE(timeline.docs[i] == file.docs[i]);
  }
  return refused;
}

Narrowing window(int64_t a, int64_t z) {
  Narrowing n;
  n.window = true;
  n.window_start_ns = a;
  n.window_end_ns = z;
  n.window_text = std::to_string(a) + ":" + std::to_string(z);
  return n;
}

// Windows over the run (ns from its first call), minimum durations, both,
// a window past the end (keeps nothing) and open ends.
std::vector<Narrowing> narrowings(std::mt19937_64& rng, int64_t span) {
  std::vector<Narrowing> out;
  std::uniform_int_distribution<int64_t> at(-2, span + 2);
  for (int k = 0; k < 6; ++k) {
    const int64_t a = at(rng);
    out.push_back(window(a, a + 1 + at(rng) / (k + 1)));
  }
  Narrowing open_start = window(0, span / 3);
  open_start.window_start_ns.reset();
  Narrowing open_end = window(span / 2, 0);
  open_end.window_end_ns.reset();
  out.push_back(open_start);
  out.push_back(open_end);
  out.push_back(window(span + 10, span + 20));  // nothing there
  for (int64_t min : {int64_t{0}, span / 50 + 1, span / 5 + 1, span * 10 + 1}) {
    Narrowing n;
    n.min_duration_ns = min;
    n.min_duration_text = std::to_string(min);
    out.push_back(n);
    Narrowing both = window(span / 4, span / 2);
    both.min_duration_ns = min;
    both.min_duration_text = n.min_duration_text;
    out.push_back(both);
  }
  return out;
}

int64_t span_of(const scope_speedscope::Run& run) {
  const auto origin = run_origin_ns(run);
  int64_t last = origin.value_or(0);
  for (int64_t e : run.end_ns) last = std::max(last, e);
  return std::max<int64_t>(1, last - origin.value_or(0));
}

std::vector<Case> one_file_cases() {
  std::vector<Case> out;
  for (const Case& c : all_cases()) {
    if (c.inputs.size() == 1 && !c.is_error) out.push_back(c);
  }
  return out;
}

class TimelineExportFixture : public ::testing::TestWithParam<Case> {};

TEST_P(TimelineExportFixture, a_narrowing_of_the_timeline_is_the_files) {
  const Case& c = GetParam();
  const scope_speedscope::Run run = read_run(c.inputs[0]);
  ASSERT_FALSE(run_ranks(run).empty() || c.outputs.empty()) << "a case with no calls to open";
  std::vector<int64_t> ranks = run_ranks(run);
  if (ranks.back() >= run.num_ranks) {
    // Only gap_s1 holds calls on a rank scope-profiler cannot export (its
    // schema 1 counts rank groups): the ranks it can export are compared.
    EXPECT_EQ(c.name, "gap_s1");
    while (!ranks.empty() && ranks.back() >= run.num_ranks) ranks.pop_back();
    ASSERT_FALSE(ranks.empty());
  }
  std::mt19937_64 rng(std::hash<std::string>{}(c.name) % 100000);
  std::vector<Narrowing> ns = narrowings(rng, span_of(run));
  if (c.min_duration || c.time_window) {  // the case's own narrowing too
    Narrowing own;
    if (c.min_duration) set_min_duration(own, *c.min_duration, "minDuration", false);
    if (c.time_window) set_time_window(own, *c.time_window, "timeWindow", false);
    ns.push_back(own);
  }
  if (ranks == run_ranks(run)) {
    expect_same_exports(run, c.include, c.exclude, ns);
  } else {
    expect_same_exports(run, c.include, c.exclude, ns, ranks);
  }
  if (ranks.size() > 1) {  // one rank of several: the file's region order all the same
    expect_same_exports(run, c.include, c.exclude, ns, std::vector<int64_t>{ranks.front()});
    expect_same_exports(run, c.include, c.exclude, ns, std::vector<int64_t>{ranks.back()});
  }
}

INSTANTIATE_TEST_SUITE_P(cases, TimelineExportFixture, ::testing::ValuesIn(one_file_cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return case_test_name(info.param);
                         });

TEST(TimelineExport, seeded_runs_of_several_ranks_lanes_and_depths) {
  for (unsigned seed = 41; seed < 47; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    const scope_speedscope::Run run = random_run(rng, 1 + static_cast<int>(seed % 4),
                                                 1 + static_cast<int>(seed % 3), 400, 4, 10, 20);
    expect_same_exports(run, std::nullopt, std::nullopt, narrowings(rng, span_of(run)));
    expect_same_exports(run, std::vector<std::string>{"r[01]"}, std::vector<std::string>{"r1"},
                        narrowings(rng, span_of(run)));
  }
}

TEST(TimelineExport, seeded_runs_opened_with_some_ranks) {
  int refused = 0, narrowed = 0;
  for (unsigned seed = 51; seed < 59; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    const scope_speedscope::Run run = random_run(rng, 3 + static_cast<int>(seed % 3),
                                                 1 + static_cast<int>(seed % 2), 300, 4, 8, 20);
    for (const std::vector<int64_t>& ranks :
         {std::vector<int64_t>{0}, std::vector<int64_t>{2, 0}, std::vector<int64_t>{1, 1}}) {
      const std::vector<Narrowing> ns = narrowings(rng, span_of(run));
      refused += expect_same_exports(run, std::nullopt, std::nullopt, ns, ranks);
      narrowed += static_cast<int>(ns.size());
    }
  }
  EXPECT_LT(refused, narrowed / 4);  // most narrowings are written from the timeline
}

// Rank 1 starts y before x, so the file orders y first and y is the outer
// of rank 0's two calls of the same start and end; rank 0 alone would order
// x first (same first start: file order).
scope_speedscope::Run tied_calls_run() {
  return make_run({{"x", 0, {{100, 200}, {300, 400}}, {}},
                   {"y", 0, {{100, 200}, {300, 400}}, {}},
                   {"y", 1, {{50, 60}}, {}},
                   {"x", 1, {{70, 80}}, {}}});
}

TEST(TimelineExport, one_rank_of_a_file_is_written_in_the_files_region_order) {
  const scope_speedscope::Run run = tied_calls_run();
  // The whole run, a window starting inside both calls (their clipped
  // starts are the window's: decided), and one starting before them.
  const int refused = expect_same_exports(run, std::nullopt, std::nullopt,
                                          {window(100, 1000), window(320, 390), window(0, 1000)},
                                          std::vector<int64_t>{0});
  EXPECT_EQ(refused, 1);  // window(0, 1000): rank 1's first starts are in it
  TimelineOptions to;
  to.ranks = std::vector<int64_t>{0};
  const Timeline tl = open_timeline(run, to);
  EXPECT_FALSE(tl.holds_every_rank());
  CollectTarget target;
  ExportOptions eo;
  eo.narrowing = window(0, 1000);
  try {
    export_timeline(tl, "out", eo, target);
    FAIL() << "exported";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), kOrderUnknown);
  }
  CollectTarget whole;
  export_timeline(tl, "out", ExportOptions{}, whole);
  ASSERT_EQ(whole.docs.size(), 1u);
  // y (frame 0) opens first: it is the outer call.
  EXPECT_NE(whole.docs[0].text.find(R"("frames": [{"name": "y"}, {"name": "x"}])"),
            std::string::npos)
      << whole.docs[0].text.substr(0, 300);
}

}  // namespace
}  // namespace scope_speedscope::test
