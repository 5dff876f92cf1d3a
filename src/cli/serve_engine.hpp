// serve's engine: the core's dispatcher (engine/engine.hpp) over the files
// named on the command line, shared by every client of the server. It
// says how a request's inputs are read (only the named files, by their
// place: cli/serve_runs.hpp; no request field names a path) and where a download goes (a private
// temporary file, streamed to the client, then removed). No HTTP type here: cli/serve.cpp moves its
// bytes.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
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
  ~EngineHost();  // stops the opening ahead (open_ahead) and waits for it

  // Reads every file's index, groups them as the page groups picked files
  // and checks each job (plan_served); throws the reader's or the job's
  // Error naming the files.
  void check_runs();

  // After check_runs, on a thread of its own: opens what a page of the
  // served run asks first (first_opens: its default rank, answered at once
  // when it comes) and then every rank, in an engine of its own, so that
  // All ranks of a big job is ready when the page asks (the pages' other
  // requests are answered meanwhile; reads wait for one another:
  // h5_reader.cpp). `opened` is told when every rank is open, with the
  // calls and the seconds it took (from another thread). A page's All ranks
  // waits for it and then takes it over (never a second copy); an open of
  // every rank with other options (or a comparison) stops it and drops it
  // first. Nothing for a comparison.
  void open_ahead(std::function<void(uint64_t calls, double seconds)> opened = {});

  // A request's watch: a client that names its request (an id of 1 to 64
  // hex digits) may ask its progress while it waits (progress) and cancel
  // it (cancel). Once asked for progress, a request whose client stops
  // asking for `lease` (a closed tab) is cancelled as well. A cancelled
  // request stops at its next progress (or before it starts) and is
  // answered {"type": "cancelled"}.
  static bool watch_id_ok(const std::string& id);
  // {"phase", "done", "total"} of the request's latest progress ({} before
  // any), or null when no such request is waiting or running.
  nlohmann::json progress(const std::string& id);
  bool cancel(const std::string& id);  // false: no such request
  // Cancels every request, waiting or running, and the open ahead (the
  // server is stopping).
  void stop();
  void set_lease(std::chrono::milliseconds lease) { lease_ = lease; }
  // Called with a named request's id once it is watched, before it waits
  // for the engine (tests ask its progress or cancel it there).
  std::function<void(const std::string& id)> on_watched;

  // One request, answered when the engine is free (one at a time). Its
  // inputs are the served files served_file names (its "served" field, or
  // by position). An open asked again with the same options and inputs
  // (another tab of the same run) gets the open timeline's answer again:
  // the run is held once.
  // (`ahead`: the open ahead's own first view, skipped once a client asked.)
  Answer ask(std::string_view request, const std::string& watch_id = {}, bool ahead = false);

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
  // The engine's io for request `r` (its inputs the served files it names).
  EngineIo io_for(const nlohmann::json& r) const;
  // Before an open with key `key`: takes over the every-rank open made ahead
  // when it is the one asked (waiting for it), or drops it when `r` opens
  // every rank otherwise.
  void meet_ahead(const std::string& key, const nlohmann::json& r);

  struct Watch {
    std::atomic<bool> cancelled{false};
    std::atomic<int64_t> polled_ms{-1};  // the latest progress asked (steady clock), -1: never
    std::mutex m;
    nlohmann::json progress = nlohmann::json::object();
  };
  std::shared_ptr<Watch> watch(const std::string& id);
  bool expired(const Watch& w) const;

  std::mutex watches_m_;
  std::vector<std::pair<std::string, std::shared_ptr<Watch>>> watches_;
  std::atomic<bool> stopping_{false};
  std::chrono::milliseconds lease_{10000};
  std::mutex mutex_;
  bool asked_ = false;  // a client has asked something
  // The open ahead read every rank of the run without error.
  std::atomic<bool> ranks_checked_{false};
  std::unique_ptr<Engine> engine_;
  struct Ahead {
    std::thread thread;
    std::mutex m;
    std::condition_variable cv;
    std::string key;  // the every-rank open's key ("" when none, taken or dropped)
    bool done = false;
    std::atomic<bool> stop{false};
    std::unique_ptr<Engine> engine;
    std::vector<uint8_t> answer;
    bool ok = false;
  } ahead_;
  std::string open_key_;              // the open timeline's request ("" when none)
  std::vector<uint8_t> open_answer_;  // and its answer
  std::vector<std::pair<std::string, std::shared_ptr<Download>>> downloads_;
};

}  // namespace scope_speedscope::serve
