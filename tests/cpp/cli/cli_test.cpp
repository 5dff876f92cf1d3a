// The native command-line tool, spawned as a process: every case of the
// shared and generated case lists, and the flags themselves.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <set>

#include "cli/options.hpp"
#include "export/export.hpp"
#include "process.hpp"
#include "read/h5_reader.hpp"
#include "sha256.hpp"
#include "test_support.hpp"

namespace scope_speedscope::test {
namespace {

struct Process {
  int status = -1;  // exit status, or 128 + signal
  std::string out;
  std::string err;
};

// Runs the CLI with `args` (no shell), capturing stdout and stderr.
Process run_cli(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {SCOPE_TEST_CLI};
  argv.insert(argv.end(), args.begin(), args.end());
  const Watched w = run_watched(argv, 600);
  Process p;
  p.status = w.signal ? 128 + w.signal : w.exit_code;
  p.out = w.out;
  p.err = w.err;
  return p;
}

std::string join(const std::vector<int64_t>& ranks) {
  std::string s;
  for (std::size_t i = 0; i < ranks.size(); ++i) s += (i ? "," : "") + std::to_string(ranks[i]);
  return s;
}

// What the CLI should produce: file contents (our exporter value) or a hash of
// them (scope-profiler's exporter value), or an error message.
struct Expectation {
  bool ok = false;
  std::map<std::string, std::string> bytes;                     // file -> our bytes
  std::map<std::string, std::pair<std::string, uint64_t>> sha;  // file -> (sha256, size)
  std::string message;
  bool prefix_only = false;
};

Expectation from_case(const Case& c) {
  Expectation e;
  e.ok = !c.is_error;
  for (const CaseOutput& o : c.outputs) {
    if (o.expected.empty()) {
      e.sha[o.file] = {o.sha256, o.bytes};
    } else {
      e.bytes[o.file] = as_ours(read_bytes(o.expected));
    }
  }
  if (c.is_error) {
    e.message = replace_all(c.error_message, "{path}", c.inputs.front());
    const std::string underlying = "the underlying error was: ";
    const auto at = e.message.find(underlying);
    // Shared cases hold HDF5 1.14's words (ours); generated ones h5py's.
    if (c.set != "shared" && c.error_kind == "CorruptProfileError" && at != std::string::npos) {
      e.prefix_only = true;
      e.message = e.message.substr(0, at + underlying.size());
    }
  }
  return e;
}

// The library's own result for these arguments.
Expectation from_library(const std::vector<std::string>& inputs, const std::string& filepath,
                         const std::optional<std::vector<int64_t>>& ranks, const Case& c) {
  Expectation e;
  TempDir dir;
  try {
    std::vector<scope_speedscope::Run> runs;
    for (const std::string& input : inputs) runs.push_back(read_run(input));
    ExportOptions options;
    options.ranks = ranks;
    options.include = c.include;
    options.exclude = c.exclude;
    options.narrowing = narrowing_of(c);
    options.verbose = false;
    export_speedscope(runs, dir / filepath, options);
    e.ok = true;
    for (const std::string& f : files_under(dir.path())) e.bytes[f] = read_bytes(dir / f);
  } catch (const Error& err) {
    e.message = err.what();
  }
  return e;
}

void check(const Process& p, const Expectation& e, const std::string& dir) {
  if (e.ok) {
    EXPECT_EQ(p.status, 0) << p.err;
    EXPECT_EQ(p.err, "");
    EXPECT_EQ(p.out, "") << "--quiet prints nothing";
    std::vector<std::string> want;
    for (const auto& [file, bytes] : e.bytes) want.push_back(file);
    for (const auto& [file, sha] : e.sha) want.push_back(file);
    std::sort(want.begin(), want.end());
    EXPECT_EQ(files_under(dir), want);
    for (const auto& [file, bytes] : e.bytes) {
      if (fs::exists(dir + "/" + file)) {
        EXPECT_EQ(first_difference(read_bytes(dir + "/" + file), bytes), "") << file;
      }
    }
    for (const auto& [file, sha] : e.sha) {
      if (fs::exists(dir + "/" + file)) {
        const std::string normalised = as_python(read_bytes(dir + "/" + file));
        EXPECT_EQ(normalised.size(), sha.second) << file;
        EXPECT_EQ(sha256_hex(normalised), sha.first) << file;
      }
    }
  } else {
    EXPECT_EQ(p.status, 1) << p.err;
    EXPECT_EQ(p.out, "");
    if (e.prefix_only) {
      const std::string head = "error: " + e.message;
      EXPECT_EQ(p.err.substr(0, head.size()), head);
      EXPECT_GT(p.err.size(), head.size() + 1);
      EXPECT_EQ(p.err.back(), '\n');
      EXPECT_EQ(std::count(p.err.begin(), p.err.end(), '\n'), 1) << p.err;
    } else {
      EXPECT_EQ(p.err, "error: " + e.message + "\n");
    }
    EXPECT_EQ(files_under(dir), std::vector<std::string>{}) << "a failed export left files";
  }
}

class cli_cases : public ::testing::TestWithParam<Case> {};

// `scope-speedscope FILES... --filepath DIR/<filepath> [--ranks R,...]
// [--include RE...] [--exclude RE...] --quiet`.
TEST_P(cli_cases, cli_output_matches_expected) {
  const Case& c = GetParam();
  TempDir dir;
  std::vector<std::string> args = c.inputs;
  args.push_back("--filepath");
  args.push_back(dir / c.filepath);
  if (c.ranks) {
    args.push_back("--ranks");
    if (!c.ranks->empty()) args.push_back(join(*c.ranks));
  }
  if (c.include) {
    args.push_back("--include");
    args.insert(args.end(), c.include->begin(), c.include->end());
  }
  if (c.exclude) {
    args.push_back("--exclude");
    args.insert(args.end(), c.exclude->begin(), c.exclude->end());
  }
  if (c.min_duration) args.push_back("--min-duration=" + *c.min_duration);
  if (c.time_window) args.push_back("--time-window=" + *c.time_window);
  args.push_back("--quiet");
  const Process p = run_cli(args);

  // Like `scope-profiler export speedscope`, the CLI sorts and de-duplicates
  // the ranks and reads each input file once (glob expansion keeps the first
  // occurrence). Where that changes the case (ranks [1, 0] or [0, 0], an input
  // named twice), the expectation is the library's output for the arguments
  // as the CLI normalises them, not the case's. A negative rank (ranks [-1])
  // is passed as `--ranks -1`: argparse takes a negative number as a value, and
  // the CLI hands it to the export, which reports "Invalid rank requested: -1"
  // like the library (scope-profiler's own parse_ranks would crash on "-1").
  std::vector<std::string> inputs;
  for (const std::string& in : c.inputs) {
    if (std::find(inputs.begin(), inputs.end(), in) == inputs.end()) inputs.push_back(in);
  }
  std::optional<std::vector<int64_t>> ranks;
  if (c.ranks) {
    const std::set<int64_t> unique(c.ranks->begin(), c.ranks->end());
    ranks.emplace(unique.begin(), unique.end());
  }
  const bool normalised = inputs != c.inputs || ranks != c.ranks;
  const Expectation e = normalised ? from_library(inputs, c.filepath, ranks, c) : from_case(c);
  check(p, e, dir.path());
}

INSTANTIATE_TEST_SUITE_P(all, cli_cases, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return case_test_name(info.param);
                         });

std::string shared_h5(const std::string& name) { return shared_dir() + "/h5/" + name; }

TEST(cli, output_dir_writes_profile_speedscope_json_and_prints_a_summary) {
  TempDir dir;
  const std::string out_dir = dir / "new/out";  // created by the export
  const Process p = run_cli({shared_h5("hdf5-schema-3.h5"), "-o", out_dir});
  EXPECT_EQ(p.status, 0) << p.err;
  EXPECT_EQ(p.err, "");
  const std::string path = out_dir + "/profile.speedscope.json";
  EXPECT_EQ(files_under(dir.path()), std::vector<std::string>{"new/out/profile.speedscope.json"});
  // The document is the schema-3 fixture's (its name is the file's stem).
  EXPECT_EQ(first_difference(read_bytes(path),
                             as_ours(read_bytes(shared_dir() +
                                                "/expected/schema3_fixture/out.speedscope.json"))),
            "");
  // post_processing.py export_main prints the paths, then the viewer hint
  // with the literal text "<file>".
  EXPECT_EQ(p.out, "Outputs saved to:\n  " + path + "\n\nView " + path +
                       " at https://www.speedscope.app (or: npx speedscope <file>)\n");
}

TEST(cli, output_dir_with_several_files_names_them_after_their_labels) {
  TempDir dir;
  const Process p = run_cli({shared_h5("hdf5-schema-1.h5"), shared_h5("nested_s3.h5"), "-o",
                             dir.path() + "/", "--quiet"});
  EXPECT_EQ(p.status, 0) << p.err;
  EXPECT_EQ(p.out, "");
  EXPECT_EQ(files_under(dir.path()),
            (std::vector<std::string>{"profile_hdf5-schema-1.speedscope.json",
                                      "profile_my_run_128_ranks.speedscope.json"}));
}

TEST(cli, label_flags_rename_the_runs_in_order) {
  TempDir dir;
  const Process p = run_cli({shared_h5("hdf5-schema-1.h5"), shared_h5("nested_s3.h5"), "-o",
                             dir.path(), "--label", "first run", "--label", "second", "--quiet"});
  EXPECT_EQ(p.status, 0) << p.err;
  // The library with the same labels set on the runs.
  std::vector<scope_speedscope::Run> runs = {read_run(shared_h5("hdf5-schema-1.h5")),
                                             read_run(shared_h5("nested_s3.h5"))};
  runs[0].label = "first run";
  runs[1].label = "second";
  TempDir lib;
  ExportOptions options;
  options.verbose = false;
  export_speedscope(runs, lib / "profile.speedscope.json", options);
  const std::vector<std::string> want = {"profile_first_run.speedscope.json",
                                         "profile_second.speedscope.json"};
  ASSERT_EQ(files_under(lib.path()), want);
  ASSERT_EQ(files_under(dir.path()), want);
  for (const std::string& f : want) {
    EXPECT_EQ(first_difference(read_bytes(dir / f), read_bytes(lib / f)), "") << f;
  }
  EXPECT_NE(read_bytes(dir / want[0]).find("\"name\": \"first run\""), std::string::npos);
}

TEST(cli, rank_specs_are_joined_sorted_and_deduplicated) {
  TempDir dir, lib;
  const Process p = run_cli({shared_h5("nested_s3.h5"), "--filepath", dir / "p.json", "--ranks",
                             "1", "0-1,1", "--quiet"});
  EXPECT_EQ(p.status, 0) << p.err;
  std::vector<scope_speedscope::Run> runs = {read_run(shared_h5("nested_s3.h5"))};
  ExportOptions options;
  options.verbose = false;
  options.ranks = std::vector<int64_t>{0, 1};
  export_speedscope(runs, lib / "p.json", options);
  EXPECT_EQ(first_difference(read_bytes(dir / "p.json"), read_bytes(lib / "p.json")), "");
}

TEST(cli, missing_input_fails_with_the_library_message) {
  TempDir dir;
  const std::string missing = dir / "nope.h5";
  const Process p = run_cli({missing, "-o", dir / "out"});
  EXPECT_EQ(p.status, 1);
  EXPECT_EQ(p.err, "error: HDF5 file not found: " + missing + "\n");
  EXPECT_EQ(p.out, "");
  EXPECT_EQ(files_under(dir.path()), std::vector<std::string>{});
}

TEST(cli, help_exits_0_and_mentions_every_flag) {
  const Process p = run_cli({"--help"});
  EXPECT_EQ(p.status, 0);
  EXPECT_EQ(p.out, cli_help());
  EXPECT_EQ(p.err, "");
  for (const char* flag : {"-o", "--output", "--filepath", "--ranks", "--include", "--exclude",
                           "--label", "--quiet", "--help", "--version"}) {
    EXPECT_NE(p.out.find(flag), std::string::npos) << flag;
  }
  EXPECT_EQ(run_cli({"-h"}).out, cli_help());
  EXPECT_EQ(run_cli({"a.h5", "--help"}).status, 0) << "--help wins over missing -o";
}

TEST(cli, version_prints_the_package_version) {
  const Process p = run_cli({"--version"});
  EXPECT_EQ(p.status, 0);
  EXPECT_EQ(p.out, std::string("scope-speedscope ") + VERSION + "\n");
  EXPECT_EQ(p.err, "");
}

TEST(cli, unknown_flag_exits_2_with_a_usage_line) {
  TempDir dir;
  const Process p = run_cli({shared_h5("hdf5-schema-3.h5"), "-o", dir.path(), "--frobnicate"});
  EXPECT_EQ(p.status, 2);
  EXPECT_EQ(p.out, "");
  EXPECT_EQ(p.err.rfind(cli_usage(), 0), 0u) << p.err;
  EXPECT_NE(p.err.find("error: "), std::string::npos) << p.err;
  EXPECT_NE(p.err.find("--frobnicate"), std::string::npos) << p.err;
  EXPECT_EQ(files_under(dir.path()), std::vector<std::string>{});
}

TEST(cli, missing_output_flag_is_a_usage_error) {
  const Process p = run_cli({shared_h5("hdf5-schema-3.h5")});
  EXPECT_EQ(p.status, 2);
  EXPECT_EQ(p.out, "");
  EXPECT_EQ(p.err.rfind(cli_usage(), 0), 0u) << p.err;
  EXPECT_NE(p.err.find("-o"), std::string::npos) << p.err;
}

TEST(cli, no_input_files_is_a_usage_error) {
  TempDir dir;
  const Process p = run_cli({"-o", dir.path()});
  EXPECT_EQ(p.status, 2);
  EXPECT_EQ(p.err.rfind(cli_usage(), 0), 0u) << p.err;
}

TEST(cli, bad_rank_spec_is_a_usage_error) {
  TempDir dir;
  const Process p = run_cli({shared_h5("hdf5-schema-3.h5"), "-o", dir.path(), "--ranks", "x"});
  EXPECT_EQ(p.status, 2);
  EXPECT_EQ(p.err.rfind(cli_usage(), 0), 0u) << p.err;
  EXPECT_EQ(files_under(dir.path()), std::vector<std::string>{});
}

// imbalance: tests/fixtures/h5/ranks_imbalance_s3.h5 (make_ranks.py fixture):
// 4 ranks, 5 steps of 1000 ns; solve 600 ns, 900 ns on rank 2 at step 3,
// exchange the rest of each step. Worked out by hand: solve 3000, 3000,
// 3300, 3000 ns (mean 3075, imbalance 225 / 3300); exchange 2000, 2000,
// 1700, 2000 (mean 1925, imbalance 75 / 2000); step 5000 everywhere.
TEST(cli, imbalance_prints_the_table_of_every_rank) {
  const std::string file = shared_h5("ranks_imbalance_s3.h5");
  const Process p = run_cli({"imbalance", file});
  EXPECT_EQ(p.status, 0) << p.err;
  EXPECT_EQ(p.err, "");
  EXPECT_EQ(
      p.out,
      file +
          ": 4 ranks (0-3), the whole run; covered time per rank (the union of a region's calls)\n"
          "region    ranks        min     median       mean        max  imbalance  slowest rank\n"
          "solve         4    3.00 us    3.00 us    3.08 us    3.30 us      6.8 %             2\n"
          "exchange      4    1.70 us    2.00 us    1.93 us    2.00 us      3.8 %             0\n"
          "step          4    5.00 us    5.00 us    5.00 us    5.00 us      0.0 %             0\n");
}

// --ranks all: every rank of the run, in every command, resolved by the
// core (select/chosen_ranks); given with other ranks it is a usage error.
TEST(cli, ranks_all_is_every_rank_in_every_command) {
  const std::string file = shared_h5("ranks_imbalance_s3.h5");
  EXPECT_EQ(run_cli({"imbalance", file, "--ranks", "all"}).out, run_cli({"imbalance", file}).out);
  EXPECT_EQ(run_cli({"imbalance", file, "--ranks", "all", "--json"}).out,
            run_cli({"imbalance", file, "--ranks", "0-3", "--json"}).out);
  const std::string a = shared_h5("pair_a_s3.h5"), b = shared_h5("pair_b_s3.h5");
  const Process all = run_cli({"diff", a, b, "--ranks", "all", "--json"});
  EXPECT_EQ(all.status, 0) << all.err;
  EXPECT_EQ(all.out, run_cli({"diff", a, b, "--ranks", "0,1", "--json"}).out);
  const Process table = run_cli({"diff", a, b, "--ranks", "all"});
  EXPECT_NE(table.out.find("\nevery rank of each run; regions by growth of self time\n"),
            std::string::npos)
      << table.out;
  TempDir every, listed;
  const Process e = run_cli({file, "-o", every.path(), "--ranks", "all", "--quiet"});
  EXPECT_EQ(e.status, 0) << e.err;
  const Process l = run_cli({file, "-o", listed.path(), "--ranks", "0-3", "--quiet"});
  EXPECT_EQ(l.status, 0) << l.err;
  const auto files = files_under(every.path());
  EXPECT_EQ(files, files_under(listed.path()));
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(read_bytes(every / files[0]), read_bytes(listed / files[0]));
  for (const auto& cmd :
       std::vector<std::vector<std::string>>{{"imbalance", file, "--ranks", "all", "0"},
                                             {"diff", a, b, "--ranks", "0", "all"},
                                             {file, "-o", every.path(), "--ranks", "all,1"}}) {
    const Process bad = run_cli(cmd);
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("error: --ranks all names every rank: give it alone, not with other "
                           "ranks\n"),
              std::string::npos)
        << bad.err;
  }
}

