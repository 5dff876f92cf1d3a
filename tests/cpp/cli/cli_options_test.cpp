// The command line of `scope-profiler export speedscope` (spec 5.1, CLI):
// parse_rank_specs, parse_cli, help and summary texts.
#include <gtest/gtest.h>

#include "cli/options.hpp"
#include "test_support.hpp"
#include "text/messages.hpp"

namespace scope_speedscope::test {
namespace {

using Ranks = std::vector<int64_t>;
using Strings = std::vector<std::string>;

// What parse_cli says of `args`: its error's words, or "no error".
std::string message(const Strings& args) {
  try {
    parse_cli(args);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

std::string usage_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::usage) return std::string("wrong kind ") + e.kind_name();
    if (std::string(e.what()).empty()) return "empty message";
    if (std::string(e.what()).find('\n') != std::string::npos) return "message of several lines";
    return "usage";
  }
  return "no error";
}

TEST(cli_options, parse_rank_specs_expands_ranges_sorts_and_deduplicates) {
  EXPECT_EQ(parse_rank_specs({"0,2-3"}), (Ranks{0, 2, 3}));
  EXPECT_EQ(parse_rank_specs({"3,1,1"}), (Ranks{1, 3}));
  EXPECT_EQ(parse_rank_specs({"1-3,5", "0"}), (Ranks{0, 1, 2, 3, 5}));
  EXPECT_EQ(parse_rank_specs({"7"}), (Ranks{7}));
  EXPECT_EQ(parse_rank_specs({"2-2"}), (Ranks{2}));
  EXPECT_EQ(parse_rank_specs({" 1 , 2 "}), (Ranks{1, 2})) << "parts are stripped";
  EXPECT_EQ(parse_rank_specs({"4", "4-5", "0"}), (Ranks{0, 4, 5}));
  EXPECT_EQ(parse_rank_specs({}), Ranks{});
}

TEST(cli_options, bad_rank_specs_are_usage_errors) {
  for (const std::string spec : {"a", "1-", "", "1,,2", "1-2-3", "1.5", "0x1", " ", "1-a", ","}) {
    EXPECT_EQ(usage_error([&] { parse_rank_specs({spec}); }), "usage") << "'" << spec << "'";
  }
}

TEST(cli_options, output_dir_gives_the_default_file_and_rank_zero) {
  const CliOptions o = parse_cli({"a.h5", "-o", "out"});
  EXPECT_EQ(o.files, Strings{"a.h5"});
  EXPECT_EQ(o.output_dir, "out");
  EXPECT_EQ(o.filepath, "out/profile.speedscope.json");
  EXPECT_EQ(o.ranks, Ranks{0});
  EXPECT_FALSE(o.include.has_value());
  EXPECT_FALSE(o.exclude.has_value());
  EXPECT_EQ(o.labels, Strings{});
  EXPECT_FALSE(o.quiet);
  EXPECT_FALSE(o.help);
  EXPECT_FALSE(o.version);
  // os.path.join, then str(Path).
  EXPECT_EQ(parse_cli({"a.h5", "-o", "out/"}).filepath, "out/profile.speedscope.json");
  EXPECT_EQ(parse_cli({"a.h5", "--output", "./x//y"}).filepath, "x/y/profile.speedscope.json");
}

TEST(cli_options, every_option) {
  const CliOptions o =
      parse_cli({"a.h5", "b.h5", "-o", "d", "--ranks", "1-2", "0", "--include", "x", "y",
                 "--exclude", "z", "--quiet", "--label", "L1", "--label", "L2"});
  EXPECT_EQ(o.files, (Strings{"a.h5", "b.h5"}));
  EXPECT_EQ(o.ranks, (Ranks{0, 1, 2}));
  EXPECT_EQ(o.include, (Strings{"x", "y"}));
  EXPECT_EQ(o.exclude, Strings{"z"});
  EXPECT_EQ(o.labels, (Strings{"L1", "L2"}));
  EXPECT_TRUE(o.quiet);
  EXPECT_EQ(o.filepath, "d/profile.speedscope.json");
}

TEST(cli_options, files_may_follow_options) {
  const CliOptions o = parse_cli({"-o", "d", "--quiet", "a.h5", "b.h5"});
  EXPECT_EQ(o.files, (Strings{"a.h5", "b.h5"}));
}

TEST(cli_options, filepath_replaces_the_output_dir) {
  const CliOptions o = parse_cli({"a.h5", "--filepath", "x/my.run.json"});
  EXPECT_EQ(o.filepath, "x/my.run.json");
}

TEST(cli_options, ranks_without_a_value_select_none) {
  // argparse nargs="*": `--ranks` alone leaves [], and the export then
  // reports "No calls recorded for the requested ranks.".
  EXPECT_EQ(parse_cli({"a.h5", "-o", "d", "--ranks"}).ranks, Ranks{});
  EXPECT_EQ(parse_cli({"a.h5", "--ranks", "-o", "d"}).ranks, Ranks{});
}

TEST(cli_options, narrowing_options) {
  const CliOptions none = parse_cli({"a.h5", "-o", "d"});
  EXPECT_FALSE(none.min_duration.has_value());
  EXPECT_FALSE(none.time_window.has_value());
  EXPECT_FALSE(none.narrowing.active()) << "without the options nothing changes";
  const CliOptions o =
      parse_cli({"a.h5", "-o", "d", "--min-duration", "100us", "--time-window", "2:5"});
  EXPECT_EQ(o.min_duration, "100us");
  EXPECT_EQ(o.narrowing.min_duration_ns, 100000);
  EXPECT_EQ(o.narrowing.min_duration_text, "100us");
  EXPECT_EQ(o.time_window, "2:5");
  EXPECT_EQ(o.narrowing.window_start_ns, 2000000000);
  EXPECT_EQ(o.narrowing.window_end_ns, 5000000000);
  const CliOptions inline_values =
      parse_cli({"a.h5", "-o", "d", "--min-duration=1e-4", "--time-window=:10ms"});
  EXPECT_EQ(inline_values.narrowing.min_duration_ns, 100000);
  EXPECT_FALSE(inline_values.narrowing.window_start_ns.has_value());
  EXPECT_EQ(inline_values.narrowing.window_end_ns, 10000000);
  EXPECT_EQ(parse_cli({"a.h5", "-o", "d", "--time-window", "0.5:"}).narrowing.window_start_ns,
            500000000);
  // The last one counts, as with argparse.
  EXPECT_EQ(parse_cli({"a.h5", "-o", "d", "--min-duration", "1s", "--min-duration", "2ns"})
                .narrowing.min_duration_ns,
            2);
}

TEST(cli_options, narrowing_usage_errors_say_what_is_expected) {
  auto message = [](const std::vector<std::string>& args) {
    try {
      parse_cli(args);
    } catch (const Error& e) {
      return std::string(e.kind_name()) + ": " + e.what();
    }
    return std::string("no error");
  };
  EXPECT_EQ(
      message({"a.h5", "-o", "d", "--min-duration", "fast"}),
      "UsageError: argument --min-duration: invalid duration 'fast' (expected seconds such as "
      "1e-4 or 0.5, or a number with a unit: 500ns, 100us, 2ms, 1s)");
  EXPECT_EQ(message({"a.h5", "-o", "d", "--min-duration"}),
            "UsageError: argument --min-duration: expected one argument");
  EXPECT_EQ(message({"a.h5", "-o", "d", "--min-duration", "-1"}),
            "UsageError: argument --min-duration: invalid duration '-1' (expected seconds such as "
            "1e-4 or 0.5, or a number with a unit: 500ns, 100us, 2ms, 1s)");
  EXPECT_EQ(message({"a.h5", "-o", "d", "--time-window", "5"}),
            "UsageError: argument --time-window: invalid time window '5' (expected START:END in "
            "seconds from the run's first call, e.g. 2:5, 0.5:, :10, or with units: 100ms:250ms)");
  EXPECT_EQ(
      message({"a.h5", "-o", "d", "--time-window", "5:2"}),
      "UsageError: argument --time-window: invalid time window '5:2' (END must be after START)");
  EXPECT_EQ(
      message({"a.h5", "-o", "d", "--time-window", "1s:2x"}),
      "UsageError: argument --time-window: invalid time window '1s:2x' (expected START:END in "
      "seconds from the run's first call, e.g. 2:5, 0.5:, :10, or with units: 100ms:250ms)");
}

TEST(cli_options, help_and_version_need_nothing_else) {
  EXPECT_TRUE(parse_cli({"--help"}).help);
  EXPECT_TRUE(parse_cli({"-h"}).help);
  EXPECT_TRUE(parse_cli({"--version"}).version);
}

TEST(cli_options, usage_errors) {
  EXPECT_EQ(usage_error([] { parse_cli({"a.h5"}); }), "usage") << "missing -o";
  EXPECT_EQ(usage_error([] { parse_cli({"-o", "d"}); }), "usage") << "no files";
  EXPECT_EQ(usage_error([] { parse_cli({}); }), "usage");
  EXPECT_EQ(usage_error([] { parse_cli({"a.h5", "-o", "d", "--frobnicate"}); }), "usage");
  EXPECT_EQ(usage_error([] { parse_cli({"a.h5", "-o"}); }), "usage") << "-o without a value";
  EXPECT_EQ(usage_error([] { parse_cli({"a.h5", "-o", "d", "--ranks", "x"}); }), "usage");
  EXPECT_EQ(usage_error([] {
              parse_cli({"a.h5", "-o", "d", "--filepath", "f.json"});
            }),
            "usage")
      << "-o and --filepath together";
}

TEST(cli_options, help_mentions_every_flag_and_starts_with_the_usage) {
  const std::string help = cli_help();
  EXPECT_EQ(help.rfind(cli_usage(), 0), 0u);
  for (const char* flag :
       {"-o", "--output", "--filepath", "--ranks", "--include", "--exclude", "--label", "--quiet",
        "--help", "--version", "--min-duration", "--time-window"}) {
    EXPECT_NE(help.find(flag), std::string::npos) << flag;
  }
  const std::string usage = cli_usage();
  EXPECT_EQ(usage.rfind("usage: scope-speedscope ", 0), 0u) << usage;
  EXPECT_EQ(usage.back(), '\n');
  EXPECT_EQ(std::count(usage.begin(), usage.end(), '\n'), 1) << "one line";
}

// post_processing.py export_main: print("Outputs saved to:\n  " + "\n  ".join(saved)),
// then print(f"\nView {saved[0]} at https://www.speedscope.app (or: npx speedscope <file>)").
TEST(cli_options, summary_is_what_scope_profiler_prints) {
  EXPECT_EQ(cli_summary({"d/profile.speedscope.json"}),
            "Outputs saved to:\n  d/profile.speedscope.json\n\nView d/profile.speedscope.json at "
            "https://www.speedscope.app (or: npx speedscope <file>)\n");
  EXPECT_EQ(cli_summary({"d/a.json", "d/b.json"}),
            "Outputs saved to:\n  d/a.json\n  d/b.json\n\nView d/a.json at "
            "https://www.speedscope.app (or: npx speedscope <file>)\n");
}

// The Node CLI's commands (npx scope-speedscope view|serve): the same parser.
TEST(cli_options, the_first_argument_selects_view_or_serve) {
  EXPECT_EQ(cli_command({}), CliCommand::export_files);
  EXPECT_EQ(cli_command({"a.h5", "view"}), CliCommand::export_files) << "only the first argument";
  EXPECT_EQ(cli_command({"view"}), CliCommand::view);
  EXPECT_EQ(cli_command({"serve", "--bogus"}), CliCommand::serve);
  EXPECT_EQ(cli_command({"./view"}), CliCommand::export_files);
  EXPECT_EQ(parse_cli({"a.h5", "-o", "d"}).command, CliCommand::export_files);
  EXPECT_STREQ(cli_command_name(CliCommand::export_files), "export");
  EXPECT_STREQ(cli_command_name(CliCommand::view), "view");
  EXPECT_STREQ(cli_command_name(CliCommand::serve), "serve");
}

TEST(cli_options, view_takes_the_export_options_and_needs_no_output) {
  const CliOptions o =
      parse_cli({"view", "a.h5", "b.h5", "--ranks", "0-1", "--include", "x", "--exclude", "y",
                 "--label", "L1", "--port", "8123", "--no-open"});
  EXPECT_EQ(o.command, CliCommand::view);
  EXPECT_EQ(o.files, (Strings{"a.h5", "b.h5"}));
  EXPECT_EQ(o.ranks, (Ranks{0, 1}));
  EXPECT_EQ(o.include, Strings{"x"});
  EXPECT_EQ(o.exclude, Strings{"y"});
  EXPECT_EQ(o.labels, Strings{"L1"});
  EXPECT_EQ(o.port, 8123);
  EXPECT_FALSE(o.open);
  EXPECT_FALSE(o.write_outputs);
  EXPECT_EQ(o.filepath, "profile.speedscope.json") << "named as the export names them";

  const CliOptions plain = parse_cli({"view", "a.h5"});
  EXPECT_EQ(plain.ranks, Ranks{0});
  EXPECT_FALSE(plain.port.has_value());
  EXPECT_TRUE(plain.open);
  EXPECT_FALSE(plain.write_outputs);

  const CliOptions written = parse_cli({"view", "a.h5", "-o", "out"});
  EXPECT_TRUE(written.write_outputs);
  EXPECT_EQ(written.filepath, "out/profile.speedscope.json");
  EXPECT_TRUE(parse_cli({"view", "a.h5", "--filepath", "x.json"}).write_outputs);
  EXPECT_EQ(parse_cli({"view", "a.h5", "--port=0"}).port, 0);
  // The export's options stay as they were: no --port, no --no-open.
  EXPECT_EQ(usage_error([] { parse_cli({"a.h5", "-o", "d", "--port", "8080"}); }), "usage");
  EXPECT_EQ(usage_error([] { parse_cli({"a.h5", "-o", "d", "--no-open"}); }), "usage");
}

TEST(cli_options, serve_takes_files_a_port_a_host_and_the_page) {
  const CliOptions o = parse_cli({"serve", "--port", "9000"});
  EXPECT_EQ(o.command, CliCommand::serve);
  EXPECT_EQ(o.port, 9000);
  EXPECT_TRUE(o.files.empty());
  EXPECT_FALSE(parse_cli({"serve"}).port.has_value());
  const CliOptions two = parse_cli(
      {"serve", "a.h5", "b.h5", "--host", "10.0.0.1", "--web", "site", "--no-open", "--port=0"});
  EXPECT_EQ(two.files, (Strings{"a.h5", "b.h5"}));
  EXPECT_EQ(two.host, "10.0.0.1");
  EXPECT_EQ(two.web_dir, "site");
  EXPECT_EQ(two.port, 0);
  EXPECT_FALSE(two.open);
  EXPECT_FALSE(two.vs);
  EXPECT_TRUE(parse_cli({"serve", "--help"}).help);
  EXPECT_TRUE(parse_cli({"view", "-h"}).help);
}

// serve FILE... [vs FILE...]: any number of files (a job's); vs splits run
// A's from run B's as diff's does, with diff's messages.
TEST(cli_options, serve_takes_a_jobs_files_and_vs_as_diff_does) {
  const CliOptions three = parse_cli({"serve", "a_rank0.h5", "a_rank1.h5", "a_rank2.h5"});
  EXPECT_EQ(three.files, (Strings{"a_rank0.h5", "a_rank1.h5", "a_rank2.h5"}));
  EXPECT_FALSE(three.vs);
  const CliOptions vs =
      parse_cli({"serve", "a0.h5", "a1.h5", "vs", "b0.h5", "b1.h5", "b2.h5", "--port", "0"});
  EXPECT_TRUE(vs.vs);
  EXPECT_EQ(vs.diff_a_files, 2u);
  EXPECT_EQ(vs.files, (Strings{"a0.h5", "a1.h5", "b0.h5", "b1.h5", "b2.h5"}));
  EXPECT_EQ(vs.port, 0);
  const CliOptions one_each = parse_cli({"serve", "a.h5", "vs", "b.h5"});
  EXPECT_TRUE(one_each.vs);
  EXPECT_EQ(one_each.diff_a_files, 1u);
  // A file named vs is ./vs.
  EXPECT_FALSE(parse_cli({"serve", "./vs", "b.h5"}).vs);
  const CliOptions diff = parse_cli({"diff", "a.h5", "vs", "b.h5", "c.h5"});
  EXPECT_TRUE(diff.vs);
  EXPECT_EQ(diff.diff_a_files, 1u);
  EXPECT_FALSE(parse_cli({"diff", "a.h5", "b.h5"}).vs);
  EXPECT_EQ(message({"serve", "a.h5", "vs"}), "the following arguments are required: B (after vs)");
  EXPECT_EQ(message({"serve", "vs", "b.h5"}),
            "the following arguments are required: A (before vs)");
  EXPECT_EQ(message({"serve", "a.h5", "vs", "b.h5", "vs", "c.h5"}),
            "vs given twice: serve A... vs B... (a file named vs is ./vs)");
  EXPECT_EQ(message({"diff", "a.h5", "vs", "b.h5", "vs", "c.h5"}),
            "vs given twice: diff A... vs B... (a file named vs is ./vs)");
  EXPECT_EQ(message({"serve", "--help", "a.h5", "vs"}), "no error");
}

TEST(cli_options, view_and_serve_usage_errors) {
  EXPECT_EQ(message({"view"}), "the following arguments are required: FILE");
  EXPECT_EQ(message({"view", "a.h5", "--port", "x"}),
            "argument --port: invalid port 'x' (0-65535)");
  EXPECT_EQ(message({"view", "a.h5", "--port", "65536"}),
            "argument --port: invalid port '65536' (0-65535)");
  EXPECT_EQ(message({"view", "a.h5", "--port"}), "argument --port: expected one argument");
  EXPECT_EQ(message({"serve", "--ranks", "1"}), "unrecognized argument: --ranks");
  EXPECT_EQ(message({"serve", "--no-open=1"}), "unrecognized argument: --no-open=1");
  EXPECT_EQ(message({"serve", "--host", ""}), "argument --host: expected an address");
  EXPECT_EQ(message({"serve", "--web", ""}), "argument --web: expected a directory");
  EXPECT_EQ(message({"view", "a.h5", "--host", "x"}), "unrecognized argument: --host");
  EXPECT_EQ(message({"view", "a.h5", "-o", "d", "--filepath", "f.json"}),
            "argument --filepath: not allowed with argument -o/--output");
}

TEST(cli_options, each_command_has_a_short_help_starting_with_its_usage) {
  for (const CliCommand c : {CliCommand::view, CliCommand::serve}) {
    const std::string help = cli_help(c);
    const std::string usage = cli_usage(c);
    EXPECT_EQ(help.rfind(usage, 0), 0u) << help;
    EXPECT_EQ(usage.rfind(std::string("usage: scope-speedscope ") + cli_command_name(c), 0), 0u);
    EXPECT_EQ(std::count(usage.begin(), usage.end(), '\n'), 1) << "one line";
    EXPECT_NE(help.find("--port"), std::string::npos);
    EXPECT_LT(std::count(help.begin(), help.end(), '\n'), 20) << "short";
  }
  EXPECT_NE(cli_help(CliCommand::view).find("--no-open"), std::string::npos);
  EXPECT_NE(cli_help().find("view FILE..."), std::string::npos)
      << "the export's help names the commands";
  EXPECT_NE(cli_help().find("serve [FILE... [vs FILE...]] [options]"), std::string::npos);
  EXPECT_NE(cli_help(CliCommand::serve).find("A... vs B..."), std::string::npos);
}

}  // namespace
}  // namespace scope_speedscope::test
