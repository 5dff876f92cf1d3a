// wasm: the entry points the EMSCRIPTEN_BINDINGS table (bindings.cpp)
// gives JavaScript, each a function of plain values and emscripten::val
// that returns through guarded() (boundary.hpp). The files of src/wasm/:
//   boundary.hpp     errors become values (the one place)
//   js_io.hpp        inputs JavaScript reads, sinks it writes, output targets
//   options_in.hpp   JavaScript options as the core's values
//   values_out.hpp   the core's answers as JavaScript values
//   handles.hpp      open timelines and comparisons, by id
//   *_entries.cpp    the entry points, by subject
//   bindings.cpp     the table
// Emscripten types stay in src/wasm/.
#pragma once

#include <string>

#include "boundary.hpp"
#include "cli/options.hpp"
#include "engine/engine.hpp"

namespace scope_speedscope::wasm {

// files (file_entries.cpp)
val inspect(val input);
val overview(val input, val options);
val suggest_narrowing(val overview, double max_events);
val export_speedscope(val inputs, val options, val sink);
val export_files(val inputs, val options, val sink);

// an open timeline (timeline_entries.cpp)
val open_timeline(val input, val options, val sink);
val timeline_bars(int id, double lane, double start, double end, double width);
val timeline_stack_at(int id, double lane, double time);
val timeline_regions(int id, double start, double end, val lanes);
val timeline_window_within(int id, double start, double end, double max_calls);
val timeline_imbalance(int id, double start, double end);
val timeline_aligned_calls(int id, double frame, double start, double end);
val timeline_aligned_grid(int id, double frame, double start, double end, double max_columns);
val timeline_lateness(int id, double frame, double start, double end);
val timeline_busy(int id, val lanes, double start, double end, double width);
val timeline_band_frames(int id, val lanes, double depth, double start, double end, double width);
val timeline_band_depth(int id, val lanes);
val timeline_overview(int id, val options);
val timeline_export_speedscope(int id, val options, val sink, val input);
bool timeline_close(int id);

// two runs compared (compare_entries.cpp)
val compare_open(int a, int b);
val compare_aligned(int id, double lane, double start, double end, double width);
val compare_regions_in(int id, double start, double end);
bool compare_close(int id);

// the page's protocol, answered by the core's engine (engine_entries.cpp)
val engine_dispatch(std::string request, val inputs, val sink);
int engine_protocol();
// The answer's bytes to `request` with these inputs read, progress told
// and downloads written to `sink` (the engine's own, module_engine()).
val dispatch_with(const std::string& request, ss::EngineIo io, val sink);

// serve's guards for the Node CLI's server (serve_entries.cpp)
val serve_check(val head, std::string listen_host, std::string token);
val serve_web_path(std::string target);
std::string serve_new_token();
double serve_max_request_bytes();
val serve_plan(val files, double vs_at);
val serve_dispatch(std::string request, val files, double a_files, bool compare, val sink);
std::string serve_open_key(std::string request);

// the Node CLI, constants and messages (cli_entries.cpp)
val cli_imbalance(val inputs, val args, val warn);
val cli_diff(val inputs, val args, val warn);
val parse_cli(val args);
std::string cli_command(val args);
std::string cli_help(std::string command);
std::string cli_usage(std::string command);
val check_pattern(std::string pattern);
std::string cli_summary(val written);
val error_for(std::string code, val args);
std::string file_not_found_message(std::string path);
std::string version();
std::string schema_url();
std::string time_unit();
double ns_per_second();

}  // namespace scope_speedscope::wasm
