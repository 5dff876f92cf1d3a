// A read of some ranks (ReadPlan::ranks), as the page opens rank 0 of a
// job: the timeline opened from it is the one a whole read gives (lanes,
// frames, origin, totals), and its export, which reads the ranks it left
// out first (read_rest), writes the same bytes or fails with the same
// error, on every one-file fixture case, every bad fixture and every
// damaged file of the seeded campaign. What it leaves out is not read.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "export/timeline_export.hpp"
#include "read/h5_reader.hpp"
#include "test_support.hpp"
#include "timeline/timeline.hpp"

namespace scope_speedscope::test {
namespace {

// The ranks with calls a read of `rest` leaves out: the timeline's.
std::vector<int64_t> ranks_left(const std::vector<int64_t>& timeline_ranks, const Run& rest) {
  std::vector<int64_t> out;
  for (int64_t r : run_ranks(rest)) {
    if (std::find(timeline_ranks.begin(), timeline_ranks.end(), r) != timeline_ranks.end())
      out.push_back(r);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  std::vector<int64_t> with_calls;
  for (int64_t r : out) {
    for (const Region& region : rest.regions) {
      const bool has = std::any_of(region.ranks.begin(), region.ranks.end(),
                                   [&](const RankSlice& s) { return s.rank == r && s.count > 0; });
      if (has) {
        with_calls.push_back(r);
        break;
      }
    }
  }
  return with_calls;
}

struct Opened {
  std::string error, code;
  std::vector<std::string> lanes, frames, names, docs;
  std::vector<int64_t> unread;
  int64_t origin_in_run = 0, run_end = 0;
  std::vector<Timeline::FrameTotals> totals;
  bool partial = false;
};

// read -> open_timeline -> export_timeline, the whole file or only `ranks`
// (with the rest read by the export, as the bindings do).
Opened open_and_export(const std::string& path, const std::vector<int64_t>& ranks,
                       const Patterns& include, const Patterns& exclude, bool partial) {
  Opened o;
  try {
    ReadPlan plan;
    if (partial) plan.ranks = ranks;
    Run run = read_run(path, {}, {}, plan);
    o.partial = run.partial;
    TimelineOptions to;
    to.ranks = ranks;
    to.include = include;
    to.exclude = exclude;
    const Timeline tl = open_timeline(std::move(run), to);
    for (const auto& l : tl.lanes())
      o.lanes.push_back(l.name + " " + std::to_string(l.calls) + " " + std::to_string(l.start_ns) +
                        " " + std::to_string(l.end_ns));
    o.frames = tl.frames();
    o.unread = tl.unread_ranks();
    o.origin_in_run = tl.origin_in_run_ns();
    o.run_end = tl.run_end_ns();
    o.totals = tl.frame_totals();
    ExportOptions eo;
    eo.verbose = false;
    CollectTarget target;
    int rest_reads = 0;
    export_timeline(tl, "out", eo, target, [&](const std::vector<int64_t>& rest) {
      ++rest_reads;
      EXPECT_EQ(rest, tl.unread_ranks());
      ReadPlan again;
      again.ranks = rest;
      again.others_first_starts = false;
      again.keep = false;  // as the bindings read it: checked, nothing kept
      const Run rest_run = read_run(path, {}, {}, again);
      EXPECT_TRUE(rest_run.start_ns.empty());
      std::vector<int64_t> none_held = ranks_left(ranks, rest_run);
      none_held.insert(none_held.end(), rest.begin(), rest.end());
      std::sort(none_held.begin(), none_held.end());
      EXPECT_EQ(unread_ranks(rest_run), none_held);
    });
    EXPECT_EQ(rest_reads, partial && !tl.unread_ranks().empty() ? 1 : 0);
    o.names = target.names;
    for (const auto& d : target.docs) o.docs.push_back(d.text);
  } catch (const Error& e) {
    o.error = e.what();
    o.code = e.code();
  }
  return o;
}

void expect_same(const Opened& part, const Opened& whole) {
  EXPECT_EQ(part.error, whole.error);
  EXPECT_EQ(part.code, whole.code);
  EXPECT_EQ(part.lanes, whole.lanes);
  EXPECT_EQ(part.frames, whole.frames);
  EXPECT_EQ(part.origin_in_run, whole.origin_in_run);
  EXPECT_EQ(part.run_end, whole.run_end);
  ASSERT_EQ(part.totals.size(), whole.totals.size());
  for (std::size_t i = 0; i < part.totals.size(); ++i) {
    EXPECT_EQ(part.totals[i].calls, whole.totals[i].calls);
    EXPECT_EQ(part.totals[i].total_ns, whole.totals[i].total_ns);
    EXPECT_EQ(part.totals[i].self_ns, whole.totals[i].self_ns);
  }
  EXPECT_EQ(part.names, whole.names);
  ASSERT_EQ(part.docs.size(), whole.docs.size());
  for (std::size_t i = 0; i < part.docs.size(); ++i)
    EXPECT_EQ(first_difference(part.docs[i], whole.docs[i]), "");
  EXPECT_TRUE(whole.unread.empty());
}

// Each rank alone, the first and last together, and a rank listed twice.
std::vector<std::vector<int64_t>> rank_choices(const std::string& path) {
  std::vector<std::vector<int64_t>> out = {{0}};
  try {
    const std::vector<int64_t> ranks = run_ranks(read_run(path, {}, {}, ReadDepth::index));
    for (std::size_t i = 0; i < ranks.size() && i < 4; ++i) {
      if (ranks[i] != 0) out.push_back({ranks[i]});
    }
    if (ranks.size() > 1) out.push_back({ranks.back(), ranks.front()});
    if (!ranks.empty()) out.push_back({ranks.front(), ranks.front()});
  } catch (const Error&) {
  }
  return out;
}

void expect_partial_is_whole(const std::string& path, const Patterns& include,
                             const Patterns& exclude) {
  for (const std::vector<int64_t>& ranks : rank_choices(path)) {
    SCOPED_TRACE("ranks " + ::testing::PrintToString(ranks));
    expect_same(open_and_export(path, ranks, include, exclude, true),
                open_and_export(path, ranks, include, exclude, false));
  }
}

std::vector<Case> one_file_cases() {
  std::vector<Case> out;
  for (const Case& c : all_cases()) {
    if (c.inputs.size() == 1) out.push_back(c);
  }
  return out;
}

class PartialReadCase : public ::testing::TestWithParam<Case> {};

TEST_P(PartialReadCase, opens_and_exports_as_the_whole_read) {
  const Case& c = GetParam();
  expect_partial_is_whole(c.inputs[0], c.include, c.exclude);
}

INSTANTIATE_TEST_SUITE_P(cases, PartialReadCase, ::testing::ValuesIn(one_file_cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return case_test_name(info.param);
                         });

TEST(PartialRead, damaged_files_fail_or_convert_as_the_whole_read) {
  const std::vector<std::string> files = damaged_files();
  EXPECT_GT(files.size(), 30u);
  for (const std::string& f : files) {
    SCOPED_TRACE(f);
    expect_partial_is_whole(f, std::nullopt, std::nullopt);
  }
}

// ranks_imbalance_s3.h5: 4 ranks, no lanes. Rank 0 alone reads every start
// (the region order and the origin need each row's earliest) and rank 0's
// durations, nothing of the others' durations; the export's read of the
// rest reads the others' starts and durations, nothing of rank 0's.
TEST(PartialRead, leaves_out_what_it_does_not_need) {
  const std::string path = shared_dir() + "/h5/ranks_imbalance_s3.h5";
  const scope_speedscope::Run whole = read_run(path);
  const uint64_t events = whole.start_ns.size();
  uint64_t rank0 = 0;
  for (const Region& region : whole.regions) {
    for (const RankSlice& s : region.ranks) rank0 += s.rank == 0 ? s.count : 0;
  }
  ASSERT_GT(rank0, 0u);
  ASSERT_LT(rank0, events);
  uint64_t total = 0;
  const Progress progress = [&](std::string_view phase, uint64_t, uint64_t t) {
    if (phase == "read") total = t;
  };
  ReadPlan plan;
  plan.ranks = std::vector<int64_t>{0};
  const scope_speedscope::Run part = read_run(path, progress, {}, plan);
  EXPECT_EQ(total, events + rank0);
  EXPECT_TRUE(part.partial);
  EXPECT_EQ(part.start_ns.size(), rank0);
  EXPECT_EQ(part.end_ns.size(), rank0);
  EXPECT_EQ(unread_ranks(part), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(run_origin_ns(part), run_origin_ns(whole));

  ReadPlan rest;
  rest.ranks = std::vector<int64_t>{1, 2, 3};
  rest.others_first_starts = false;
  const scope_speedscope::Run other = read_run(path, progress, {}, rest);
  EXPECT_EQ(total, 2 * (events - rank0));
  EXPECT_EQ(unread_ranks(other), (std::vector<int64_t>{0}));
  // Checked only (ReadPlan::keep false): the same values read, none kept.
  rest.keep = false;
  const scope_speedscope::Run checked = read_run(path, progress, {}, rest);
  EXPECT_EQ(total, 2 * (events - rank0));
  EXPECT_TRUE(checked.start_ns.empty());
  EXPECT_TRUE(checked.end_ns.empty());
  EXPECT_EQ(unread_ranks(checked), (std::vector<int64_t>{0, 1, 2, 3}));
  // Nothing was kept of rank 0's starts: its order and origin are unknown.
  try {
    (void)run_origin_ns(other);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "scope-speedscope: the first start of rank 0 asked of a read that left it out");
  }

  // The calls of a rank left out are never given out.
  TimelineOptions to;
  to.ranks = std::vector<int64_t>{1};
  try {
    (void)open_timeline(part, to);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "scope-speedscope: the calls of rank 1 asked of a read that left them out");
  }
}

// A job read a group of ranks at a time (as the page's All ranks reads
// it): the chunk where one group ends and the next begins (chunks of 1,000
// values; rank 3 from value 11,856) is decoded once, by the first group,
// and the second takes it from there: the same values as a whole read.
TEST(PartialRead, a_group_after_another_takes_the_chunk_they_share) {
  const std::string path = shared_dir() + "/h5/chunked/job_6x4000_gzip_s3.h5";
  const scope_speedscope::Run whole = read_run(path);
  ReadPlan first, second;
  first.ranks = std::vector<int64_t>{0, 1, 2};
  second.ranks = std::vector<int64_t>{3, 4, 5};
  first.others_first_starts = second.others_first_starts = false;
  const uint64_t before = edge_chunks_reused();
  const scope_speedscope::Run a = read_run(path, {}, {}, first);
  EXPECT_EQ(edge_chunks_reused(), before);
  const scope_speedscope::Run b = read_run(path, {}, {}, second);
  EXPECT_EQ(edge_chunks_reused(), before + 2);  // the starts' and the durations' chunk 11
  ASSERT_EQ(a.start_ns.size() + b.start_ns.size(), whole.start_ns.size());
  std::vector<int64_t> starts(a.start_ns.begin(), a.start_ns.end());
  starts.insert(starts.end(), b.start_ns.begin(), b.start_ns.end());
  std::vector<int64_t> ends(a.end_ns.begin(), a.end_ns.end());
  ends.insert(ends.end(), b.end_ns.begin(), b.end_ns.end());
  EXPECT_EQ(starts, std::vector<int64_t>(whole.start_ns.begin(), whole.start_ns.end()));
  EXPECT_EQ(ends, std::vector<int64_t>(whole.end_ns.begin(), whole.end_ns.end()));
  // A chunk is found by its stored bytes: another file's ranks 0 to 2,
  // stored alike (only its rank 3 differs), are taken from there and
  // decode alike; its chunks stored otherwise are its own.
  const std::string other = shared_dir() + "/h5/chunked/job_6x4000_rank3_damaged_s3.h5";
  const uint64_t reused = edge_chunks_reused();
  const scope_speedscope::Run c = read_run(other, {}, {}, first);
  EXPECT_EQ(edge_chunks_reused(), reused + 2);
  EXPECT_EQ(std::vector<int64_t>(c.start_ns.begin(), c.start_ns.end()),
            std::vector<int64_t>(a.start_ns.begin(), a.start_ns.end()));
  EXPECT_THROW((void)read_run(other, {}, {}, second),
               Error);  // rank 3's durations decoded: damaged
}

// Damage in a rank the timeline did not read (make_ranks.py damaged): the
// timeline of rank 0 opens; its export fails as the file's does, before
// anything is written; a timeline holding rank 2 fails as it opens.
TEST(PartialRead, damage_in_a_rank_left_out_fails_the_export) {
  const std::string path = shared_dir() + "/partial/ranks_damaged_rank2_s3.h5";
  const std::string message = "error: " + path +
                              ": the times decoded from events/durations overflow 64-bit "
                              "nanoseconds at events/durations[34]. The file is damaged.";
  const Opened part = open_and_export(path, {0}, std::nullopt, std::nullopt, true);
  EXPECT_EQ(part.lanes, (std::vector<std::string>{"rank 0 15 0 5000"}));
  EXPECT_EQ(part.unread, (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ("error: " + part.error, message);
  EXPECT_TRUE(part.docs.empty());
  EXPECT_EQ(part.error, open_and_export(path, {0}, std::nullopt, std::nullopt, false).error);
  const Opened two = open_and_export(path, {2}, std::nullopt, std::nullopt, true);
  EXPECT_EQ("error: " + two.error, message);
  EXPECT_TRUE(two.lanes.empty());
}

TEST(PartialRead, an_export_without_the_rest_is_refused) {
  ReadPlan plan;
  plan.ranks = std::vector<int64_t>{0};
  TimelineOptions to;
  const Timeline tl =
      open_timeline(read_run(shared_dir() + "/h5/ranks_imbalance_s3.h5", {}, {}, plan), to);
  EXPECT_EQ(tl.unread_ranks(), (std::vector<int64_t>{1, 2, 3}));
  CollectTarget target;
  ExportOptions eo;
  eo.verbose = false;
  try {
    export_timeline(tl, "out", eo, target);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "scope-speedscope: a timeline read without some ranks' calls exported without "
                 "reading them");
  }
  EXPECT_TRUE(target.docs.empty());
}

}  // namespace
}  // namespace scope_speedscope::test
