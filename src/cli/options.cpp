#include "cli/options.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <set>

#include "export/export.hpp"
#include "text/messages.hpp"
#include "write/speedscope_format.hpp"

namespace scope_speedscope {
namespace {

[[noreturn]] void usage_error(const std::string& message) {
  throw Error(Msg::usage, {{"detail", message}});
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

bool parse_int(const std::string& text, int64_t& out) {
  const std::string t = trim(text);
  if (t.empty()) return false;
  std::size_t i = 0;
  bool negative = false;
  if (t[0] == '+' || t[0] == '-') {
    negative = t[0] == '-';
    i = 1;
  }
  if (i == t.size()) return false;
  int64_t v = 0;
  for (; i < t.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(t[i]))) return false;
    if (v > (int64_t{1} << 50)) return false;
    v = v * 10 + (t[i] - '0');
  }
  out = negative ? -v : v;
  return true;
}

// A value that argparse would take for an option argument: anything not
// starting with '-', or a negative number.
bool is_value(const std::string& arg) {
  if (arg.empty() || arg[0] != '-') return true;
  if (arg.size() < 2) return false;
  return std::all_of(arg.begin() + 1, arg.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) || c == '.';
  });
}

}  // namespace

std::vector<int64_t> parse_rank_specs(const std::vector<std::string>& specs) {
  std::set<int64_t> ranks;
  for (const std::string& spec : specs) {
    std::size_t pos = 0;
    while (pos <= spec.size()) {
      auto comma = spec.find(',', pos);
      if (comma == std::string::npos) comma = spec.size();
      const std::string part = trim(spec.substr(pos, comma - pos));
      pos = comma + 1;
      const auto dash = part.find('-', 1);
      int64_t a = 0, b = 0;
      if (dash != std::string::npos) {
        if (!parse_int(part.substr(0, dash), a) || !parse_int(part.substr(dash + 1), b) || a > b) {
          usage_error("invalid rank range '" + part + "' in --ranks " + spec);
        }
        if (b - a > 1000000) usage_error("rank range '" + part + "' is too large");
        for (int64_t r = a; r <= b; ++r) ranks.insert(r);
      } else {
        if (!parse_int(part, a)) usage_error("invalid rank '" + part + "' in --ranks " + spec);
        ranks.insert(a);
      }
    }
  }
  return {ranks.begin(), ranks.end()};
}

// True for `--ranks all` (every rank of the run); 'all' with other ranks is
// a usage error.
bool every_rank_asked(const std::optional<std::vector<std::string>>& specs) {
  if (!specs) return false;
  bool all = false;
  std::size_t parts = 0;  // comma-separated, over every value
  for (const std::string& spec : *specs) {
    std::size_t pos = 0;
    while (pos <= spec.size()) {
      std::size_t comma = spec.find(',', pos);
      if (comma == std::string::npos) comma = spec.size();
      all = all || trim(spec.substr(pos, comma - pos)) == "all";
      ++parts;
      pos = comma + 1;
    }
  }
  if (all && parts != 1) {
    usage_error("--ranks all names every rank: give it alone, not with other ranks");
  }
  return all;
}

CliCommand cli_command(const std::vector<std::string>& args) {
  if (args.empty()) return CliCommand::export_files;
  if (args[0] == "view") return CliCommand::view;
  if (args[0] == "serve") return CliCommand::serve;
  if (args[0] == "imbalance") return CliCommand::imbalance;
  if (args[0] == "diff") return CliCommand::diff;
  return CliCommand::export_files;
}

namespace {

// One option on the command line: its name ("--ranks", "-o") and the values
// it may take, inline (--ranks=0-3, -oDIR) and from the following arguments.
class OptionArgs {
 public:
  OptionArgs(const std::vector<std::string>& args, std::size_t& i) : args_(args), i_(i) {
    name = args[i];
    if (name.compare(0, 2, "--") == 0) {
      const auto eq = name.find('=');
      if (eq != std::string::npos) {
        inline_value_ = name.substr(eq + 1);
        name = name.substr(0, eq);
        has_inline = true;
      }
    } else if (name.size() > 2 && name[1] == 'o') {
      inline_value_ = name.substr(2);
      name = "-o";
      has_inline = true;
    }
  }
  std::string name;
  bool has_inline = false;