TEST(cli, imbalance_json_has_the_rows_in_ns) {
  const std::string file = shared_h5("ranks_imbalance_s3.h5");
  const Process p = run_cli({"imbalance", file, "--json"});
  EXPECT_EQ(p.status, 0) << p.err;
  EXPECT_EQ(
      p.out,
      "{\"file\": \"" + file +
          "\", \"ranks\": [0, 1, 2, 3], \"value\": \"covered\", \"window\": null, \"regions\": ["
          "{\"frame\": 1, \"name\": \"solve\", \"ranks\": 4, \"min\": 3000, \"median\": 3000.0, "
          "\"mean\": 3075.0, \"max\": 3300, \"imbalance\": 0.06818181818181818, \"slowestRank\": "
          "2}, "
          "{\"frame\": 2, \"name\": \"exchange\", \"ranks\": 4, \"min\": 1700, \"median\": 2000.0, "
          "\"mean\": 1925.0, \"max\": 2000, \"imbalance\": 0.0375, \"slowestRank\": 0}, "
          "{\"frame\": 0, \"name\": \"step\", \"ranks\": 4, \"min\": 5000, \"median\": 5000.0, "
          "\"mean\": 5000.0, \"max\": 5000, \"imbalance\": 0.0, \"slowestRank\": 0}]}\n");
}

