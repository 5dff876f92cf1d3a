#include "cli/serve_engine.hpp"

#include "cli/serve_guard.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
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
    : runs_(std::move(files)), vs_at_(vs_at) {
  served_.layout = layout_of_arguments(runs_.size(), vs_at_);
}

void EngineHost::check_runs() {
  served_ = plan_served(runs_, vs_at_, [this](std::size_t i) {
    return read_run(runs_[i], {}, {}, ReadPlan(ReadDepth::index));
  });
}

Answer EngineHost::ask(std::string_view request) {
  const json r = json::parse(request, nullptr, false);
  const std::string key = r.is_discarded() ? std::string() : open_key(r);
  std::lock_guard<std::mutex> lock(mutex_);
  Answer a;
  if (!key.empty() && key == open_key_) {
    a.bytes = open_answer_;
    a.type = "result";
    return a;
  }
  TempFileTarget target;
  EngineIo io;
  io.read = [this, &r](const std::string& which, const Progress& progress, const ReadPlan& plan) {
    return read_run(runs_[served_file(served_.layout, r, which)], progress, {}, plan);
  };
  io.progress = [&](std::string_view phase, uint64_t, uint64_t total) {
    if (phase == "write") target.written_events(total);
  };
  io.output = &target;
  a.bytes = engine_.dispatch(request, io);
  const json header = wire_header(a.bytes);
  a.type = header.value("type", "");
  Msg code = Msg::internal;
  a.bad_request = a.type == "error" && message_of_code(header.value("code", ""), code) &&
                  code == Msg::bad_argument;
  if (!key.empty()) {
    open_key_ = a.type == "result" ? key : std::string();
    open_answer_ = a.type == "result" ? a.bytes : std::vector<uint8_t>();
  }
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
