// select/job: a job written one file per process (make_job.py: the C API's
// <prefix>_rank<NNNNN>.h5, schema 2) read as one run answers exactly what
// the same job written as one file answers (import-native's, schema 3):
// the export of every rank byte for byte, the timeline's lanes, bars,
// origin, imbalance and aligned calls, the imbalance and diff reports; for
// 2 and 64 ranks, whatever order the files come in. Files that are not of
// one job are refused naming them; a file without rank 0 opens its ranks.
#include "select/job.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "compare/diff_report.hpp"
#include "export/export.hpp"
#include "export/imbalance_report.hpp"
#include "read/h5_reader.hpp"
#include "select/selection.hpp"
#include "test_paths.hpp"
#include "test_support.hpp"
#include "timeline/timeline.hpp"

namespace scope_speedscope::test {
namespace {

std::string job_dir(int ranks) {
  return std::string(SCOPE_TEST_FIXTURES_DIR) + "/job/" + std::to_string(ranks) + "/";
}

std::vector<std::string> part_paths(int ranks) {
  std::vector<std::string> paths;
  for (int r = 0; r < ranks; ++r) {
    char name[32];
    std::snprintf(name, sizeof name, "job_rank%05d.h5", r);
    paths.push_back(job_dir(ranks) + name);
  }
  return paths;
}

scope_speedscope::Run read_paths(const std::vector<std::string>& paths, const ReadPlan& plan = {}) {
  return read_job(
      paths.size(), [&](std::size_t i, const ReadPlan& p) { return read_run(paths[i], {}, {}, p); },
      plan);
}

std::string export_all(const scope_speedscope::Run& run) {
  ExportOptions options;
  options.every_rank = true;
  options.verbose = false;
  CollectTarget target;
  export_speedscope({run}, "profile.speedscope.json", options, target);
  EXPECT_EQ(target.docs.size(), 1u);
  return target.docs.at(0).text;
}

// Everything but the first line (the heading names the files).
std::string after_heading(const std::string& text) { return text.substr(text.find('\n') + 1); }

void expect_same_timelines(const scope_speedscope::Run& job, const scope_speedscope::Run& single) {
  TimelineOptions every;
  every.every_rank = true;
  const Timeline a = open_timeline(job, every);
  const Timeline b = open_timeline(single, every);
  ASSERT_EQ(a.lanes().size(), b.lanes().size());
  EXPECT_EQ(a.frames(), b.frames());
  EXPECT_EQ(a.origin_ns(), b.origin_ns());
  EXPECT_EQ(a.run_end_ns(), b.run_end_ns());
  EXPECT_EQ(a.ranks(), b.ranks());
  for (std::size_t l = 0; l < a.lanes().size(); ++l) {
    EXPECT_EQ(a.lanes()[l].name, b.lanes()[l].name);
    EXPECT_EQ(a.lanes()[l].rank, b.lanes()[l].rank);
    EXPECT_EQ(a.lanes()[l].calls, b.lanes()[l].calls);
    const Timeline::Bars x = a.bars(l, 0, a.run_end_ns(), 1000);
    const Timeline::Bars y = b.bars(l, 0, b.run_end_ns(), 1000);
    EXPECT_EQ(x.start, y.start);
    EXPECT_EQ(x.end, y.end);
    EXPECT_EQ(x.depth, y.depth);
    EXPECT_EQ(x.frame, y.frame);
  }
  const auto ia = a.imbalance(0, a.run_end_ns());
  const auto ib = b.imbalance(0, b.run_end_ns());
  ASSERT_EQ(ia.size(), ib.size());
  for (std::size_t i = 0; i < ia.size(); ++i) {
    EXPECT_EQ(ia[i].frame, ib[i].frame);
    EXPECT_EQ(ia[i].ranks, ib[i].ranks);
    EXPECT_EQ(ia[i].max_ns, ib[i].max_ns);
    EXPECT_EQ(ia[i].min_ns, ib[i].min_ns);
    EXPECT_EQ(ia[i].mean_ns, ib[i].mean_ns);
    EXPECT_EQ(ia[i].median_ns, ib[i].median_ns);
    EXPECT_EQ(ia[i].slowest_rank, ib[i].slowest_rank);
  }
  for (int32_t f = 0; f < static_cast<int32_t>(a.frames().size()); ++f) {
    const auto ca = a.aligned_calls(f, 0, a.run_end_ns());
    const auto cb = b.aligned_calls(f, 0, b.run_end_ns());
    EXPECT_EQ(ca.rank, cb.rank);
    EXPECT_EQ(ca.start_ns, cb.start_ns);
    EXPECT_EQ(ca.end_ns, cb.end_ns);
    EXPECT_EQ(ca.lateness_ns, cb.lateness_ns);
  }
}

void expect_job_is_the_file(int ranks) {
  SCOPED_TRACE(std::to_string(ranks) + " ranks");
  const scope_speedscope::Run single = read_run(job_dir(ranks) + "job.h5");
  std::vector<std::string> paths = part_paths(ranks);
  const scope_speedscope::Run job = read_paths(paths);
  EXPECT_EQ(job.num_ranks, ranks);
  EXPECT_EQ(job.display_label(), "job");
  EXPECT_EQ(job.job_files, paths);
  EXPECT_EQ(job.path, paths[0] + " + " + std::to_string(ranks - 1) +
                          (ranks == 2 ? " more file" : " more files"));
  EXPECT_EQ(run_ranks(job), run_ranks(single));
  const std::string document = export_all(single);
  EXPECT_EQ(export_all(job), document);
  // The files in any order make the same job.
  std::reverse(paths.begin(), paths.end());
  const scope_speedscope::Run reversed = read_paths(paths);
  EXPECT_EQ(export_all(reversed), document);
  expect_same_timelines(job, single);
  // The reports: the same rows.
  for (const bool json : {false, true}) {
    ImbalanceReportOptions io;
    io.json = json;
    const std::string from_job = imbalance_report(read_paths(part_paths(ranks)), io);
    const std::string from_file = imbalance_report(read_run(job_dir(ranks) + "job.h5"), io);
    if (json) {  // {"file": ..., then the same
      EXPECT_EQ(from_job.substr(from_job.find("\"ranks\"")),
                from_file.substr(from_file.find("\"ranks\"")));
    } else {
      EXPECT_EQ(after_heading(from_job), after_heading(from_file));
    }
  }
  // diff of the file against its job: what the file against itself says.
  DiffReportOptions d;
  d.selection.all_ranks = true;
  d.json = true;
  EXPECT_EQ(diff_report(single, job, d).text, diff_report(single, single, d).text);
  d.json = false;
  const std::string text = diff_report(single, job, d).text;
  const std::string itself = diff_report(single, single, d).text;
  EXPECT_EQ(text.substr(text.find("\nB: ") + 1),
            "B: " + job.path + itself.substr(itself.find("\nevery")));
}

TEST(Job, TwoProcessFilesAreTheJobsFile) { expect_job_is_the_file(2); }

TEST(Job, SixtyFourProcessFilesAreTheJobsFile) { expect_job_is_the_file(64); }

TEST(Job, ReadOfSomeRanksKeepsTheJobsOrderAndOrigin) {
  // Rank 1 of the job from its files (rank 0's first starts only) is rank
  // 1 of the file: the same document.
  ReadPlan plan;
  plan.ranks = std::vector<int64_t>{1};
  const scope_speedscope::Run job = read_paths(part_paths(2), plan);
  EXPECT_TRUE(job.partial);
  const scope_speedscope::Run single = read_run(job_dir(2) + "job.h5", {}, {}, plan);
  TimelineOptions one;
  one.ranks = std::vector<int64_t>{1};
  const Timeline a = open_timeline(job, one);
  const Timeline b = open_timeline(single, one);
  EXPECT_EQ(a.origin_ns(), b.origin_ns());
  EXPECT_EQ(a.frames(), b.frames());
  EXPECT_EQ(a.unread_ranks(), (std::vector<int64_t>{0}));
  EXPECT_EQ(a.unread_ranks(), b.unread_ranks());
}

TEST(Job, TheSameRankInTwoFilesIsRefusedNamingBoth) {
  const std::string a = job_dir(2) + "job_rank00000.h5";
  const std::string b = job_dir(2) + "rerun_rank00000.h5";
  try {
    read_paths({a, b});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.code()), "job_same_rank");
    EXPECT_EQ(std::string(e.what()),
              a + " and " + b +
                  " both hold rank 0: the files of one job must hold different ranks (two runs "
                  "of the same ranks are compared, not joined)");
    EXPECT_EQ(e.kind(), ErrorKind::value);
    EXPECT_EQ(e.file(), b);
  }
}