// Step 3 only ([3000, 4000) ns from the first call), ranks 0 and 2, without
// step: max - mean is 150 ns for both regions, so frame order decides.
TEST(cli, imbalance_takes_ranks_filters_and_a_time_window) {
  const std::string file = shared_h5("ranks_imbalance_s3.h5");
  const Process p = run_cli({"imbalance", file, "--ranks", "0,2", "--exclude", "step",
                             "--time-window", "3us:4us", "--json"});
  EXPECT_EQ(p.status, 0) << p.err;
  EXPECT_EQ(
      p.out,
      "{\"file\": \"" + file +
          "\", \"ranks\": [0, 2], \"value\": \"covered\", \"window\": {\"start\": 3000, "
          "\"end\": 4000}, \"regions\": ["
          "{\"frame\": 0, \"name\": \"solve\", \"ranks\": 2, \"min\": 600, \"median\": 750.0, "
          "\"mean\": 750.0, \"max\": 900, \"imbalance\": 0.16666666666666666, \"slowestRank\": 2}, "
          "{\"frame\": 1, \"name\": \"exchange\", \"ranks\": 2, \"min\": 100, \"median\": 250.0, "
          "\"mean\": 250.0, \"max\": 400, \"imbalance\": 0.375, \"slowestRank\": 0}"
          "]}\n");
}