  // Between min_count and max_count values, or a usage error.
  std::vector<std::string> values(std::size_t min_count, std::size_t max_count) {
    std::vector<std::string> out;
    if (has_inline) out.push_back(inline_value_);
    while (out.size() < max_count && i_ + 1 < args_.size() && is_value(args_[i_ + 1])) {
      out.push_back(args_[++i_]);
    }
    if (out.size() < min_count) {
      usage_error(
          "argument " + name + ": expected " +
          (max_count == 1 ? std::string("one argument") : std::string("at least one argument")));
    }
    return out;
  }
  std::string value() { return values(1, 1)[0]; }
  std::vector<std::string> any_values() { return values(0, static_cast<std::size_t>(-1)); }
  // The argument as given, for "unrecognized argument".
  const std::string& given() const { return args_[i_]; }

 private:
  const std::vector<std::string>& args_;
  std::size_t& i_;
  std::string inline_value_;
};

// The options of `view` and `serve` (and -h, --version): true when `opt` was one.
bool take_command_option(CliOptions& o, OptionArgs& opt) {
  if (opt.name == "-h" || opt.name == "--help") {
    o.help = true;
  } else if (opt.name == "--version") {
    o.version = true;
  } else if (opt.name == "--port" &&
             (o.command == CliCommand::view || o.command == CliCommand::serve)) {
    const std::string value = opt.value();
    int64_t port = -1;
    if (!parse_int(value, port) || port < 0 || port > 65535) {
      usage_error("argument --port: invalid port '" + value + "' (0-65535)");
    }
    o.port = static_cast<int>(port);
  } else if (opt.name == "--no-open" &&
             (o.command == CliCommand::view || o.command == CliCommand::serve) && !opt.has_inline) {
    o.open = false;
  } else if (opt.name == "--host" && o.command == CliCommand::serve) {
    o.host = opt.value();
    if (o.host.empty()) usage_error("argument --host: expected an address");
  } else if (opt.name == "--web" && o.command == CliCommand::serve) {
    o.web_dir = opt.value();
    if (o.web_dir.empty()) usage_error("argument --web: expected a directory");
  } else {
    return false;
  }
  return true;
}

// The export's options; `rank_specs` collects --ranks (nullopt: not given).
void take_export_option(CliOptions& o, OptionArgs& opt,
                        std::optional<std::vector<std::string>>& rank_specs) {
  const std::string& n = opt.name;
  if (n == "-o" || n == "--output") {
    o.output_dir = opt.value();
  } else if (n == "--filepath") {
    o.filepath = opt.value();
  } else if (n == "--ranks") {
    if (!rank_specs) rank_specs.emplace();
    for (auto& v : opt.any_values()) rank_specs->push_back(v);
  } else if (n == "--include" || n == "--exclude") {
    auto& patterns = n == "--include" ? o.include : o.exclude;
    if (!patterns) patterns.emplace();
    for (auto& v : opt.any_values()) patterns->push_back(v);
  } else if (n == "--min-duration") {
    o.min_duration = opt.value();
  } else if (n == "--time-window") {
    o.time_window = opt.value();
  } else if (n == "--label") {
    for (auto& v : opt.values(1, static_cast<std::size_t>(-1))) o.labels.push_back(v);
  } else if (n == "-q" || n == "--quiet") {
    o.quiet = true;
  } else if (n == "--source-locations" && !opt.has_inline) {
    o.source_locations = true;
  } else {
    usage_error("unrecognized argument: " + opt.given());
  }
}

// The imbalance command's options: the export's selection and window, --json.
void take_imbalance_option(CliOptions& o, OptionArgs& opt,
                           std::optional<std::vector<std::string>>& rank_specs) {
  const std::string& n = opt.name;
  if (n == "--json" && !opt.has_inline) {
    o.json = true;
  } else if (n == "--source" && !opt.has_inline) {
    o.source = true;
  } else if (n == "--ranks" || n == "--include" || n == "--exclude" || n == "--time-window") {
    take_export_option(o, opt, rank_specs);
  } else {
    usage_error("unrecognized argument: " + opt.given());
  }
}

void finish_imbalance_options(CliOptions& o,
                              const std::optional<std::vector<std::string>>& rank_specs) {
  if (o.files.empty()) usage_error("the following arguments are required: FILE");
  o.all_ranks = !rank_specs || every_rank_asked(rank_specs);
  o.ranks = o.all_ranks ? std::vector<int64_t>{} : parse_rank_specs(*rank_specs);
  if (o.time_window) set_time_window(o.narrowing, *o.time_window, "argument --time-window", true);
}

// The diff command's options: the selection, --json, --max-regression PCT,
// --metric self|total.
void take_diff_option(CliOptions& o, OptionArgs& opt,
                      std::optional<std::vector<std::string>>& rank_specs) {
  const std::string& n = opt.name;
  if (n == "--json" && !opt.has_inline) {
    o.json = true;
  } else if (n == "--source" && !opt.has_inline) {
    o.source = true;
  } else if (n == "--max-regression") {
    const std::string v = opt.value();
    char* end = nullptr;
    const double pct = std::strtod(v.c_str(), &end);
    if (v.empty() || end != v.c_str() + v.size() || !(pct >= 0) || pct == HUGE_VAL) {
      usage_error("argument --max-regression: '" + v + "' is not a percentage (0 or more)");
    }
    o.max_regression_pct = pct;
  } else if (n == "--metric") {
    const std::string v = opt.value();
    if (v != "self" && v != "total") {
      usage_error("argument --metric: invalid choice: '" + v + "' (choose from 'self', 'total')");
    }
    o.metric = v == "self" ? DiffMetric::self : DiffMetric::total;
  } else if (n == "--ranks" || n == "--include" || n == "--exclude") {
    take_export_option(o, opt, rank_specs);
  } else {
    usage_error("unrecognized argument: " + opt.given());
  }
}

// `A... vs B...` (diff, serve): the files before vs are run A's
// (diff_a_files), the rest B's; vs itself is dropped. False without vs.
bool split_at_vs(CliOptions& o) {
  const auto vs = std::find(o.files.begin(), o.files.end(), std::string("vs"));
  if (vs == o.files.end()) return false;
  const std::string command = cli_command_name(o.command);
  if (std::find(vs + 1, o.files.end(), std::string("vs")) != o.files.end()) {
    usage_error("vs given twice: " + command + " A... vs B... (a file named vs is ./vs)");
  }
  if (vs == o.files.begin()) usage_error("the following arguments are required: A (before vs)");
  if (vs + 1 == o.files.end()) usage_error("the following arguments are required: B (after vs)");
  o.diff_a_files = static_cast<std::size_t>(vs - o.files.begin());
  o.files.erase(vs);
  o.vs = true;
  return true;
}

void finish_diff_options(CliOptions& o, const std::optional<std::vector<std::string>>& rank_specs) {
  // diff A... vs B...: each side one job's files.
  if (!split_at_vs(o)) {
    if (o.files.size() < 2) usage_error("the following arguments are required: A B");
    if (o.files.size() > 2) {
      usage_error("unrecognized arguments: " + o.files[2] +
                  " (several files a side: diff A... vs B...)");
    }
    o.diff_a_files = 1;
  }
  o.ranks_given = rank_specs.has_value();
  o.all_ranks = every_rank_asked(rank_specs);
  o.ranks = o.all_ranks  ? std::vector<int64_t>{}
            : rank_specs ? parse_rank_specs(*rank_specs)
                         : std::vector<int64_t>{0};
}

// What the arguments must hold together, and the values derived from them.
void finish_export_options(CliOptions& o,
                           const std::optional<std::vector<std::string>>& rank_specs) {
  // Each file once, first occurrence kept (as scope-profiler's CLI does).
  std::vector<std::string> unique;
  for (const std::string& f : o.files) {
    if (std::find(unique.begin(), unique.end(), f) == unique.end()) unique.push_back(f);
  }
  o.files = std::move(unique);
  if (o.files.empty()) usage_error("the following arguments are required: FILE");
  if (o.output_dir.empty() && o.filepath.empty()) {
    if (o.command != CliCommand::view)
      usage_error("the following arguments are required: -o/--output");
    // view without -o: the outputs are named as the export names them, and
    // only served.
    o.write_outputs = false;
    o.filepath = "profile.speedscope.json";
  }
  if (!o.output_dir.empty() && !o.filepath.empty()) {
    usage_error("argument --filepath: not allowed with argument -o/--output");
  }
  if (o.labels.size() > o.files.size()) {
    usage_error("got " + std::to_string(o.labels.size()) + " --label values for " +
                std::to_string(o.files.size()) + " files");
  }
  if (o.filepath.empty()) o.filepath = normalize_path(o.output_dir + "/profile.speedscope.json");
  o.all_ranks = every_rank_asked(rank_specs);
  o.ranks = o.all_ranks  ? std::vector<int64_t>{}
            : rank_specs ? parse_rank_specs(*rank_specs)
                         : std::vector<int64_t>{0};
  if (o.min_duration)
    set_min_duration(o.narrowing, *o.min_duration, "argument --min-duration", true);
  if (o.time_window) set_time_window(o.narrowing, *o.time_window, "argument --time-window", true);
}

}  // namespace