TEST(Job, ADifferentMpiSizeIsRefusedNamingBoth) {
  const std::string four = std::string(SCOPE_TEST_FIXTURES_DIR) + "/h5/ranks_imbalance_s3.h5";
  const std::string two = job_dir(2) + "job.h5";
  try {
    read_paths({two, four});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.code()), "job_not_one_job");
    EXPECT_EQ(std::string(e.what()), two + " and " + four + " are not files of one job: " + two +
                                         " records mpi_size 2, " + four + " records mpi_size 4");
  }
  const std::string process = job_dir(2) + "job_rank00001.h5";
  try {
    read_paths({process, two});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              process + " and " + two + " are not files of one job: " + process +
                  " is one process's file (no mpi_size), " + two + " records mpi_size 2");
  }
  // A run that records neither (make_run's "memory.h5").
  try {
    std::vector<scope_speedscope::Run> parts;
    parts.push_back(make_run({{"solve", 0, {{10, 20}}, {}}}));
    parts.push_back(read_run(process));
    merge_job(std::move(parts));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "memory.h5 and " + process +
                  " are not files of one job: memory.h5 records neither mpi_size nor its "
                  "process's mpi_rank");
    EXPECT_EQ(e.people_message(), "memory.h5 and " + process +
                                      " cannot be opened as one job: memory.h5 records neither "
                                      "mpi_size nor its process's mpi_rank.");
  }
}

