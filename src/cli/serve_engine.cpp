#include "cli/serve_engine.hpp"

#include "cli/serve_guard.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <utility>

#include "engine/wire.hpp"
#include "export/export.hpp"
#include "read/h5_reader.hpp"
#include "text/messages.hpp"
#include "write/speedscope_writer.hpp"

namespace scope_speedscope::serve {

namespace {

using nlohmann::json;

std::string base_name(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Downloads go to private temporary files (mode 0600), whatever paths the
// export names: no request field reaches the file system.
class TempFileTarget final : public OutputTarget, private Sink {
 public:
  ~TempFileTarget() override { abort(); }

  Sink& open(const std::string& path) override {
    const char* dir = std::getenv("TMPDIR");
    std::string pattern = std::string(dir && *dir ? dir : "/tmp") + "/scope-speedscope-XXXXXX";
    fd_ = ::mkstemp(pattern.data());
    if (fd_ < 0) {
      throw std::runtime_error("serve: cannot create a temporary file for the download: " +
                               std::string(std::strerror(errno)));
    }
    auto d = std::make_shared<Download>();
    d->path = pattern;
    d->name = base_name(path);
    written_.push_back(std::move(d));
    return *this;
  }
  void close() override {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  void commit() override { committed_ = true; }
  void abort() noexcept override {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    if (!committed_) written_.clear();  // their files go with them
  }
  // The write phase's progress counts two events a call of the open output.
  void written_events(uint64_t total) {
    if (!written_.empty()) written_.back()->calls = total / 2;
  }
  std::vector<std::shared_ptr<Download>> take() {
    return committed_ ? std::move(written_) : std::vector<std::shared_ptr<Download>>{};
  }

 private:
  void write(const char* data, std::size_t size) override {
    while (size > 0) {
      const ssize_t n = ::write(fd_, data, size);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        throw std::runtime_error("serve: cannot write the download: " +
                                 std::string(std::strerror(errno)));
      }
      data += n;
      size -= static_cast<std::size_t>(n);
      written_.back()->size += static_cast<uint64_t>(n);
    }
  }

  int fd_ = -1;
  bool committed_ = false;
  std::vector<std::shared_ptr<Download>> written_;
};

}  // namespace

Download::~Download() {
  if (!path.empty()) ::unlink(path.c_str());
}

EngineHost::EngineHost(std::vector<std::string> files, std::optional<std::size_t> vs_at)
    : runs_(std::move(files)), vs_at_(vs_at), engine_(std::make_unique<Engine>()) {
  served_.layout = layout_of_arguments(runs_.size(), vs_at_);
}

EngineHost::~EngineHost() {
  ahead_.stop = true;
  if (ahead_.thread.joinable()) ahead_.thread.join();
}

// A native overview slice of 6 M calls takes about as long as the wasm
// engine's 1.2 M (bench/serve-page.mjs: a round trip a slice).
constexpr uint64_t kServedOverviewSliceCalls = 6'000'000;

EngineIo EngineHost::io_for(const json& r) const {
  EngineIo io;
  io.overview_slice_calls = kServedOverviewSliceCalls;
  io.read = [this, &r](const std::string& which, const Progress& progress, const ReadPlan& plan) {
    return read_run(runs_[served_file(served_.layout, r, which)], progress, {}, plan);
  };
  return io;
}

namespace {
// Thrown by the progress of the open ahead when it is stopped.
struct Stopped : std::exception {};
}  // namespace

void EngineHost::open_ahead(std::function<void(uint64_t, double)> opened) {
  const std::vector<json> opens = first_opens(served_);
  if (opens.empty()) return;
  if (opens.size() > 1) ahead_.key = open_key(opens[1]);
  ahead_.thread = std::thread([this, opens, opened = std::move(opened)] {
    const auto t0 = std::chrono::steady_clock::now();
    ask(opens[0].dump(), {}, true);  // the first view: kept as the open timeline's answer
    if (opens.size() < 2) return;
    // Ids far from the first engine's: a page never takes one timeline for another.
    auto engine = std::make_unique<Engine>(1 << 24);
    EngineIo io = io_for(opens[1]);
    io.progress = [this](std::string_view, uint64_t, uint64_t) {
      if (ahead_.stop) throw Stopped();
    };
    std::vector<uint8_t> answer;
    bool ok = false;
    uint64_t calls = 0;
    if (!ahead_.stop) {
      answer = engine->dispatch(opens[1].dump(), io);
      const json header = wire_header(answer);
      ok = header.value("type", "") == "result";
      if (ok) {
        for (const json& lane : header["lanes"]) calls += lane.value("calls", uint64_t{0});
      }
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    {
      std::lock_guard<std::mutex> lock(ahead_.m);
      ahead_.done = true;
      ahead_.ok = ok && !ahead_.stop;
      ranks_checked_ = ok;
      if (ahead_.ok) {
        ahead_.engine = std::move(engine);
        ahead_.answer = std::move(answer);
      }
    }
    ahead_.cv.notify_all();
    if (ok && opened) opened(calls, seconds);
  });
}

void EngineHost::meet_ahead(const std::string& key, const json& r) {
  std::unique_lock<std::mutex> lock(ahead_.m);
  if (ahead_.key.empty()) return;
  if (key == ahead_.key) {
    ahead_.cv.wait(lock, [this] { return ahead_.done; });
    if (ahead_.ok) {
      std::lock_guard<std::mutex> engine_lock(mutex_);
      engine_ = std::move(ahead_.engine);  // the first view's timeline goes
      open_key_ = key;
      open_answer_ = std::move(ahead_.answer);
    }
  } else if (opens_every_rank(r)) {
    ahead_.stop = true;
    ahead_.cv.wait(lock, [this] { return ahead_.done; });
  } else {
    return;
  }
  ahead_.key.clear();
  ahead_.engine.reset();
  ahead_.answer = {};
}

void EngineHost::check_runs() {
  served_ = plan_served(runs_, vs_at_, [this](std::size_t i) {
    return read_run(runs_[i], {}, {}, ReadPlan(ReadDepth::index));
  });
}

namespace {
int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
}  // namespace

bool EngineHost::watch_id_ok(const std::string& id) {
  return !id.empty() && id.size() <= 64 &&
         id.find_first_not_of("0123456789abcdef") == std::string::npos;
}

std::shared_ptr<EngineHost::Watch> EngineHost::watch(const std::string& id) {
  std::lock_guard<std::mutex> lock(watches_m_);
  for (auto& [key, w] : watches_) {
    if (key == id) return w;
  }
  return nullptr;
}

bool EngineHost::expired(const Watch& w) const {
  const int64_t polled = w.polled_ms;
  return w.cancelled || stopping_ || (polled >= 0 && now_ms() - polled > lease_.count());
}

json EngineHost::progress(const std::string& id) {
  const std::shared_ptr<Watch> w = watch(id);
  if (!w) return nullptr;
  w->polled_ms = now_ms();
  std::lock_guard<std::mutex> lock(w->m);
  return w->progress;
}

bool EngineHost::cancel(const std::string& id) {
  const std::shared_ptr<Watch> w = watch(id);
  if (w) w->cancelled = true;
  return w != nullptr;
}

void EngineHost::stop() {
  stopping_ = true;
  ahead_.stop = true;
}

Answer EngineHost::ask(std::string_view request, const std::string& watch_id, bool ahead) {
  // Watched from now on (the client may ask its progress while it waits).
  auto w = std::make_shared<Watch>();
  if (!watch_id.empty()) {
    std::lock_guard<std::mutex> lock(watches_m_);
    watches_.emplace_back(watch_id, w);
  }
  struct Unwatch {
    EngineHost& host;
    const Watch* w;
    ~Unwatch() {
      std::lock_guard<std::mutex> lock(host.watches_m_);
      auto& v = host.watches_;
      v.erase(
          std::remove_if(v.begin(), v.end(), [this](const auto& e) { return e.second.get() == w; }),
          v.end());
    }
  } unwatch{*this, w.get()};
  if (!watch_id.empty() && on_watched) on_watched(watch_id);
  Answer cancelled;
  cancelled.type = "cancelled";
  cancelled.bytes = WireAnswer().finish(
      {{"type", "cancelled"},
       {"message", "the request was cancelled (its page closed or gave it up)"}});

  const json r = json::parse(request, nullptr, false);
  const std::string key = r.is_discarded() ? std::string() : open_key(r);
  if (!key.empty()) meet_ahead(key, r);
  std::lock_guard<std::mutex> lock(mutex_);
  // The first view opened ahead never replaces what a client opened.
  if (ahead && asked_) return cancelled;
  asked_ = asked_ || !ahead;
  if (expired(*w)) return cancelled;
  Answer a;
  if (!key.empty() && key == open_key_) {
    a.bytes = open_answer_;
    a.type = "result";
    return a;
  }
  TempFileTarget target;
  EngineIo io = io_for(r);
  io.ranks_checked = ranks_checked_;
  io.progress = [&](std::string_view phase, uint64_t done, uint64_t total) {
    if (phase == "write") target.written_events(total);
    {
      std::lock_guard<std::mutex> progress_lock(w->m);
      w->progress = {{"phase", phase}, {"done", done}, {"total", total}};
    }
    if (expired(*w)) throw Stopped();
  };
  io.output = &target;
  a.bytes = engine_->dispatch(request, io);
  const json header = wire_header(a.bytes);
  a.type = header.value("type", "");
  Msg code = Msg::internal;
  a.bad_request = a.type == "error" && message_of_code(header.value("code", ""), code) &&
                  code == Msg::bad_argument;
  if (!key.empty()) {
    open_key_ = a.type == "result" ? key : std::string();
    open_answer_ = a.type == "result" ? a.bytes : std::vector<uint8_t>();
  }
  if (expired(*w)) return cancelled;  // its work stopped (or done for nobody)
  std::vector<std::shared_ptr<Download>> written = target.take();
  if (!written.empty()) {
    downloads_.clear();
    for (auto& d : written) downloads_.emplace_back(new_token().substr(0, 32), std::move(d));
    a.downloads = downloads_;
  }
  return a;
}

std::shared_ptr<Download> EngineHost::take_download(const std::string& id) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& [key, d] : downloads_) {
    if (key == id && d) return std::move(d);
  }
  return nullptr;
}

}  // namespace scope_speedscope::serve
