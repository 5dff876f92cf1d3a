// Source locations (read/h5_source.cpp): the exact columns per layout, the
// region's choice (its lowest rank's row), nothing read by default, and
// the rule for bad values (read as unknown, one warning, never a failure).
// Fixtures: tests/fixtures/source (tests/fixtures/gen/make_sources.py).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "read/h5_reader.hpp"
#include "test_support.hpp"

namespace scope_speedscope::test {
namespace {

std::string source_h5(const std::string& name) { return shared_dir() + "/source/" + name; }

Run read_sources(const std::string& path) {
  ReadPlan plan;
  plan.sources = true;
  return read_run(path, {}, {}, plan);
}

// "rank:file|line|text" for each row of a region, in the region's order.
std::vector<std::string> rows_of(const Run& run, const std::string& region) {
  std::vector<std::string> out;
  for (const Region& r : run.regions) {
    if (r.name != region) continue;
    for (const RankSlice& slice : r.ranks) {
      const SourceLocation* s = slice_source(run, slice);
      out.push_back(std::to_string(slice.rank) + ":" +
                    (s ? s->file + "|" + std::to_string(s->line) + "|" + s->text : "-"));
    }
  }
  return out;
}

std::string region_of(const Run& run, const std::string& region) {
  for (const Region& r : run.regions) {
    if (r.name != region) continue;
    const SourceLocation* s = region_source(run, r);
    return s ? s->file + "|" + std::to_string(s->line) + "|" + s->text : "-";
  }
  return "no such region";
}

const std::string kIoFile =
    "io/wr\xc3\xae"
    "te.py";

// The good fixtures: rank 1's rows first in the columnar ones.
void expect_good(const Run& run, bool rank1_first) {
  EXPECT_TRUE(run.sources_read);
  EXPECT_EQ(run.warnings, std::vector<std::string>{});
  auto order = [&](std::string r0, std::string r1) {
    return rank1_first ? std::vector<std::string>{r1, r0} : std::vector<std::string>{r0, r1};
  };
  EXPECT_EQ(rows_of(run, "main"), order("0:run.py|12|main()", "1:run.py|12|main()"));
  EXPECT_EQ(rows_of(run, "solve"), order("0:-", "1:solver/cg.py|217|x = cg(a, b)"));
  EXPECT_EQ(rows_of(run, "io"),
            order("0:" + kIoFile + "|3|\tflush(f)\n", "1:io/other.py|4|other()"));
  // The region's: its lowest rank's row, even when unknown there.
  EXPECT_EQ(region_of(run, "main"), "run.py|12|main()");
  EXPECT_EQ(region_of(run, "solve"), "-");
  EXPECT_EQ(region_of(run, "io"), kIoFile + "|3|\tflush(f)\n");
}

TEST(sources, schema_1_attributes) { expect_good(read_sources(source_h5("sources_s1.h5")), false); }
TEST(sources, schema_2_columns) { expect_good(read_sources(source_h5("sources_s2.h5")), true); }
TEST(sources, schema_3_columns) { expect_good(read_sources(source_h5("sources_s3.h5")), true); }
TEST(sources, aggregate_columns) {
  expect_good(read_sources(source_h5("sources_aggregate_s2.h5")), true);
}

TEST(sources, the_compatibility_fixtures_hold_solver_py_line_7) {
  for (const char* name : {"hdf5-schema-1.h5", "hdf5-schema-2.h5", "hdf5-schema-3.h5"}) {
    const scope_speedscope::Run run = read_sources(shared_dir() + "/h5/" + name);
    EXPECT_EQ(rows_of(run, "solve"), std::vector<std::string>{"0:solver.py|7|"}) << name;
    EXPECT_EQ(run.warnings, std::vector<std::string>{}) << name;
  }
}

TEST(sources, files_without_source_data_read_as_unknown_without_a_warning) {
  for (const std::string& path :
       {source_h5("none_s3.h5"), shared_dir() + "/h5/real_run_s1.h5",
        shared_dir() + "/h5/edge_s3.h5", shared_dir() + "/h5/aggregate_s2.h5"}) {
    const scope_speedscope::Run run = read_sources(path);
    EXPECT_TRUE(run.sources_read) << path;
    EXPECT_EQ(run.warnings, std::vector<std::string>{}) << path;
    for (const Region& r : run.regions) {
      EXPECT_EQ(region_source(run, r), nullptr) << path << " " << r.name;
      for (const RankSlice& s : r.ranks) EXPECT_EQ(slice_source(run, s), nullptr) << path;
    }
  }
}

TEST(sources, nothing_is_read_by_default) {
  const scope_speedscope::Run run = read_run(source_h5("hostile_s3.h5"));
  EXPECT_FALSE(run.sources_read);
  EXPECT_TRUE(run.sources.empty());
  EXPECT_EQ(run.warnings, std::vector<std::string>{});
  EXPECT_EQ(rows_of(run, "main"), (std::vector<std::string>{"1:-", "0:-"}));
}

TEST(sources, hostile_columns_read_as_unknown_with_one_warning) {
  const std::string path = source_h5("hostile_s3.h5");
  const scope_speedscope::Run run = read_sources(path);
  // source_files is an int64 column: every file unknown; main's line -7 and
  // its 5000-byte text unknown; solve's 4096-byte text kept.
  EXPECT_EQ(rows_of(run, "main"), (std::vector<std::string>{"1:|12|main()", "0:-"}));
  EXPECT_EQ(rows_of(run, "solve"),
            (std::vector<std::string>{"1:|217|x = cg(a, b)", "0:|-1|" + std::string(4096, 'y')}));
  EXPECT_EQ(rows_of(run, "io"), (std::vector<std::string>{"1:|4|other()", "0:|3|\tflush(f)\n"}));
  EXPECT_EQ(
      run.warnings,
      std::vector<std::string>{
          path + ": 3 source location value(s) could not be used and are read as unknown (the "
                 "first: dataset 'rank_region_index/source_files' could not be read (dataset "
                 "'rank_region_index/source_files' does not hold strings))"});
}

TEST(sources, a_column_of_the_wrong_length_is_unknown_and_fixed_strings_are_read) {
  const std::string path = source_h5("wronglen_s2.h5");
  const scope_speedscope::Run run = read_sources(path);
  EXPECT_EQ(rows_of(run, "main"),
            (std::vector<std::string>{"1:run.py|-1|main()", "0:run.py|-1|main()"}));
  EXPECT_EQ(rows_of(run, "io"), (std::vector<std::string>{"1:io/other.py|-1|other()",
                                                          "0:" + kIoFile + "|-1|\tflush(f)\n"}));
  EXPECT_EQ(
      run.warnings,
      std::vector<std::string>{
          path + ": 1 source location value(s) could not be used and are read as unknown (the "
                 "first: dataset 'rank_region_index/source_lines' has 7 values where 6 were "
                 "expected)"});
}

TEST(sources, hostile_attributes_read_as_unknown_with_one_warning) {
  const std::string path = source_h5("hostile_s1.h5");
  const scope_speedscope::Run run = read_sources(path);
  // main: a string line and an integer file; solve: line -3, a 5000-byte
  // text, file kept; io: a float line.
  EXPECT_EQ(rows_of(run, "main"), (std::vector<std::string>{"0:-", "1:run.py|12|main()"}));
  EXPECT_EQ(rows_of(run, "solve"),
            (std::vector<std::string>{"0:ok.py|-1|", "1:solver/cg.py|217|x = cg(a, b)"}));
  EXPECT_EQ(rows_of(run, "io"), (std::vector<std::string>{"0:-", "1:io/other.py|4|other()"}));
  EXPECT_EQ(
      run.warnings,
      std::vector<std::string>{
          path + ": 5 source location value(s) could not be used and are read as unknown (the "
                 "first: attribute 'source_lineno' of rank0/regions/io is not an integer)"});
}

TEST(sources, a_partial_read_keeps_every_rows_source) {
  ReadPlan plan;
  plan.sources = true;
  plan.ranks = std::vector<int64_t>{1};
  const scope_speedscope::Run run = read_run(source_h5("sources_s3.h5"), {}, {}, plan);
  EXPECT_TRUE(run.partial);
  EXPECT_EQ(region_of(run, "main"), "run.py|12|main()");
  EXPECT_EQ(rows_of(run, "solve"),
            (std::vector<std::string>{"1:solver/cg.py|217|x = cg(a, b)", "0:-"}));
}

}  // namespace
}  // namespace scope_speedscope::test
