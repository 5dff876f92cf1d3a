// serve's engine: the core's dispatcher (engine/engine.hpp) over the runs
// named on the command line, shared by every client of the server. It
// says how a request's inputs are read (only the named runs: no request
// field names a file) and where a download goes (a private temporary file,
// streamed to the client, then removed). No HTTP type here: cli/serve.cpp
// moves its bytes.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/engine.hpp"

namespace scope_speedscope::serve {

// A written download: its file (removed when the last owner lets go), the
// name the export gave it, its size and the calls it holds.
struct Download {
  std::string path;
  std::string name;
  uint64_t size = 0;
  uint64_t calls = 0;
  Download() = default;
  Download(const Download&) = delete;
  Download& operator=(const Download&) = delete;
  ~Download();
};

struct Answer {
  std::vector<uint8_t> bytes;  // the wire answer (engine/wire.hpp)
  std::string type;            // its header's type: result, error, refused
  bool bad_request = false;    // an error naming the request's problem
  // The documents a convert or timeline-export wrote, each under a new id
  // (take_download gives it once).
  std::vector<std::pair<std::string, std::shared_ptr<Download>>> downloads;
};

class EngineHost {
 public:
  // runs: RUN.h5 [OTHER.h5], as given. With two, OTHER is compared against
  // RUN: "fileA" is RUN, "fileB" OTHER; "file" is RUN.
  explicit EngineHost(std::vector<std::string> runs);

  // Checks that every run can be opened (its index: schema, tables, ranks);
  // throws the reader's Error naming the file.
  void check_runs() const;

  // One request, answered when the engine is free (one at a time). An open
  // asked again with the same options (another tab of the same run) gets
  // the open timeline's answer again: the run is held once.
  Answer ask(std::string_view request);

  // The download of the latest answer that wrote some, once (null: no
  // such id, or taken already). A newer answer's downloads replace them.
  std::shared_ptr<Download> take_download(const std::string& id);

  const std::vector<std::string>& runs() const { return runs_; }

 private:
  std::vector<std::string> runs_;
  std::mutex mutex_;
  Engine engine_;
  std::string open_key_;              // the open timeline's request ("" when none)
  std::vector<uint8_t> open_answer_;  // and its answer
  std::vector<std::pair<std::string, std::shared_ptr<Download>>> downloads_;
};

}  // namespace scope_speedscope::serve