TEST(cli, imbalance_errors_and_usage) {
  const std::string file = shared_h5("ranks_imbalance_s3.h5");
  const std::string usage = cli_usage(CliCommand::imbalance);
  Process p = run_cli({"imbalance"});
  EXPECT_EQ(p.status, 2);
  EXPECT_EQ(p.err, usage + "error: the following arguments are required: FILE\n");
  // Several files are one job's: each is read.
  p = run_cli({"imbalance", file, file + "x"});
  EXPECT_EQ(p.status, 1);
  EXPECT_EQ(p.err, "error: HDF5 file not found: " + file + "x\n");
  p = run_cli({"imbalance", file, "-o", "out"});
  EXPECT_EQ(p.status, 2);
  EXPECT_EQ(p.err, usage + "error: unrecognized argument: -o\n");
  p = run_cli({"imbalance", file, "--ranks", "7"});
  EXPECT_EQ(p.status, 1);
  EXPECT_EQ(p.out, "");
  EXPECT_EQ(p.err, "error: Invalid rank requested: 7\n");  // as the export says it
  p = run_cli({"imbalance", file, "--include", "nothing"});
  EXPECT_EQ(p.status, 1);
  EXPECT_EQ(p.err.rfind("error: ", 0), 0u) << p.err;
  p = run_cli({"imbalance", "--help"});
  EXPECT_EQ(p.status, 0);
  EXPECT_EQ(p.out, cli_help(CliCommand::imbalance));
}

