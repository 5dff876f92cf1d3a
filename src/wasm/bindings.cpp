// The WebAssembly face of the core (embind): the table of the entry points
// JavaScript calls (src/js/api.js wraps them). What each does, and where
// Emscripten types are kept, is in entries.hpp.
#include <emscripten/bind.h>

#include "entries.hpp"

namespace wasm = scope_speedscope::wasm;

EMSCRIPTEN_BINDINGS(scope_speedscope) {
  emscripten::function("inspect", &wasm::inspect);
  emscripten::function("exportSpeedscope", &wasm::export_speedscope);
  emscripten::function("exportFiles", &wasm::export_files);
  emscripten::function("overview", &wasm::overview);
  emscripten::function("suggestNarrowing", &wasm::suggest_narrowing);
  emscripten::function("openTimeline", &wasm::open_timeline);
  emscripten::function("timelineBars", &wasm::timeline_bars);
  emscripten::function("timelineStackAt", &wasm::timeline_stack_at);
  emscripten::function("timelineRegions", &wasm::timeline_regions);
  emscripten::function("timelineBusy", &wasm::timeline_busy);
  emscripten::function("timelineBandFrames", &wasm::timeline_band_frames);
  emscripten::function("timelineBandDepth", &wasm::timeline_band_depth);
  emscripten::function("timelineExportSpeedscope", &wasm::timeline_export_speedscope);
  emscripten::function("timelineOverview", &wasm::timeline_overview);
  emscripten::function("timelineWindowWithin", &wasm::timeline_window_within);
  emscripten::function("timelineImbalance", &wasm::timeline_imbalance);
  emscripten::function("timelineAlignedCalls", &wasm::timeline_aligned_calls);
  emscripten::function("timelineAlignedGrid", &wasm::timeline_aligned_grid);
  emscripten::function("timelineLateness", &wasm::timeline_lateness);
  emscripten::function("timelineClose", &wasm::timeline_close);
  emscripten::function("engineDispatch", &wasm::engine_dispatch);
  emscripten::function("engineProtocol", &wasm::engine_protocol);
  emscripten::function("serveCheck", &wasm::serve_check);
  emscripten::function("serveWebPath", &wasm::serve_web_path);
  emscripten::function("serveNewToken", &wasm::serve_new_token);
  emscripten::function("serveMaxRequestBytes", &wasm::serve_max_request_bytes);
  emscripten::function("servePlan", &wasm::serve_plan);
  emscripten::function("serveDispatch", &wasm::serve_dispatch);
  emscripten::function("serveOpenKey", &wasm::serve_open_key);
  emscripten::function("cliImbalance", &wasm::cli_imbalance);
  emscripten::function("cliDiff", &wasm::cli_diff);
  emscripten::function("compareOpen", &wasm::compare_open);
  emscripten::function("compareAligned", &wasm::compare_aligned);
  emscripten::function("compareRegionsIn", &wasm::compare_regions_in);
  emscripten::function("compareClose", &wasm::compare_close);
  emscripten::function("parseCli", &wasm::parse_cli);
  emscripten::function("cliCommand", &wasm::cli_command);
  emscripten::function("cliHelp", &wasm::cli_help);
  emscripten::function("cliUsage", &wasm::cli_usage);
  emscripten::function("cliSummary", &wasm::cli_summary);
  emscripten::function("fileNotFoundMessage", &wasm::file_not_found_message);
  emscripten::function("checkPattern", &wasm::check_pattern);
  emscripten::function("errorFor", &wasm::error_for);
  emscripten::function("version", &wasm::version);
  emscripten::function("schemaUrl", &wasm::schema_url);
  emscripten::function("timeUnit", &wasm::time_unit);
  emscripten::function("nsPerSecond", &wasm::ns_per_second);
}