CliOptions parse_cli(const std::vector<std::string>& args) {
  CliOptions o;
  std::optional<std::vector<std::string>> rank_specs;
  bool only_files = false;
  o.command = cli_command(args);
  const bool exporting = o.command != CliCommand::serve;
  for (std::size_t i = o.command == CliCommand::export_files ? 0 : 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (only_files || arg.empty() || arg[0] != '-' || arg == "-") {
      o.files.push_back(arg);
    } else if (arg == "--") {
      only_files = true;
    } else {
      OptionArgs opt(args, i);
      if (take_command_option(o, opt)) continue;
      if (!exporting) usage_error("unrecognized argument: " + opt.given());
      if (o.command == CliCommand::imbalance) {
        take_imbalance_option(o, opt, rank_specs);
      } else if (o.command == CliCommand::diff) {
        take_diff_option(o, opt, rank_specs);
      } else {
        take_export_option(o, opt, rank_specs);
      }
    }
  }
  if (o.help || o.version) return o;
  if (o.command == CliCommand::serve) {
    // serve FILE... [vs FILE...]: without vs, how the files make runs is
    // decided once they are read (cli/serve_runs.hpp).
    split_at_vs(o);
  } else if (o.command == CliCommand::imbalance) {
    finish_imbalance_options(o, rank_specs);
  } else if (o.command == CliCommand::diff) {
    finish_diff_options(o, rank_specs);
  } else {
    finish_export_options(o, rank_specs);
  }
  return o;
}