// diff: tests/fixtures/h5/pair_{a,b}_s3.h5 (make_pair.py; its docstring has
// the numbers worked out by hand).
TEST(cli, diff_prints_what_got_slower_and_exits_3_past_the_limit) {
  const std::string a = shared_h5("pair_a_s3.h5"), b = shared_h5("pair_b_s3.h5");
  const std::string table = "A: " + a + "\nB: " + b +
                            "\nranks 0-1; regions by growth of self time\n"
                            "region     A calls   B calls     A self     B self     \u0394 self   "
                            "\u0394 self %    A total    "
                            "B total    \u0394 total\n"
                            "kernel          16        20    3.20 us    5.00 us   +1.80 us    "
                            "+56.2 %    3.20 us    5.00 us   "
                            "+1.80 us\n"
                            "solve            8        10    1.60 us    2.50 us    +900 ns    "
                            "+56.2 %    4.80 us    7.50 us   "
                            "+2.70 us\n"
                            "exchange         8        10    3.20 us    4.00 us    +800 ns    "
                            "+25.0 %    3.20 us    4.50 us   "
                            "+1.30 us\n"
                            "halo             0        10       0 ns     500 ns    +500 ns        "
                            "new       0 ns     500 ns    "
                            "+500 ns\n"
                            "step             8        10       0 ns       0 ns       0 ns         "
                            "      8.00 us    12.0 us   "
                            "+4.00 us\n"
                            "io               2         0     200 ns       0 ns    -200 ns   "
                            "-100.0 %     200 ns       0 ns    "
                            "-200 ns\n";
  Process p = run_cli({"diff", a, b, "--ranks", "0-1"});
  EXPECT_EQ(p.status, 0) << p.err;
  EXPECT_EQ(p.err, "");
  EXPECT_EQ(p.out, table);
  p = run_cli({"diff", a, b, "--ranks", "0-1", "--max-regression", "30"});
  EXPECT_EQ(p.status, 3);
  EXPECT_EQ(p.out, table +
                       "regions whose self time grew by more than 30 %:\n"
                       "  kernel: +56.2 % (3.20 us -> 5.00 us)\n"
                       "  solve: +56.2 % (1.60 us -> 2.50 us)\n"
                       "  halo: new (0 ns -> 500 ns)\n");
  // Total time: step grew by 50 %, exchange by 40.6 %.
  p = run_cli({"diff", a, b, "--ranks", "0-1", "--max-regression", "50", "--metric", "total"});
  EXPECT_EQ(p.status, 3);
  EXPECT_EQ(p.out.substr(table.size()),
            "regions whose total time grew by more than 50 %:\n"
            "  kernel: +56.2 % (3.20 us -> 5.00 us)\n"
            "  solve: +56.2 % (4.80 us -> 7.50 us)\n"
            "  halo: new (0 ns -> 500 ns)\n");
  p = run_cli({"diff", a, b, "--ranks", "0-1", "--max-regression", "60"});
  EXPECT_EQ(p.status, 3);  // halo is new
  EXPECT_EQ(p.out.substr(table.size()),
            "regions whose self time grew by more than 60 %:\n  halo: new (0 ns -> 500 ns)\n");
  p = run_cli({"diff", a, a, "--max-regression", "0"});
  EXPECT_EQ(p.status, 0);
  const std::string none = "no region's self time grew by more than 0 %\n";
  ASSERT_GE(p.out.size(), none.size());
  EXPECT_EQ(p.out.substr(p.out.size() - none.size()), none);
}

