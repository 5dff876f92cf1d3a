// export: filters, ranks, labels, file names, errors (spec 2.2, 2.4, 2.5, 5.1).
#include <gtest/gtest.h>

#include <deque>

#include "export/export.hpp"
#include "read/h5_reader.hpp"
#include "test_support.hpp"

namespace scope_speedscope::test {
namespace {

using Strings = std::vector<std::string>;

// ---- file names (spec 5.1 step 7) ------------------------------------------------

TEST(export, filename_slug_examples_of_the_spec) {
  EXPECT_EQ(filename_slug("my run 128 ranks"), "my_run_128_ranks");
  EXPECT_EQ(filename_slug("run (2)"), "run_2");
  EXPECT_EQ(filename_slug("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e run"),
            "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e_run");
  EXPECT_EQ(filename_slug("!!!"), "!!!");
  EXPECT_EQ(filename_slug("___"), "___");
  EXPECT_EQ(filename_slug("a.b+c-d"), "a.b+c-d");
  EXPECT_EQ(filename_slug("  x / y  "), "x_y");
  EXPECT_EQ(filename_slug("_keep_inner__underscores_"), "keep_inner__underscores");
  EXPECT_EQ(filename_slug("R\xc3\xa9sum\xc3\xa9 \xf0\x9f\x9a\x80 run"), "R\xc3\xa9sum\xc3\xa9_run");
  EXPECT_EQ(filename_slug(""), "");
}

// re.sub(r"[^\w.+-]+", "_", label).strip("_") or label, from Python 3.11
// (Unicode 14), for every code point below U+3000 and a sample above.
TEST(export, filename_slug_matches_python_table) {
  expect_python_table(
      "filename_slug.txt", 15000, [](const std::string& label, const std::string& slug) {
        const std::string got = filename_slug(unhex(label));
        return got == unhex(slug)
                   ? std::string()
                   : "label (hex) " + label + ": got " + got + ", Python " + unhex(slug);
      });
}

TEST(export, unique_labels_number_repeats) {
  EXPECT_EQ(unique_labels({"run", "run", "run"}), (Strings{"run", "run (2)", "run (3)"}));
  EXPECT_EQ(unique_labels({"a", "b", "a", "b", "c"}), (Strings{"a", "b", "a (2)", "b (2)", "c"}));
  EXPECT_EQ(unique_labels({}), Strings{});
  // _unique_labels counts each label apart: a label that looks like a repeat
  // is not renumbered, so scope-profiler can produce the same label twice.
  EXPECT_EQ(unique_labels({"run", "run (2)", "run"}), (Strings{"run", "run (2)", "run (2)"}));
}

TEST(export, output_paths_for_one_run_keep_the_name) {
  EXPECT_EQ(output_paths("profile.speedscope.json", {"x"}), Strings{"profile.speedscope.json"});
  EXPECT_EQ(output_paths("out.json", {"x"}), Strings{"out.json"});
  EXPECT_EQ(output_paths("profile", {"x"}), Strings{"profile.speedscope.json"});
  EXPECT_EQ(output_paths("my.run.v2.json", {"x"}), Strings{"my.run.v2.json"});
  EXPECT_EQ(output_paths(".hidden.json", {"x"}), Strings{".hidden.json"});
  EXPECT_EQ(output_paths("dir/sub/p.json", {"x"}), Strings{"dir/sub/p.json"});
  EXPECT_EQ(output_paths("a/b/", {"x"}), Strings{"a/b.speedscope.json"});
}

TEST(export, output_paths_for_several_runs_add_the_slug_after_the_first_dot_stem) {
  EXPECT_EQ(output_paths("dir/profile.speedscope.json",
                         {"run one", "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e run", "!!!"}),
            (Strings{"dir/profile_run_one.speedscope.json",
                     "dir/profile_\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e_run.speedscope.json",
                     "dir/profile_!!!.speedscope.json"}));
  EXPECT_EQ(output_paths("out.json", {"a", "b"}), (Strings{"out_a.json", "out_b.json"}));
  EXPECT_EQ(output_paths("profile", {"a", "b"}),
            (Strings{"profile_a.speedscope.json", "profile_b.speedscope.json"}));
  EXPECT_EQ(output_paths("my.run.v2.json", {"a", "b"}),
            (Strings{"my_a.run.v2.json", "my_b.run.v2.json"}));
  EXPECT_EQ(output_paths(".hidden.json", {"a", "b"}),
            (Strings{"_a.hidden.json", "_b.hidden.json"}));
  EXPECT_EQ(output_paths("p.json", {"run", "run (2)"}), (Strings{"p_run.json", "p_run_2.json"}));
}

TEST(export, output_paths_are_written_as_pathlib_prints_them) {
  EXPECT_EQ(output_paths("./out//x/./p.json", {"a"}), Strings{"out/x/p.json"});
  EXPECT_EQ(output_paths("/tmp//x/p.json", {"a", "b"}),
            (Strings{"/tmp/x/p_a.json", "/tmp/x/p_b.json"}));
}

TEST(export, normalize_path_is_str_of_pathlib_path) {
  const std::vector<std::pair<std::string, std::string>> examples = {
      {"a//b/./c/", "a/b/c"}, {"./x", "x"},   {".", "."},           {"", "."},         {"/", "/"},
      {"//a", "//a"},         {"///a", "/a"}, {"a/../b", "a/../b"}, {"./", "."},       {"//", "//"},
      {"a/b/", "a/b"},        {"x/./", "x"},  {"/./a/.", "/a"},     {"plain", "plain"}};
  for (const auto& [in, want] : examples) EXPECT_EQ(normalize_path(in), want) << "'" << in << "'";
}

// ---- region filters and order (spec 2.2) -----------------------------------------

TEST(export, regex_match_at_start_is_anchored_at_the_start_only) {
  EXPECT_TRUE(regex_match_at_start("solve", "solver_loop"));
  EXPECT_FALSE(regex_match_at_start("solve$", "solver_loop"));
  EXPECT_TRUE(regex_match_at_start("solve$", "solve"));
  EXPECT_FALSE(regex_match_at_start("olve", "solve"));
  EXPECT_TRUE(regex_match_at_start(".*loop", "solver_loop"));
  EXPECT_TRUE(regex_match_at_start("", "anything"));
  EXPECT_TRUE(regex_match_at_start("x*", "abc"));
  EXPECT_TRUE(regex_match_at_start("a|b", "b"));
  EXPECT_TRUE(regex_match_at_start("[0-9]+x", "12x"));
  EXPECT_TRUE(regex_match_at_start("\\d\\w+", "5ab"));
  EXPECT_FALSE(regex_match_at_start("Solve", "solve"));
  EXPECT_FALSE(regex_match_at_start("so.ve", "so\nve"));
  EXPECT_TRUE(regex_match_at_start("\xe6\x97\xa5", "\xe6\x97\xa5\xe6\x9c\xac"));
}

TEST(export, get_regions_sorts_stably_by_earliest_first_start) {
  const scope_speedscope::Run run = make_run({
      {"c", 0, {{30, 40}}},
      {"a", 0, {{10, 20}, {50, 60}}},
      {"e", 0, {}},                    // no calls: first start 0.0, sorts first
      {"b", 0, {{15, 16}, {10, 15}}},  // ties with a at 10 ns: file order
      {"d", 0, {{5, 6}}},
      {"d", 1, {}},  // an empty rank makes d's key 0.0 too
      {"f", 0, {{100, 110}}},
      {"f", 1, {{1, 2}}},  // the minimum is over every rank
  });
  // c=0 a=1 e=2 b=3 d=4 f=5
  EXPECT_EQ(get_regions(run, std::nullopt, std::nullopt),
            (std::vector<uint32_t>{2, 4, 5, 1, 3, 0}));
  EXPECT_EQ(get_regions(run, Strings{"a", "b"}, std::nullopt), (std::vector<uint32_t>{1, 3}));
  EXPECT_EQ(get_regions(run, Strings{"[a-c]"}, Strings{"b"}), (std::vector<uint32_t>{1, 0}));
  EXPECT_EQ(get_regions(run, Strings{}, std::nullopt), std::vector<uint32_t>{});
  EXPECT_EQ(get_regions(run, std::nullopt, Strings{}), (std::vector<uint32_t>{2, 4, 5, 1, 3, 0}));
  EXPECT_EQ(get_regions(run, std::nullopt, Strings{".*"}), std::vector<uint32_t>{});
}

TEST(export, get_regions_compares_first_starts_as_seconds) {
  // 1e17 and 1e17 + 1 ns are the same double in seconds: file order decides.
  const int64_t t = 100000000000000000;
  const scope_speedscope::Run run =
      make_run({{"later", 0, {{t + 1, t + 2}}}, {"earlier", 0, {{t, t + 5}}}});
  EXPECT_EQ(get_regions(run, std::nullopt, std::nullopt), (std::vector<uint32_t>{0, 1}));
  const scope_speedscope::Run apart =
      make_run({{"later", 0, {{t + 64, t + 65}}}, {"earlier", 0, {{t, t + 5}}}});
  EXPECT_EQ(get_regions(apart, std::nullopt, std::nullopt), (std::vector<uint32_t>{1, 0}));
}

// ---- labels (spec 2.4, 2.5) ----------------------------------------------------------

TEST(export, display_label_is_the_label_or_the_file_stem) {
  scope_speedscope::Run run;
  const std::vector<std::pair<std::string, std::string>> stems = {{"dir/run.v2.h5", "run.v2"},
                                                                  {"run", "run"},
                                                                  {".hidden", ".hidden"},
                                                                  {"a/b.h5/", "b"},
                                                                  {"x/.h5", ".h5"},
                                                                  {"a.", "a."},
                                                                  {"a..b", "a."},
                                                                  {"/abs/r.h5", "r"},
                                                                  {"noext.", "noext."}};
  for (const auto& [path, stem] : stems) {
    run.path = path;
    EXPECT_EQ(run.display_label(), stem) << path;
  }
  run.label = "my run";
  EXPECT_EQ(run.display_label(), "my run");
}

scope_speedscope::Run lane_table_run() {
  scope_speedscope::Run run = make_run({{"a", 0, {{0, 1}}}});
  run.threads[0] = {{0, "MainThread"}, {1, "w0"}};
  run.threads[1] = {{0, "Main1"}};
  run.tasks[0] = {{1, 0, "Task-2", "test.<locals>.job"},
                  {2, 1, "", "mod.coro"},
                  {4, 7, "T", "x"},
                  {5, -1, "T5", "c"}};
  return run;
}

TEST(export, lane_label_examples_of_the_spec) {
  // Searching the tables, then through the index the reader builds.
  scope_speedscope::Run run = lane_table_run();
  run.tasks[0].push_back({1, 1, "Task-2 again", "later"});  // the first row with an index wins
  run.threads[0].push_back({0, "MainThread again"});
  for (int indexed = 0; indexed < 2; ++indexed) {
    if (indexed) run.index_lanes();
    SCOPED_TRACE(indexed ? "indexed" : "searched");
    EXPECT_EQ(run.lane_label(-2, 0), "MainThread");
    EXPECT_EQ(run.lane_label(-3, 0), "w0");
    EXPECT_EQ(run.lane_label(-1, 0), "unknown lane");
    EXPECT_EQ(run.lane_label(-99, 0), "thread 97");
    EXPECT_EQ(run.lane_label(7, 0), "task 7");
    EXPECT_EQ(run.lane_label(1, 0), "Task-2 (job) on MainThread");
    EXPECT_EQ(run.lane_label(2, 0), " (coro) on w0");
    EXPECT_EQ(run.lane_label(4, 0), "T (x) on thread 7");
    EXPECT_EQ(run.lane_label(5, 0), "T5 (c) on unknown lane");
    // Tables are per rank.
    EXPECT_EQ(run.lane_label(-2, 1), "Main1");
    EXPECT_EQ(run.lane_label(-3, 1), "thread 1");
    EXPECT_EQ(run.lane_label(1, 1), "task 1");
    EXPECT_EQ(run.lane_label(-2, 2), "thread 0");
  }
}

TEST(export, lane_label_of_a_task_on_an_extreme_thread_index) {
  // lane_label(-2 - thread_index) of scope-profiler, without overflowing.
  scope_speedscope::Run run = make_run({{"a", 0, {{0, 1}}}});
  run.tasks[0] = {{0, INT64_MAX, "t", "c"}, {1, INT64_MIN, "u", "m.c"}, {2, -2, "v", "c"}};
  EXPECT_EQ(run.lane_label(0, 0), "t (c) on thread 9223372036854775807");
  EXPECT_EQ(run.lane_label(1, 0), "u (c) on task 9223372036854775806");
  EXPECT_EQ(run.lane_label(2, 0), "v (c) on t (c) on thread 9223372036854775807");
}

TEST(export, profile_name_is_rank_then_lane_label) {
  const scope_speedscope::Run run = lane_table_run();
  EXPECT_EQ(profile_name(run, 0, -1), "rank 0");
  EXPECT_EQ(profile_name(run, 0, -2), "rank 0 - MainThread");
  EXPECT_EQ(profile_name(run, 3, 7), "rank 3 - task 7");
  EXPECT_EQ(profile_name(run, 0, 1), "rank 0 - Task-2 (job) on MainThread");
  EXPECT_EQ(profile_name(run, 0, 2), "rank 0 -  (coro) on w0");
  EXPECT_EQ(profile_name(run, 12, -5), "rank 12 - thread 3");
}

// ---- export_speedscope ----------------------------------------------------------------

std::string h5(const std::string& name) { return shared_dir() + "/h5/" + name; }

ExportOptions quiet() {
  ExportOptions o;
  o.verbose = false;
  return o;
}

std::string error_of(const std::vector<scope_speedscope::Run>& runs, const std::string& filepath,
                     const ExportOptions& options) {
  try {
    export_speedscope(runs, filepath, options);
  } catch (const Error& e) {
    return std::string(e.kind_name()) + ": " + e.what();
  }
  return "no error";
}

TEST(export, no_runs_is_an_error) {
  TempDir dir;
  EXPECT_EQ(error_of({}, dir / "p.json", quiet()), "ValueError: No profiling data provided.");
  EXPECT_EQ(entries_under(dir.path()), Strings{});
}

TEST(export, nothing_is_written_when_a_later_run_fails) {
  TempDir dir;
  const std::vector<scope_speedscope::Run> runs = {read_run(h5("nested_s3.h5")),
                                                   read_run(h5("overlap_s3.h5"))};
  const std::string message = error_of(runs, dir / "sub/dir/profile.speedscope.json", quiet());
  EXPECT_EQ(message.rfind("NestingError: recorded calls are not properly nested: 'long' call 0", 0),
            0u)
      << message;
  EXPECT_EQ(entries_under(dir.path()), Strings{}) << "no file, no temporary, no folder";
}

TEST(export, nothing_is_written_when_a_later_run_has_a_bad_rank) {
  TempDir dir;
  const std::vector<scope_speedscope::Run> runs = {read_run(h5("nested_s3.h5")),
                                                   read_run(h5("hdf5-schema-3.h5"))};
  ExportOptions options = quiet();
  options.ranks = std::vector<int64_t>{1};
  EXPECT_EQ(error_of(runs, dir / "p.json", options), "ValueError: Invalid rank requested: 1");
  EXPECT_EQ(entries_under(dir.path()), Strings{});
}

// Records what the export asks of its output target.
class RecordingTarget final : public OutputTarget {
 public:
  Sink& open(const std::string& path) override {
    log.push_back("open " + path);
    sinks.emplace_back();
    return sinks.back();
  }
  void close() override { log.push_back("close"); }
  void commit() override { log.push_back("commit"); }
  void abort() noexcept override { log.push_back("abort"); }
  Strings log;
  std::deque<StringSink> sinks;
};

TEST(export, output_target_gets_each_file_in_input_order_then_one_commit) {
  const std::vector<scope_speedscope::Run> runs = {read_run(h5("nested_s3.h5")),
                                                   read_run(h5("edge_s3.h5"))};
  RecordingTarget target;
  const Strings written = export_speedscope(runs, "out/profile", quiet(), target);
  const Strings want = {"out/profile_my_run_128_ranks.speedscope.json",
                        "out/profile_edge_s3.speedscope.json"};
  EXPECT_EQ(written, want);
  EXPECT_EQ(target.log,
            (Strings{"open " + want[0], "close", "open " + want[1], "close", "commit"}));
  ASSERT_EQ(target.sinks.size(), 2u);
  EXPECT_EQ(target.sinks[1].text,
            as_ours(read_bytes(shared_dir() +
                               "/expected/naming_no_suffix/profile_edge_s3.speedscope.json")));
}

TEST(export, output_target_is_aborted_and_never_committed_on_error) {
  const std::vector<scope_speedscope::Run> runs = {read_run(h5("nested_s3.h5")),
                                                   read_run(h5("overlap_s3.h5"))};
  RecordingTarget target;
  EXPECT_THROW(export_speedscope(runs, "p.json", quiet(), target), Error);
  ASSERT_FALSE(target.log.empty());
  EXPECT_EQ(target.log.back(), "abort");
  EXPECT_EQ(std::count(target.log.begin(), target.log.end(), "commit"), 0);
}

TEST(export, verbose_export_logs_each_written_file) {
  TempDir dir;
  const std::vector<scope_speedscope::Run> runs = {read_run(h5("hdf5-schema-1.h5")),
                                                   read_run(h5("hdf5-schema-2.h5"))};
  ExportOptions options;
  Strings lines;
  options.log = [&](const std::string& line) { lines.push_back(line); };
  const Strings written = export_speedscope(runs, dir / "p.json", options);
  ASSERT_EQ(written, (Strings{dir / "p_hdf5-schema-1.json", dir / "p_hdf5-schema-2.json"}));
  EXPECT_EQ(lines, (Strings{"Wrote " + written[0] + " (view at https://www.speedscope.app)",
                            "Wrote " + written[1] + " (view at https://www.speedscope.app)"}));
  lines.clear();
  options.verbose = false;
  export_speedscope(runs, dir / "q.json", options);
  EXPECT_EQ(lines, Strings{});
}

TEST(export, default_ranks_are_rank_zero) {
  RecordingTarget target;
  export_speedscope({read_run(h5("nested_s3.h5"))}, "p.json", quiet(), target);
  ASSERT_EQ(target.sinks.size(), 1u);
  EXPECT_NE(target.sinks[0].text.find("\"name\": \"rank 0\""), std::string::npos);
  EXPECT_EQ(target.sinks[0].text.find("\"name\": \"rank 1\""), std::string::npos);
}

TEST(export, a_run_without_calls_is_skipped_but_still_counts_for_naming) {
  scope_speedscope::Run with_calls = make_run({{"a", 0, {{0, 10}}}});
  with_calls.path = "one.h5";
  scope_speedscope::Run without = make_run({{"a", 0, {}}});
  without.path = "two.h5";
  RecordingTarget target;
  const Strings written = export_speedscope({with_calls, without}, "d/p.json", quiet(), target);
  EXPECT_EQ(written, Strings{"d/p_one.json"});
  EXPECT_EQ(target.log, (Strings{"open d/p_one.json", "close", "commit"}));
}

TEST(export, error_messages_and_kinds) {
  const scope_speedscope::Run run = make_run({{"solve", 0, {{0, 10}}}, {"other", 1, {{0, 10}}}});
  ExportOptions options = quiet();
  options.include = Strings{"nomatch"};
  EXPECT_EQ(error_of({run}, "p.json", options),
            "ValueError: No regions matched the selected filters.");
  options = quiet();
  options.ranks = std::vector<int64_t>{0, 2};
  EXPECT_EQ(error_of({run}, "p.json", options), "ValueError: Invalid rank requested: 2");
  options.ranks = std::vector<int64_t>{-1};
  EXPECT_EQ(error_of({run}, "p.json", options), "ValueError: Invalid rank requested: -1");
  options.ranks = std::vector<int64_t>{};
  EXPECT_EQ(error_of({run}, "p.json", options),
            "ValueError: No calls recorded for the requested ranks.");
  options.ranks = std::vector<int64_t>{1};
  options.include = Strings{"solve"};
  EXPECT_EQ(error_of({run}, "p.json", options),
            "ValueError: No calls recorded for the requested ranks.");
}

TEST(export, repeated_ranks_give_repeated_profiles) {
  const scope_speedscope::Run run = make_run({{"solve", 0, {{0, 10}}}});
  ExportOptions options = quiet();
  options.ranks = std::vector<int64_t>{0, 0};
  RecordingTarget target;
  export_speedscope({run}, "p.json", options, target);
  ASSERT_EQ(target.sinks.size(), 1u);
  const std::string profile =
      "{\"type\": \"evented\", \"name\": \"rank 0\", \"unit\": \"seconds\", \"startValue\": 0.0, "
      "\"endValue\": 1e-08, \"events\": [{\"type\": \"O\", \"frame\": 0, \"at\": 0.0}, {\"type\": "
      "\"C\", \"frame\": 0, \"at\": 1e-08}]}";
  EXPECT_NE(target.sinks[0].text.find("\"profiles\": [" + profile + ", " + profile + "]}"),
            std::string::npos)
      << target.sinks[0].text;
}

}  // namespace
}  // namespace scope_speedscope::test