const char* cli_command_name(CliCommand command) {
  switch (command) {
    case CliCommand::view: return "view";
    case CliCommand::serve: return "serve";
    case CliCommand::imbalance: return "imbalance";
    case CliCommand::diff: return "diff";
    case CliCommand::export_files: break;
  }
  return "export";
}

std::string cli_usage(CliCommand command) {
  switch (command) {
    case CliCommand::view:
      return "usage: scope-speedscope view FILE... [--ranks SPEC ...] [--include RE ...] "
             "[--exclude RE ...] [--label L ...] [-o DIR | --filepath PATH] [--port N] [--no-open] "
             "[--quiet]\n";
    case CliCommand::serve:
      return "usage: scope-speedscope serve [FILE... [vs FILE...]] [--port N] [--host ADDR] "
             "[--no-open] [--web DIR]\n";
    case CliCommand::imbalance:
      return "usage: scope-speedscope imbalance FILE... [--ranks SPEC ...] [--include RE ...] "
             "[--exclude RE ...] [--time-window START:END] [--json] [--source]\n";
    case CliCommand::diff:
      return "usage: scope-speedscope diff A B | A... vs B... [--ranks SPEC ...] [--include RE "
             "...] "
             "[--exclude RE ...] [--json] [--max-regression PCT] [--metric self|total] "
             "[--source]\n";
    case CliCommand::export_files: break;
  }
  return "usage: scope-speedscope FILE... -o DIR [--ranks SPEC ...] [--include RE ...] "
         "[--exclude RE ...] [--min-duration D] [--time-window START:END] [--label L ...] "
         "[--source-locations] [--quiet]\n";
}

