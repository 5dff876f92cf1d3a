// wasm: the engine's entry point (engine/engine.hpp): one request's JSON in,
// its answer's bytes out. The module holds one engine; a trapped module is
// replaced whole, and the engine with it.
#include <optional>

#include "engine/engine.hpp"
#include "entries.hpp"
#include "js_io.hpp"
#include "options_in.hpp"

namespace scope_speedscope::wasm {

// The module's one engine, which the page's worker and the Node CLI's
// server (serve_dispatch) both ask.
ss::Engine& module_engine() {
  static ss::Engine engine;
  return engine;
}

// Reopening the same file, the ranks are read about this many calls at a
// time (EngineIo::group_calls): a group's run, 128 MiB at 16 bytes a call,
// beside the timeline's columns, instead of the file's two 64-bit columns
// (the module's memory never shrinks: the open's peak is held for good).
constexpr uint64_t kGroupCalls = uint64_t{1} << 23;

val dispatch_with(const std::string& request, ss::EngineIo io, val sink) {
  io.progress = progress_of(sink);
  io.group_calls = kGroupCalls;
  std::optional<JsOutputTarget> target;
  if (!absent(sink) && !sink["open"].isUndefined()) {
    target.emplace(sink);
    io.output = &*target;
  }
  const std::vector<uint8_t> answer = module_engine().dispatch(request, io);
  val bytes = val::global("Uint8Array").new_(answer.size());
  bytes.call<void>("set", val(emscripten::typed_memory_view(answer.size(), answer.data())));
  return bytes;
}

// inputs: {file, fileA, fileB} as prepared for read_input (those the request
// reads); sink: {progress} and, for timeline-export, an output sink (open,
// write, close, commit, abort). Returns a fresh Uint8Array.
val engine_dispatch(std::string request, val inputs, val sink) {
  ss::EngineIo io;
  io.read = [&inputs](const std::string& which, const ss::Progress& progress,
                      const ss::ReadPlan& plan) {
    const val input = absent(inputs) ? val::undefined() : inputs[which];
    if (absent(input)) {
      throw ss::Error(
          ss::Msg::internal,
          {{"detail", "scope-speedscope: the request needs its input '" + which + "'"}});
    }
    return read_input(input, progress, plan);
  };
  return dispatch_with(request, std::move(io), sink);
}

int engine_protocol() { return ss::kEngineProtocol; }

}  // namespace scope_speedscope::wasm
