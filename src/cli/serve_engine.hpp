// serve's engine: the core's dispatcher (engine/engine.hpp) over the files
// named on the command line, shared by every client of the server. It
// says how a request's inputs are read (only the named files, by their
// place: cli/serve_runs.hpp; no request field names a path) and where a download goes (a private
// temporary file, streamed to the client, then removed). No HTTP type here: cli/serve.cpp moves its
// bytes.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/serve_runs.hpp"
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
  // files: as given on the command line; vs_at: how many come before `vs`
  // (nullopt: no vs). Until check_runs, the files are grouped as the
  // arguments say (cli/serve_runs.hpp: two files compared, OTHER against
  // RUN; `vs` splits A's from B's; else one run).
  explicit EngineHost(std::vector<std::string> files,
                      std::optional<std::size_t> vs_at = std::nullopt);

  // Reads every file's index, groups them as the page groups picked files
  // and checks each job (plan_served); throws the reader's or the job's
  // Error naming the files.
  void check_runs();

  // One request, answered when the engine is free (one at a time). Its
  // inputs are the served files served_file names (its "served" field, or
  // by position). An open asked again with the same options and inputs
  // (another tab of the same run) gets the open timeline's answer again:
  // the run is held once.
  Answer ask(std::string_view request);

  // The download of the latest answer that wrote some, once (null: no
  // such id, or taken already). A newer answer's downloads replace them.
  std::shared_ptr<Download> take_download(const std::string& id);

  const std::vector<std::string>& runs() const { return runs_; }
  // The files' runs, their inspect infos (after check_runs) and their names.
  const ServedRuns& served() const { return served_; }

 private:
  std::vector<std::string> runs_;
  std::optional<std::size_t> vs_at_;
  ServedRuns served_;
  std::mutex mutex_;
  Engine engine_;
  std::string open_key_;              // the open timeline's request ("" when none)
  std::vector<uint8_t> open_answer_;  // and its answer
  std::vector<std::pair<std::string, std::shared_ptr<Download>>> downloads_;
};

}  // namespace scope_speedscope::serve
