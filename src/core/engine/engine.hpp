// engine: the one dispatcher of the page's protocol (docs/engine-protocol.md).
// A request is JSON text; its answer is bytes in the wire format
// (engine/wire.hpp). The wasm engine (the page's worker, the Node CLI's
// serve) and the native one (scope-speedscope serve) are shells around this
// class: they say how a named input is read and where a download goes, and
// move bytes. Every answer is the core's; no shell adds a rule.
//
// One run (or one comparison of two) is open at a time; opening another
// closes it. Requests of a closed or replaced timeline are refused.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "export/export.hpp"
#include "model/run.hpp"
#include "read/h5_reader.hpp"

namespace scope_speedscope {

// The protocol's version (docs/engine-protocol.md, "Version").
inline constexpr int kEngineProtocol = 2;

// What a shell lends one request.
struct EngineIo {
  // Reads the request's input `which` ("file"; "fileA" and "fileB" of a
  // comparison) as `plan` says; throws the reader's errors.
  std::function<Run(const std::string& which, const Progress& progress, const ReadPlan& plan)> read;
  Progress progress;               // a long request's progress (may be empty)
  OutputTarget* output = nullptr;  // where timeline-export writes
  // Every rank of the inputs has been read without error already (serve's
  // open ahead): an export of some ranks need not read the others to check
  // them.
  bool ranks_checked = false;
  // An open of the same file as the open timeline (timeline-open's
  // options.sameFileAs) reads its ranks about this many calls at a time,
  // each group laid out before the next is read (0: every selected rank in
  // one read). The wasm engine's: its memory is the open's peak for good.
  uint64_t group_calls = 0;
  // How many calls a slice of an overview bins when a request says
  // `slices: true` (timeline-overview): at most about 40 ms in the wasm engine;
  // the native serve's slices are larger (its round trips cost too).
  uint64_t overview_slice_calls = 1'200'000;
};

class Engine {
 public:
  // first_id: the id of the first timeline it opens (the next ones count
  // on): two engines of one server give no timeline the same id.
  explicit Engine(int first_id = 1);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // The answer to one request: {"type": "result", ...} or {"type":
  // "error", kind, code, message, wording, file, field, index} (or, for an
  // export the open timeline cannot write, {"type": "refused", message}).
  // Never throws: a request that is not JSON, of an unknown type or with a
  // bad field is answered with an error naming it; out of memory too.
  std::vector<uint8_t> dispatch(std::string_view request, const EngineIo& io);

  // Bytes the open run's columns hold (0 when none is open).
  std::size_t memory_bytes() const;

  struct State;

 private:
  std::unique_ptr<State> state_;
};

}  // namespace scope_speedscope
