// wasm: the entry points of the Node CLI (imbalance, diff, parsing the
// arguments, help) and the core's constants and messages.
#include "cli/options.hpp"
#include "compare/diff_report.hpp"
#include "entries.hpp"
#include "export/imbalance_report.hpp"
#include "handles.hpp"
#include "js_io.hpp"
#include "options_in.hpp"
#include "select/job.hpp"
#include "text/pattern.hpp"
#include "values_out.hpp"
#include "write/speedscope_writer.hpp"

namespace scope_speedscope::wasm {

// The run read for a report: the inputs[first, last) as one job's files
// (select/job.hpp; one input: that file), their sources too with --source;
// each read's warnings handed to `warn`.
ss::Run report_input(const val& inputs, std::size_t first, std::size_t last,
                     const ss::CliOptions& o, const val& warn) {
  ss::ReadPlan plan;
  plan.sources = o.source;
  return ss::read_job(
      last - first,
      [&](std::size_t i, const ss::ReadPlan& p) {
        ss::Run run = read_input(inputs[first + i], ss::Progress(), p);
        warn_each(warn, run);
        run.warnings.clear();
        return run;
      },
      plan);
}

// The imbalance command of the Node CLI: args as given (after the command
// name too), its FILEs as inputs (one job's); the report the native CLI
// prints.
val cli_imbalance(val inputs, val args, val warn) {
  return guarded([&] {
    const ss::CliOptions o = ss::parse_cli(strings_of(args));
    const auto n = inputs["length"].as<std::size_t>();
    return val(
        ss::imbalance_report(report_input(inputs, 0, n, o, warn), ss::imbalance_report_options(o)));
  });
}

// The diff command of the Node CLI: args as given, its files as inputs (A's
// then B's, as the arguments split them: `A B` or `A... vs B...`);
// {text, regressed}.
val cli_diff(val inputs, val args, val warn) {
  return guarded([&] {
    const ss::CliOptions o = ss::parse_cli(strings_of(args));
    const auto n = inputs["length"].as<std::size_t>();
    const ss::Run run_a = report_input(inputs, 0, o.diff_a_files, o, warn);
    const ss::Run run_b = report_input(inputs, o.diff_a_files, n, o, warn);
    const ss::DiffReport report = ss::diff_report(run_a, run_b, ss::diff_report_options(o));
    val out = val::object();
    out.set("text", report.text);
    out.set("regressed", report.regressed);
    return out;
  });
}

val parse_cli(val args) {
  return guarded([&] {
    const ss::CliOptions o = ss::parse_cli(strings_of(args));
    val out = val::object();
    out.set("files", array_of(o.files));
    out.set("filepath", o.filepath);
    val ranks = val::array();
    for (std::size_t i = 0; i < o.ranks.size(); ++i) ranks.set(i, static_cast<double>(o.ranks[i]));
    out.set("ranks", o.all_ranks ? val("all") : ranks);  // --ranks all
    out.set("include", o.include ? array_of(*o.include) : val::null());
    out.set("exclude", o.exclude ? array_of(*o.exclude) : val::null());
    out.set("labels", array_of(o.labels));
    out.set("minDuration", o.min_duration ? val(*o.min_duration) : val::null());
    out.set("timeWindow", o.time_window ? val(*o.time_window) : val::null());
    out.set("sourceLocations", o.source_locations);
    out.set("source", o.source);
    out.set("quiet", o.quiet);
    out.set("help", o.help);
    out.set("version", o.version);
    out.set("command", std::string(ss::cli_command_name(o.command)));
    out.set("writeOutputs", o.write_outputs);
    out.set("port", o.port ? val(*o.port) : val::null());
    out.set("open", o.open);
    out.set("host", o.host);
    out.set("webDir", o.web_dir);
    out.set("vs", o.vs);
    out.set("aFiles", static_cast<double>(o.diff_a_files));
    return out;
  });
}

// A command's name ("export", "view", ...) as the first argument names it.
ss::CliCommand command_named(const std::string& name) { return ss::cli_command({name}); }
std::string cli_command(val args) {
  return ss::cli_command_name(ss::cli_command(strings_of(args)));
}
std::string cli_help(std::string command) { return ss::cli_help(command_named(command)); }
std::string cli_usage(std::string command) { return ss::cli_usage(command_named(command)); }

// null when the pattern compiles, else the message an export would fail with.
val check_pattern(std::string pattern) {
  try {
    const auto error = ss::check_pattern(pattern);
    return error ? val(*error) : val::null();
  } catch (const std::exception& e) {  // out of memory while compiling
    return val(std::string(e.what()));
  }
}

std::string cli_summary(val written) { return ss::cli_summary(strings_of(written)); }
// A message of the table by its code, as a failure value (for errors the
// wrapper itself finds, e.g. no memory for an input's bytes).
val error_for(std::string code, val args) {
  ss::Msg id;
  if (!ss::message_of_code(code, id)) id = ss::Msg::internal;
  ss::MessageArgs list;
  if (!absent(args)) {
    const val entries = val::global("Object").call<val>("entries", args);
    const unsigned n = entries["length"].as<unsigned>();
    for (unsigned i = 0; i < n; ++i) {
      list.emplace_back(entries[i][0].as<std::string>(),
                        entries[i][1].call<std::string>("toString"));
    }
  }
  if (id == ss::Msg::internal && list.empty()) list.emplace_back("detail", code);
  ss::Error e(id, list);
  if (!absent(args) && !args["file"].isUndefined())
    e.in_file(args["file"].call<std::string>("toString"));
  return failure(e);
}

std::string file_not_found_message(std::string path) {
  return ss::message_text(ss::Msg::file_not_found, {{"path", path}});
}
std::string version() { return ss::VERSION; }
std::string schema_url() { return ss::SCHEMA_URL; }
std::string time_unit() { return ss::TIME_UNIT; }
double ns_per_second() { return static_cast<double>(ss::NS_PER_SECOND); }

}  // namespace scope_speedscope::wasm
