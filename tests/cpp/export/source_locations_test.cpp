// --source-locations (frames' "file" and "line"), imbalance --source and
// diff --source, the timeline's frame sources and the CLI's flags: exact
// bytes on the source fixtures (tests/fixtures/source; the expected
// documents from tests/fixtures/gen/make_source_expected.py).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/options.hpp"
#include "compare/diff_report.hpp"
#include "export/export.hpp"
#include "export/imbalance_report.hpp"
#include "export/source_text.hpp"
#include "export/timeline_export.hpp"
#include "process.hpp"
#include "read/h5_reader.hpp"
#include "test_support.hpp"
#include "timeline/timeline.hpp"

namespace scope_speedscope::test {
namespace {

std::string source_h5(const std::string& name) { return shared_dir() + "/source/" + name; }

Run read_with_sources(const std::string& path, bool sources = true) {
  ReadPlan plan;
  plan.sources = sources;
  return read_run(path, {}, {}, plan);
}

std::string export_bytes(const Run& run, bool frame_sources, const Narrowing& narrowing = {}) {
  TempDir dir;
  ExportOptions options;
  options.ranks = std::vector<int64_t>{0, 1};
  options.source_locations = frame_sources;
  options.narrowing = narrowing;
  options.verbose = false;
  const auto written = export_speedscope({run}, dir / "out.speedscope.json", options);
  return read_bytes(written.at(0));
}

class source_locations : public ::testing::TestWithParam<std::string> {};

TEST_P(source_locations, frames_carry_the_lowest_ranks_file_and_line) {
  const std::string want =
      as_ours(read_bytes(shared_dir() + "/source/expected/" + GetParam() + ".speedscope.json"));
  const scope_speedscope::Run run = read_with_sources(source_h5(GetParam() + ".h5"));
  EXPECT_EQ(first_difference(export_bytes(run, true), want), "");
}

TEST_P(source_locations, are_off_by_default_and_the_document_stays_the_files) {
  // Read with or without its sources, the default document has {"name"} frames.
  const std::string plain =
      export_bytes(read_with_sources(source_h5(GetParam() + ".h5"), false), false);
  EXPECT_EQ(plain.find("\"file\""), std::string::npos);
  EXPECT_EQ(plain.find("\"line\""), std::string::npos);
  EXPECT_EQ(export_bytes(read_with_sources(source_h5(GetParam() + ".h5"), true), false), plain);
  // Asked for, but the run was read without them: no frame has them.
  EXPECT_EQ(export_bytes(read_with_sources(source_h5(GetParam() + ".h5"), false), true), plain);
}

INSTANTIATE_TEST_SUITE_P(fixtures, source_locations,
                         ::testing::Values("sources_s1", "sources_s2", "sources_s3", "hostile_s1",
                                           "hostile_s3", "wronglen_s2"));

TEST(source_locations, a_narrowed_export_keeps_them) {
  Narrowing n;
  set_min_duration(n, "200ns", "min", true);  // io (100 ns) is dropped
  const std::string got = export_bytes(read_with_sources(source_h5("sources_s3.h5")), true, n);
  EXPECT_NE(got.find("\"frames\": [{\"name\": \"main\", \"file\": \"run.py\", \"line\": 12}, "
                     "{\"name\": \"solve\"}]}, "),
            std::string::npos)
      << got.substr(0, 300);
}

TEST(source_locations, the_timeline_holds_each_frames_source) {
  TimelineOptions options;
  options.ranks = std::vector<int64_t>{0, 1};
  const Timeline tl = open_timeline(read_with_sources(source_h5("sources_s2.h5")), options);
  EXPECT_EQ(tl.frames(), (std::vector<std::string>{"main", "solve", "io"}));
  ASSERT_EQ(tl.frame_sources().size(), 3u);
  EXPECT_EQ(tl.frame_sources()[0], (SourceLocation{"run.py", 12, "main()"}));
  EXPECT_EQ(tl.frame_sources()[1], SourceLocation{});
  EXPECT_EQ(tl.frame_sources()[2], (SourceLocation{"io/wr\xc3\xaete.py", 3, "\tflush(f)\n"}));
  const Timeline plain = open_timeline(read_run(source_h5("sources_s2.h5")), options);
  EXPECT_TRUE(plain.frame_sources().empty());
}

// A timeline's download (export_timeline) with source_locations: the
// file's export with the same ranks, narrowing and option, byte for byte.
TEST(source_locations, a_timelines_download_carries_them_as_the_files_export) {
  for (const char* name : {"sources_s1", "sources_s2", "hostile_s1", "wronglen_s2"}) {
    const scope_speedscope::Run run = read_with_sources(source_h5(std::string(name) + ".h5"));
    for (const std::vector<int64_t>& ranks :
         {std::vector<int64_t>{0, 1}, std::vector<int64_t>{1}}) {
      TimelineOptions to;
      to.ranks = ranks;
      const Timeline tl = open_timeline(run, to);
      Narrowing narrowed;
      set_min_duration(narrowed, "200ns", "min", true);
      for (const Narrowing& n : {Narrowing{}, narrowed}) {
        ExportOptions eo;
        eo.source_locations = true;
        eo.verbose = false;
        eo.narrowing = n;
        CollectTarget from_timeline;
        export_timeline(tl, "out", eo, from_timeline);
        eo.ranks = ranks;
        CollectTarget from_file;
        export_speedscope({run}, "out", eo, from_file);
        ASSERT_EQ(from_timeline.docs.size(), 1u);
        ASSERT_EQ(from_file.docs.size(), 1u);
        EXPECT_EQ(first_difference(from_timeline.docs[0].text, from_file.docs[0].text), "")
            << name << " ranks " << ranks.size() << " narrowed " << n.active();
        if (std::string(name).rfind("sources_", 0) == 0) {  // they know some lines
          EXPECT_NE(from_timeline.docs[0].text.find("\"line\": "), std::string::npos) << name;
        }
      }
    }
  }
  // A timeline of a run read without its sources cannot give them.
  TimelineOptions to;
  to.ranks = std::vector<int64_t>{0, 1};
  const Timeline plain = open_timeline(read_run(source_h5("sources_s2.h5")), to);
  ExportOptions eo;
  eo.source_locations = true;
  CollectTarget target;
  try {
    export_timeline(plain, "out", eo, target);
    FAIL() << "exported";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "exportSpeedscope: sourceLocations needs a timeline opened with sourceLocations: "
              "true (its source locations were not read)");
    EXPECT_EQ(std::string(e.code()), "bad_argument");
  }
}

TEST(source_locations, cells_and_json_of_the_reports) {
  const SourceLocation full{"a.py", 3, "  x = 1\t# one\n"};
  EXPECT_EQ(source_cell(&full), "a.py:3  x = 1 # one");
  EXPECT_EQ(source_cell(nullptr), "-");
  const SourceLocation line_only{"", 7, ""};
  EXPECT_EQ(source_cell(&line_only), "line 7");
  const SourceLocation text_only{"", -1, "f()"};
  EXPECT_EQ(source_cell(&text_only), "f()");
  std::string json;
  append_source_json(json, &full);
  EXPECT_EQ(json,
            ", \"source\": {\"file\": \"a.py\", \"line\": 3, \"text\": \"  x = 1\\t# one\\n\"}");
  json.clear();
  append_source_json(json, &text_only);
  EXPECT_EQ(json, ", \"source\": {\"file\": null, \"line\": null, \"text\": \"f()\"}");
  json.clear();
  append_source_json(json, nullptr);
  EXPECT_EQ(json, ", \"source\": {\"file\": null, \"line\": null, \"text\": null}");
}

std::string imbalance(const std::string& name, bool json) {
  ImbalanceReportOptions options;
  options.json = json;
  options.source = true;
  return imbalance_report(read_with_sources(source_h5(name)), options);
}

TEST(source_locations, imbalance_source_table) {
  const std::string path = source_h5("sources_s3.h5");
  EXPECT_EQ(imbalance("sources_s3.h5", false),
            path +
                ": 2 ranks (0-1), the whole run; covered time per rank (the union of a region's "
                "calls)\n"
                "region  ranks        min     median       mean        max  imbalance  slowest "
                "rank  source\n"
                "main        2     900 ns     900 ns     900 ns     900 ns      0.0 %             "
                "0  run.py:12  main()\n"
                "solve       2     300 ns     300 ns     300 ns     300 ns      0.0 %             "
                "0  -\n"
                "io          2     100 ns     100 ns     100 ns     100 ns      0.0 %             "
                "0  io/wr\xc3\xaete.py:3  flush(f)\n");
}

TEST(source_locations, imbalance_source_json) {
  const std::string got = imbalance("sources_s3.h5", true);
  EXPECT_NE(got.find("\"slowestRank\": 0, \"source\": {\"file\": \"run.py\", \"line\": 12, "
                     "\"text\": \"main()\"}}"),
            std::string::npos)
      << got;
  EXPECT_NE(got.find("\"slowestRank\": 0, \"source\": {\"file\": null, \"line\": null, \"text\": "
                     "null}}"),
            std::string::npos)
      << got;
  EXPECT_NE(got.find("\"source\": {\"file\": \"io/wr\\u00eete.py\", \"line\": 3, \"text\": "
                     "\"\\tflush(f)\\n\"}}]}\n"),
            std::string::npos)
      << got;
  // Without --source, no "source".
  ImbalanceReportOptions plain;
  plain.json = true;
  EXPECT_EQ(
      imbalance_report(read_with_sources(source_h5("sources_s3.h5")), plain).find("\"source\""),
      std::string::npos);
}

TEST(source_locations, diff_source_takes_bs_and_else_as) {
  DiffReportOptions options;
  options.selection.all_ranks = true;
  options.source = true;
  // A: the hostile file (main unknown, solve ok.py); B: the good one.
  const DiffReport table = diff_report(read_with_sources(source_h5("hostile_s1.h5")),
                                       read_with_sources(source_h5("sources_s1.h5")), options);
  EXPECT_NE(table.text.find("Δ total  source\n"), std::string::npos) << table.text;
  EXPECT_NE(table.text.find(" run.py:12  main()\n"), std::string::npos) << table.text;
  // solve: B's row is unknown (rank 0), so A's ok.py is shown.
  EXPECT_NE(table.text.find(" ok.py\n"), std::string::npos) << table.text;
  options.json = true;
  const DiffReport json = diff_report(read_with_sources(source_h5("hostile_s1.h5")),
                                      read_with_sources(source_h5("sources_s1.h5")), options);
  EXPECT_NE(json.text.find("\"deltaSelfPct\": 0.0, \"source\": {\"file\": \"ok.py\", \"line\": "
                           "null, \"text\": null}}"),
            std::string::npos)
      << json.text;
}

struct Cli {
  int status;
  std::string out, err;
};

Cli run_cli(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {SCOPE_TEST_CLI};
  argv.insert(argv.end(), args.begin(), args.end());
  const Watched w = run_watched(argv, 600);
  return {w.signal ? 128 + w.signal : w.exit_code, w.out, w.err};
}

TEST(source_locations, the_cli_flag_writes_them_and_says_the_warning) {
  TempDir dir;
  const std::string in = source_h5("hostile_s3.h5");
  const Cli c = run_cli({in, "--filepath", dir / "out.speedscope.json", "--ranks", "0-1",
                         "--source-locations", "-q"});
  EXPECT_EQ(c.status, 0) << c.err;
  EXPECT_EQ(c.out, "");
  EXPECT_EQ(c.err, "warning: " + in +
                       ": 3 source location value(s) could not be used and are read as unknown "
                       "(the first: dataset 'rank_region_index/source_files' could not be read "
                       "(dataset 'rank_region_index/source_files' does not hold strings))\n");
  EXPECT_EQ(first_difference(
                read_bytes(dir / "out.speedscope.json"),
                as_ours(read_bytes(shared_dir() + "/source/expected/hostile_s3.speedscope.json"))),
            "");
  // Without the flag nothing of the source is read: no warning.
  const Cli plain = run_cli({in, "--filepath", dir / "plain.speedscope.json", "-q"});
  EXPECT_EQ(plain.status, 0);
  EXPECT_EQ(plain.err, "");
}

TEST(source_locations, the_cli_reports_take_source) {
  const std::string in = source_h5("sources_s3.h5");
  const Cli imb = run_cli({"imbalance", in, "--source"});
  EXPECT_EQ(imb.status, 0) << imb.err;
  EXPECT_EQ(imb.out, imbalance("sources_s3.h5", false));
  const Cli diff = run_cli({"diff", in, in, "--source", "--json"});
  EXPECT_EQ(diff.status, 0) << diff.err;
  EXPECT_NE(diff.out.find("{\"name\": \"main\", \"a\": {\"calls\": 1, \"total\": 900, \"self\": "
                          "500}, \"b\": {\"calls\": 1, \"total\": 900, \"self\": 500}, "
                          "\"deltaTotal\": 0, \"deltaSelf\": 0, \"deltaSelfPct\": 0.0, \"source\": "
                          "{\"file\": \"run.py\", \"line\": 12, \"text\": \"main()\"}}"),
            std::string::npos)
      << diff.out;
  const Cli bad = run_cli({"diff", in, in, "--source=yes"});
  EXPECT_EQ(bad.status, 2);
  const CliOptions o = parse_cli({"a.h5", "-o", "out", "--source-locations"});
  EXPECT_TRUE(o.source_locations);
  EXPECT_FALSE(parse_cli({"a.h5", "-o", "out"}).source_locations);
}

}  // namespace
}  // namespace scope_speedscope::test