namespace {

std::string view_help() {
  return cli_usage(CliCommand::view) +
         "\n"
         "Convert FILEs as the export does (same options, same bytes), serve the page\n"
         "with the result on http://127.0.0.1:PORT/ and open it in the default browser.\n"
         "Serves until Ctrl+C; nothing leaves this computer.\n"
         "\n"
         "options (besides the export's --ranks, --include, --exclude, --label, --quiet):\n"
         "  -o DIR, --filepath PATH\n"
         "                      also write the outputs to files, as the export does\n"
         "  --port N            serve on port N (default: a free port)\n"
         "  --no-open           print the URL, do not open a browser\n"
         "                      (or set SCOPE_SPEEDSCOPE_NO_OPEN=1)\n"
         "  -h, --help          show this help and exit\n";
}

std::string serve_help() {
  return cli_usage(CliCommand::serve) +
         "\n"
         "Serve the page on http://127.0.0.1:PORT/ until Ctrl+C. With FILEs, their runs\n"
         "open in the engine behind it (native here, wasm in Node's), as the page opens\n"
         "files picked together: one file is a run; two are compared (the second\n"
         "against the first, as diff A B) unless they hold different ranks of one job;\n"
         "three or more are one job written one file per process (<prefix>_rank*.h5);\n"
         "A... vs B... compares run B with run A, each one file or one job's files.\n"
         "Files that cannot be opened together: exit 1 before any URL. The URL holds a\n"
         "token: nothing is served without it.\n"
         "\n"
         "options:\n"
         "  --port N            serve on port N (0: any free port; default 8080, or a\n"
         "                      free port when 8080 is taken)\n"
         "  --host ADDR         listen on ADDR (default 127.0.0.1; another address is\n"
         "                      reachable from other machines: a warning is printed)\n"
         "  --web DIR           the built page (default: dist/web next to the build)\n"
         "  --no-open           accepted for symmetry with view: serve opens no browser\n"
         "  -h, --help          show this help and exit\n";
}

std::string imbalance_help() {
  return cli_usage(CliCommand::imbalance) +
         "\n"
         "Which rank the others wait for: per region, its covered time (the union of\n"
         "its calls) on each selected rank within the window, and how it spreads:\n"
         "min, median, mean, max, imbalance = (max - mean) / max and the slowest\n"
         "rank (the lowest holding max), largest max - mean first.\n"
         "\n"
         "Several FILEs are one job written one file per process (scope-profiler's\n"
         "C API: <prefix>_rank<NNNNN>.h5): each holds other ranks of the same job.\n"
         "\n"
         "options:\n"
         "  --ranks SPEC ...    MPI ranks to compare, e.g. 0-63, or all (default: all)\n"
         "  --include [RE ...]  keep only regions whose name matches one of these at\n"
         "                      its start (Python re.match)\n"
         "  --exclude [RE ...]  drop regions whose name matches one of these at its start\n"
         "  --time-window START:END\n"
         "                      only [START, END), seconds from the run's first call\n"
         "                      (2:5, 0.5:, :10, 100ms:250ms)\n"
         "  --json              print {\"regions\": [...]} (times in ns) instead\n"
         "  --source            show each region's file:line and source text (JSON:\n"
         "                      \"source\": {\"file\", \"line\", \"text\"}, null when unknown)\n"
         "  -h, --help          show this help and exit\n"
         "\n"
         "Exit status: 0 on success, 1 when the file cannot be read, 2 on a usage error.\n";
}

std::string diff_help() {
  return cli_usage(CliCommand::diff) +
         "\n"
         "What got slower from run A to run B: per region, its calls, self time (each\n"
         "call less its direct children) and total time in each run and the change,\n"
         "largest growth of self time first. A run written one file per process\n"
         "is named by its files: diff A_rank*.h5 vs B_rank*.h5 (each side one job's\n"
         "files; a file named vs is ./vs).\n"
         "\n"
         "options:\n"
         "  --ranks SPEC ...    MPI ranks to add up, e.g. 0-63, or all: every rank of each\n"
         "                      run (default 0; when a run has no rank 0, the ranks both\n"
         "                      runs have)\n"
         "  --include [RE ...]  keep only regions whose name matches one of these at\n"
         "                      its start (Python re.match)\n"
         "  --exclude [RE ...]  drop regions whose name matches one of these at its start\n"
         "  --json              print {\"regions\": [...]} (times in ns) instead\n"
         "  --max-regression PCT\n"
         "                      exit 3 when a region's time grew by more than PCT %\n"
         "                      (a region with none in A and some in B counts), and list them\n"
         "  --metric self|total the time --max-regression checks (default self)\n"
         "  --source            show each region's file:line and source text, B's (A's\n"
         "                      for a region only A has; JSON: \"source\": {\"file\",\n"
         "                      \"line\", \"text\"}, null when unknown)\n"
         "  -h, --help          show this help and exit\n"
         "\n"
         "Exit status: 0 on success, 3 when a region grew past --max-regression,\n"
         "1 when a file cannot be read, 2 on a usage error.\n";
}

std::string export_help() {
  return cli_usage() +
         "\n"
         "Convert scope-profiler HDF5 files to speedscope JSON (one document per file),\n"
         "byte for byte what `scope-profiler export speedscope` writes.\n"
         "\n"
         "positional arguments:\n"
         "  FILE...             scope-profiler HDF5 files (schema 1, 2, 3 or aggregate)\n"
         "\n"
         "options:\n"
         "  -o, --output DIR    write DIR/profile.speedscope.json; with several FILEs,\n"
         "                      DIR/profile_<label>.speedscope.json for each\n"
         "  --filepath PATH     write to PATH instead (named as export_speedscope names\n"
         "                      its filepath argument); not with -o\n"
         "  --ranks SPEC ...    MPI ranks to export, e.g. 0,2-3 (sorted, de-duplicated;\n"
         "                      default 0; no value exports none), or all: every rank\n"
         "                      of each file\n"
         "  --include [RE ...]  keep only regions whose name matches one of these regular\n"
         "                      expressions at its start (Python re.match)\n"
         "  --exclude [RE ...]  drop regions whose name matches one of these at its start\n"
         "  --min-duration D    drop every call shorter than D: seconds (1e-4, 0.5) or a\n"
         "                      number with a unit (500ns, 100us, 2ms, 1s)\n"
         "  --time-window START:END\n"
         "                      keep the calls that overlap [START, END), seconds from the\n"
         "                      run's first call (2:5, 0.5:, :10, 100ms:250ms), cut at\n"
         "                      the window's edges\n"
         "  --label L ...       use these labels for the FILEs, in order, instead of the\n"
         "                      run's label or file name\n"
         "  --source-locations  give each frame its region's \"file\" and \"line\" (where\n"
         "                      the file records them; the lowest rank's), which\n"
         "                      scope-profiler's export leaves out\n"
         "  -q, --quiet         print nothing on success\n"
         "  -h, --help          show this help and exit\n"
         "  --version           print the version and exit\n"
         "\n"
         "Exit status: 0 on success, 1 when the export fails (nothing is written),\n"
         "2 on a usage error.\n"
         "\n"
         "commands (scope-speedscope COMMAND --help):\n"
         "  imbalance FILE... [options]\n"
         "                          which rank the others wait for, per region\n"
         "  diff A B [options]      what got slower from run A to run B, per region\n"
         "  diff A... vs B...       the same, each run one job's per-process files\n"
         "  serve [FILE... [vs FILE...]] [options]\n"
         "                          serve the page; with files (native CLI), their\n"
         "                          runs in the native engine behind it\n"
         "commands of the npm package's CLI (npx scope-speedscope COMMAND --help):\n"
         "  view FILE... [options]  convert, then show the flame chart in the browser\n";
}

}  // namespace