TEST(cli, diff_json_has_every_row_in_ns) {
  const std::string a = shared_h5("pair_a_s3.h5"), b = shared_h5("pair_b_s3.h5");
  const Process p = run_cli(
      {"diff", a, b, "--include", "solve", "kernel", "io", "--json", "--max-regression", "50"});
  EXPECT_EQ(p.status, 3) << p.err;
  EXPECT_EQ(p.out,
            "{\"regions\": ["
            "{\"name\": \"kernel\", \"a\": {\"calls\": 8, \"total\": 1600, \"self\": 1600}, "
            "\"b\": {\"calls\": 10, \"total\": 2500, \"self\": 2500}, \"deltaTotal\": 900, "
            "\"deltaSelf\": 900, \"deltaSelfPct\": 56.25}, "
            "{\"name\": \"solve\", \"a\": {\"calls\": 4, \"total\": 2400, \"self\": 800}, "
            "\"b\": {\"calls\": 5, \"total\": 3750, \"self\": 1250}, \"deltaTotal\": 1350, "
            "\"deltaSelf\": 450, \"deltaSelfPct\": 56.25}, "
            "{\"name\": \"io\", \"a\": {\"calls\": 1, \"total\": 100, \"self\": 100}, "
            "\"b\": {\"calls\": 0, \"total\": 0, \"self\": 0}, \"deltaTotal\": -100, "
            "\"deltaSelf\": -100, \"deltaSelfPct\": -100.0}], "
            "\"regressions\": [\"kernel\", \"solve\"]}\n");
}

