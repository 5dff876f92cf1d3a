// The native command-line tool: a thin shell over the core.
#include <glob.h>
#include <sys/stat.h>

#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "cli/options.hpp"
#include "cli/serve.hpp"
#include "export/export.hpp"
#include "export/imbalance_report.hpp"
#include "read/h5_reader.hpp"
#include "select/job.hpp"
#include "text/messages.hpp"
#include "write/speedscope_format.hpp"

namespace ss = scope_speedscope;

namespace {

// Patterns the shell did not expand (quoted, or from a script): sorted
// matches, each file once, in the order first met.
std::vector<std::string> expand_globs(const std::vector<std::string>& args) {
  std::vector<std::string> files;
  auto add = [&](const std::string& f) {
    for (const auto& seen : files) {
      if (seen == f) return;
    }
    files.push_back(f);
  };
  for (const std::string& arg : args) {
    struct stat st;
    if (arg.find_first_of("*?[") == std::string::npos || ::stat(arg.c_str(), &st) == 0) {
      add(arg);
      continue;
    }
    glob_t g{};
    if (::glob(arg.c_str(), 0, nullptr, &g) == 0 && g.gl_pathc > 0) {
      for (std::size_t i = 0; i < g.gl_pathc; ++i) add(g.gl_pathv[i]);
    } else {
      add(arg);
    }
    ::globfree(&g);
  }
  return files;
}

// Runs fn, printing a failure as the export does: exit status 1.
template <class Fn>
int reporting_errors(Fn&& fn) {
  try {
    fn();
    return 0;
  } catch (const ss::Error& e) {
    std::cerr << "error: " << e.what() << '\n';
  } catch (const std::bad_alloc&) {
    std::cerr << "error: out of memory\n";
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
  }
  return 1;
}

// Reads a file, its sources too when `sources`; says each of the read's
// warnings on standard error ("warning: ...").
ss::Run read_file(const std::string& path, bool sources) {
  ss::ReadPlan plan;
  plan.sources = sources;
  ss::Run run = ss::read_run(path, {}, {}, plan);
  for (const std::string& warning : run.warnings) std::cerr << "warning: " << warning << '\n';
  return run;
}

// Reads a job's files (one file: that run) as one run (select/job.hpp).
ss::Run read_files(const std::vector<std::string>& paths, bool sources) {
  ss::ReadPlan plan;
  plan.sources = sources;
  return ss::read_job(
      paths.size(),
      [&](std::size_t i, const ss::ReadPlan& p) {
        ss::Run run = ss::read_run(paths[i], {}, {}, p);
        for (const std::string& warning : run.warnings) std::cerr << "warning: " << warning << '\n';
        run.warnings.clear();
        return run;
      },
      plan);
}

}  // namespace

int main(int argc, char** argv) {
  // Natively a file may take the machine's memory, not the wasm builds' 2 GiB.
  ss::set_memory_per_file(ss::machine_memory());
  // and a compressed column's chunks are decoded on every core.
  ss::set_decode_threads(ss::machine_threads());
  std::vector<std::string> args(argv + 1, argv + argc);
  const ss::CliCommand command = ss::cli_command(args);
  if (command == ss::CliCommand::view) {
    // view converts, then serves the page: the Node CLI of the npm package has it.
    const std::string name = ss::cli_command_name(command);
    std::cerr << ss::cli_usage(command) << "error: " << name
              << " is a command of the npm package's CLI: run npx scope-speedscope " << name
              << " (a file named " << name << " is ./" << name << ")\n";
    return 2;
  }
  ss::CliOptions options;
  try {
    options = ss::parse_cli(args);
  } catch (const ss::Error& e) {
    std::cerr << ss::cli_usage(command) << "error: " << e.what() << '\n';
    return 2;
  }
  if (options.help) {
    std::cout << ss::cli_help(command);
    return 0;
  }
  if (options.version) {
    std::cout << "scope-speedscope " << ss::VERSION << '\n';
    return 0;
  }
  if (command == ss::CliCommand::serve) {
    ss::serve::ServeOptions serve;
    serve.runs = options.files;
    if (options.vs) serve.vs_at = options.diff_a_files;
    serve.port = options.port;
    serve.host = options.host;
    serve.web_dir = options.web_dir;
    return ss::serve::serve_command(serve);
  }
  if (command == ss::CliCommand::imbalance) {
    return reporting_errors([&] {
      std::cout << ss::imbalance_report(read_files(expand_globs(options.files), options.source),
                                        ss::imbalance_report_options(options));
    });
  }
  if (command == ss::CliCommand::diff) {
    bool regressed = false;
    const int status = reporting_errors([&] {
      const auto split = options.files.begin() + static_cast<std::ptrdiff_t>(options.diff_a_files);
      const ss::DiffReport report =
          ss::diff_report(read_files(expand_globs({options.files.begin(), split}), options.source),
                          read_files(expand_globs({split, options.files.end()}), options.source),
                          ss::diff_report_options(options));
      std::cout << report.text;
      regressed = report.regressed;
    });
    return status == 0 && regressed ? ss::kDiffRegressed : status;
  }
  return reporting_errors([&] {
    const std::vector<std::string> files = expand_globs(options.files);
    std::vector<ss::Run> runs;
    runs.reserve(files.size());
    for (std::size_t i = 0; i < files.size(); ++i) {
      runs.push_back(read_file(files[i], options.source_locations));
      if (i < options.labels.size()) runs.back().label = options.labels[i];
    }
    ss::ExportOptions export_options;
    export_options.ranks = options.ranks;
    export_options.every_rank = options.all_ranks;
    export_options.include = options.include;
    export_options.exclude = options.exclude;
    export_options.narrowing = options.narrowing;
    export_options.source_locations = options.source_locations;
    export_options.verbose = false;
    const auto written = ss::export_speedscope(runs, options.filepath, export_options);
    if (!options.quiet) std::cout << ss::cli_summary(written);
  });
}