std::string cli_help(CliCommand command) {
  switch (command) {
    case CliCommand::view: return view_help();
    case CliCommand::serve: return serve_help();
    case CliCommand::imbalance: return imbalance_help();
    case CliCommand::diff: return diff_help();
    case CliCommand::export_files: break;
  }
  return export_help();
}

ImbalanceReportOptions imbalance_report_options(const CliOptions& o) {
  ImbalanceReportOptions report;
  if (!o.all_ranks) report.ranks = o.ranks;
  report.include = o.include;
  report.exclude = o.exclude;
  report.narrowing = o.narrowing;
  report.json = o.json;
  report.source = o.source;
  return report;
}

DiffReportOptions diff_report_options(const CliOptions& o) {
  DiffReportOptions report;
  if (o.ranks_given) report.selection.ranks = o.ranks;  // else rank 0 or the ranks both have
  report.selection.all_ranks = o.all_ranks;
  report.selection.include = o.include;
  report.selection.exclude = o.exclude;
  report.json = o.json;
  report.max_regression_pct = o.max_regression_pct;
  report.metric = o.metric;
  report.source = o.source;
  return report;
}

std::string cli_summary(const std::vector<std::string>& written) {
  if (written.empty()) return "";
  std::string out = "Outputs saved to:\n";
  for (const std::string& path : written) out += "  " + path + "\n";
  out +=
      "\nView " + written.front() + " at https://www.speedscope.app (or: npx speedscope <file>)\n";
  return out;
}

}  // namespace scope_speedscope