TEST(cli, diff_errors_and_usage) {
  const std::string a = shared_h5("pair_a_s3.h5"), b = shared_h5("pair_b_s3.h5");
  const std::string usage = cli_usage(CliCommand::diff);
  Process p = run_cli({"diff", a});
  EXPECT_EQ(p.status, 2);
  EXPECT_EQ(p.err, usage + "error: the following arguments are required: A B\n");
  p = run_cli({"diff", a, b, a});
  EXPECT_EQ(p.status, 2);
  EXPECT_EQ(p.err, usage + "error: unrecognized arguments: " + a +
                       " (several files a side: diff A... vs B...)\n");
  p = run_cli({"diff", "vs", a});
  EXPECT_EQ(p.status, 2);
  EXPECT_EQ(p.err, usage + "error: the following arguments are required: A (before vs)\n");
  p = run_cli({"diff", a, "vs"});
  EXPECT_EQ(p.status, 2);
  EXPECT_EQ(p.err, usage + "error: the following arguments are required: B (after vs)\n");
  p = run_cli({"diff", a, "vs", b, "vs", a});
  EXPECT_EQ(p.status, 2);
  EXPECT_EQ(p.err, usage + "error: vs given twice: diff A... vs B... (a file named vs is ./vs)\n");
  p = run_cli({"diff", a, b, "--metric", "wall"});
  EXPECT_EQ(p.status, 2);
  EXPECT_EQ(
      p.err,
      usage + "error: argument --metric: invalid choice: 'wall' (choose from 'self', 'total')\n");
  p = run_cli({"diff", a, b, "--max-regression", "-5"});
  EXPECT_EQ(p.status, 2);
  EXPECT_EQ(p.err,
            usage + "error: argument --max-regression: '-5' is not a percentage (0 or more)\n");
  p = run_cli({"diff", a, b, "--time-window", "0:1"});
  EXPECT_EQ(p.status, 2);
  EXPECT_EQ(p.err, usage + "error: unrecognized argument: --time-window\n");
  p = run_cli({"diff", a, b, "--ranks", "2"});
  EXPECT_EQ(p.status, 1);
  EXPECT_EQ(p.out, "");
  EXPECT_EQ(p.err, "error: Invalid rank requested: 2\n");  // as the export says it
  p = run_cli({"diff", a, b + ".missing"});
  EXPECT_EQ(p.status, 1);
  EXPECT_EQ(p.err.rfind("error: ", 0), 0u) << p.err;
  EXPECT_NE(p.err.find(b + ".missing"), std::string::npos) << p.err;
  p = run_cli({"diff", "--help"});
  EXPECT_EQ(p.status, 0);
  EXPECT_EQ(p.out, cli_help(CliCommand::diff));
}

TEST(cli, view_points_to_the_npm_package) {
  const Process p = run_cli({"view", shared_h5("hdf5-schema-3.h5")});
  EXPECT_EQ(p.status, 2);
  EXPECT_EQ(p.out, "");
  EXPECT_EQ(p.err, cli_usage(CliCommand::view) +
                       "error: view is a command of the npm package's CLI: run npx "
                       "scope-speedscope view (a file named view is ./view)\n");
}