TEST(Job, AFileWithoutRankZeroOpensItsRanks) {
  const std::string path = job_dir(2) + "job_rank00001.h5";
  int reads = 0;
  const auto read = [&](std::size_t, const ReadPlan& p) {
    ++reads;
    return read_run(path, {}, {}, p);
  };
  const scope_speedscope::Run run = read_job_for_view(1, read, ReadPlan(), std::nullopt, false);
  EXPECT_EQ(reads, 2);  // rank 0 asked first; the file has none, so all of it
  EXPECT_FALSE(run.partial);
  const Timeline tl = open_timeline(run, TimelineOptions());
  ASSERT_EQ(tl.lanes().size(), 1u);
  EXPECT_EQ(tl.lanes()[0].name, "rank 1");
  EXPECT_EQ(tl.ranks(), (std::vector<int64_t>{1}));
  // A file with rank 0 opens rank 0 alone, read once.
  reads = 0;
  const scope_speedscope::Run job = read_job_for_view(
      2,
      [&](std::size_t i, const ReadPlan& p) {
        ++reads;
        return read_run(part_paths(2)[i], {}, {}, p);
      },
      ReadPlan(), std::nullopt, false);
  EXPECT_EQ(reads, 2);
  EXPECT_EQ(open_timeline(job, TimelineOptions()).ranks(), (std::vector<int64_t>{0}));
  // The export keeps scope-profiler's default and message.
  ExportOptions options;
  options.verbose = false;
  CollectTarget target;
  try {
    export_speedscope({run}, "p.json", options, target);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "No calls recorded for the requested ranks.");
  }
}

TEST(Job, DiffAddsUpTheRanksBothRunsHaveWithoutRankZero) {
  const scope_speedscope::Run single = read_run(job_dir(2) + "job.h5");
  const scope_speedscope::Run one = read_run(job_dir(2) + "job_rank00001.h5");
  const DiffReport report = diff_report(single, one, DiffReportOptions());
  EXPECT_EQ(report.text.substr(0, report.text.find(';')),
            "A: " + single.path + "\nB: " + one.path + "\nrank 1");
  EXPECT_EQ(diff_default_ranks(single, one), (std::optional<std::vector<int64_t>>{{1}}));
  EXPECT_EQ(diff_default_ranks(single, single), std::nullopt);
  EXPECT_EQ(view_ranks(one, std::nullopt, false), (std::vector<int64_t>{1}));
  EXPECT_EQ(view_ranks(single, std::nullopt, false), (std::vector<int64_t>{0}));
}

}  // namespace
}  // namespace scope_speedscope::test
