// The command line of `scope-profiler export speedscope`, shared by the
// native CLI and the Node CLI (through the wasm bindings): one parser, one
// help text, one summary. The Node CLI adds two commands that serve the page
// (`view FILE...`, `serve`); their options and help live here too, and the
// native CLI reports them as usage errors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compare/diff_report.hpp"
#include "export/imbalance_report.hpp"
#include "export/narrow.hpp"

namespace scope_speedscope {

// The first argument `view`, `serve`, `imbalance` or `diff` selects that
// command; anything else is the export (the default). `imbalance` and
// `diff` are in both CLIs, `view` and `serve` in the Node CLI only.
enum class CliCommand { export_files, view, serve, imbalance, diff };

struct CliOptions {
  CliCommand command = CliCommand::export_files;
  std::vector<std::string> files;
  // diff: files[0, diff_a_files) are run A's (one job), the rest B's: `diff
  // A B`, or `diff A... vs B...` (a file named vs is ./vs). serve: the same
  // with vs (`serve A... vs B...`: B compared against A).
  std::size_t diff_a_files = 1;
  bool vs = false;                   // vs was given (diff, serve)
  std::string output_dir;            // -o DIR
  std::string filepath;              // DIR/profile.speedscope.json, or --filepath
  std::vector<int64_t> ranks = {0};  // sorted, de-duplicated
  bool ranks_given = false;          // --ranks was given (diff: else the default ranks)
  bool all_ranks = false;  // --ranks all (and imbalance without --ranks): every rank of the run
  std::optional<std::vector<std::string>> include;
  std::optional<std::vector<std::string>> exclude;
  std::vector<std::string> labels;          // --label, per input in order
  std::optional<std::string> min_duration;  // --min-duration D, as given
  std::optional<std::string> time_window;   // --time-window START:END, as given
  Narrowing narrowing;                      // both, checked
  // --source-locations (export, view): frames carry file and line.
  bool source_locations = false;
  // --source (imbalance, diff): each region's file:line and text.
  bool source = false;
  bool quiet = false;
  bool help = false;
  bool version = false;
  // view: write the outputs to files as the export does (-o or --filepath
  // given); without, they are only served.
  bool write_outputs = true;
  // view and serve: --port N (0-65535; absent: the command's default).
  std::optional<int> port;
  // view: open the default browser on the page (--no-open: do not; serve
  // accepts it and opens none).
  bool open = true;
  // serve: --host ADDR (empty: 127.0.0.1) and --web DIR (empty: dist/web
  // next to the build).
  std::string host;
  std::string web_dir;
  // imbalance and diff: --json.
  bool json = false;
  // diff: --max-regression PCT and --metric self|total.
  std::optional<double> max_regression_pct;
  DiffMetric metric = DiffMetric::self;
};

// The command the arguments ask for (their first one), also on a usage error.
CliCommand cli_command(const std::vector<std::string>& args);
// Throws Error(usage) with a one-line message.
CliOptions parse_cli(const std::vector<std::string>& args);
// "0,2-3" -> {0, 2, 3}; specs are joined, sorted and de-duplicated.
std::vector<int64_t> parse_rank_specs(const std::vector<std::string>& specs);
// The usage line and help of a command (export by default).
std::string cli_usage(CliCommand command = CliCommand::export_files);
std::string cli_help(CliCommand command = CliCommand::export_files);
// "export", "view", "serve", "imbalance", "diff".
const char* cli_command_name(CliCommand command);
// The imbalance command's report options from its parsed arguments.
ImbalanceReportOptions imbalance_report_options(const CliOptions& o);
// The diff command's report options from its parsed arguments.
DiffReportOptions diff_report_options(const CliOptions& o);
// The diff command's exit status: 3 when a region grew past --max-regression.
constexpr int kDiffRegressed = 3;
// What the CLI prints after a successful export (empty when quiet).
std::string cli_summary(const std::vector<std::string>& written);

}  // namespace scope_speedscope