// serve itself: tests/js/native-serve.test.mjs (over HTTP).
TEST(cli, serve_says_a_run_it_cannot_open_before_any_url) {
  const Process p = run_cli({"serve", shared_h5("not_hdf5.h5"), "--port", "0"});
  EXPECT_EQ(p.status, 1);
  EXPECT_EQ(p.out, "");
  EXPECT_EQ(p.err.rfind("error: ", 0), 0u) << p.err;
  EXPECT_NE(p.err.find("not_hdf5.h5"), std::string::npos) << p.err;
}

TEST(cli, serve_says_how_to_build_a_missing_page) {
  const std::string web = ::testing::TempDir() + "no-such-page";
  const Process p = run_cli({"serve", "--web", web, "--port", "0"});
  EXPECT_EQ(p.status, 1);
  EXPECT_EQ(p.out, "");
  EXPECT_EQ(p.err, "error: the page is not built (no " + web +
                       "/index.html): run npm run build in the repository, or give --web DIR\n");
}

// A job written one file per process (make_job.py): its files are the job.
std::string job_h5(int ranks, const std::string& name) {
  return shared_dir() + "/job/" + std::to_string(ranks) + "/" + name;
}

TEST(cli, imbalance_of_a_jobs_files_is_the_jobs_file) {
  const std::vector<std::string> parts = {job_h5(2, "job_rank00001.h5"),
                                          job_h5(2, "job_rank00000.h5")};
  const Process job = run_cli({"imbalance", parts[0], parts[1]});
  const Process file = run_cli({"imbalance", job_h5(2, "job.h5")});
  ASSERT_EQ(job.status, 0) << job.err;
  EXPECT_EQ(job.err, "");
  const std::string rows = file.out.substr(file.out.find('\n'));
  EXPECT_EQ(job.out, parts[1] +
                         " + 1 more file: 2 ranks (0-1), the whole run; covered time per "
                         "rank (the union of a region's calls)" +
                         rows);
  // The same rank twice: both named.
  const Process twice = run_cli({"imbalance", parts[1], job_h5(2, "rerun_rank00000.h5")});
  EXPECT_EQ(twice.status, 1);
  EXPECT_EQ(twice.err, "error: " + parts[1] + " and " + job_h5(2, "rerun_rank00000.h5") +
                           " both hold rank 0: the files of one job must hold different ranks "
                           "(two runs of the same ranks are compared, not joined)\n");
  // A file of another job.
  const Process other = run_cli({"imbalance", parts[0], job_h5(2, "job.h5")});
  EXPECT_EQ(other.status, 1);
  EXPECT_EQ(other.err, "error: " + parts[0] + " and " + job_h5(2, "job.h5") +
                           " are not files of one job: " + parts[0] +
                           " is one process's file (no mpi_size), " + job_h5(2, "job.h5") +
                           " records mpi_size 2\n");
}

TEST(cli, diff_takes_a_jobs_files_a_side) {
  std::vector<std::string> args = {"diff", job_h5(64, "job.h5"), "vs"};
  for (int r = 0; r < 64; ++r) {
    char name[32];
    std::snprintf(name, sizeof name, "job_rank%05d.h5", r);
    args.push_back(job_h5(64, name));
  }
  args.push_back("--ranks");
  args.push_back("all");
  const Process p = run_cli(args);
  ASSERT_EQ(p.status, 0) << p.err;
  const Process itself =
      run_cli({"diff", job_h5(64, "job.h5"), job_h5(64, "job.h5"), "--ranks", "all"});
  ASSERT_EQ(itself.status, 0) << itself.err;
  EXPECT_EQ(p.out, "A: " + job_h5(64, "job.h5") + "\nB: " + job_h5(64, "job_rank00000.h5") +
                       " + 63 more files" + itself.out.substr(itself.out.find("\nevery")));
  // Without --ranks and without rank 0 on B: the ranks both have.
  const Process one = run_cli({"diff", job_h5(2, "job.h5"), job_h5(2, "job_rank00001.h5")});
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(one.out.substr(0, one.out.find(';')),
            "A: " + job_h5(2, "job.h5") + "\nB: " + job_h5(2, "job_rank00001.h5") + "\nrank 1");
}

}  // namespace
}  // namespace scope_speedscope::test
