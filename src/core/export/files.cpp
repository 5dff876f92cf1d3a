// export: the outputs as files, each written beside its target under a
// temporary name and renamed when every run succeeded (see export.hpp).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "export/export.hpp"
#include "text/messages.hpp"

namespace scope_speedscope {

namespace {

class FileSink final : public Sink {
 public:
  FileSink(std::FILE* file, std::string path) : file_(file), path_(std::move(path)) {}
  void write(const char* data, std::size_t size) override {
    if (std::fwrite(data, 1, size, file_) != size) {
      throw Error(Msg::cannot_write, {{"path", path_}, {"reason", std::strerror(errno)}});
    }
  }

 private:
  std::FILE* file_;
  std::string path_;
};

}  // namespace

struct FileOutputTarget::Impl {
  struct Output {
    std::string target;
    std::string temp;
  };
  std::vector<Output> done;
  std::vector<std::string> created_dirs;  // removed again on abort, deepest first
  std::FILE* file = nullptr;
  std::unique_ptr<FileSink> sink;
  Output current;
  unsigned counter = 0;

  void make_parents(const std::string& path) {
    std::vector<std::string> missing;
    std::string dir = path;
    while (true) {
      const auto slash = dir.rfind('/');
      if (slash == std::string::npos || slash == 0) break;
      dir = dir.substr(0, slash);
      struct stat st;
      if (::stat(dir.c_str(), &st) == 0) break;
      missing.push_back(dir);
    }
    for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
      if (::mkdir(it->c_str(), 0777) != 0 && errno != EEXIST) {
        throw Error(Msg::cannot_create_directory,
                    {{"path", *it}, {"reason", std::strerror(errno)}});
      }
      created_dirs.push_back(*it);
    }
  }
  void close_file() noexcept {
    if (file != nullptr) std::fclose(file);
    file = nullptr;
    sink.reset();
  }
};

FileOutputTarget::FileOutputTarget() : impl_(std::make_unique<Impl>()) {}
FileOutputTarget::~FileOutputTarget() { abort(); }

Sink& FileOutputTarget::open(const std::string& path) {
  impl_->make_parents(path);
  impl_->current.target = path;
  // A temporary name of its own, created exclusively: another writer of the
  // same target (another process; in wasm every process id reads 42) takes
  // the next one.
  int fd = -1;
  while (fd < 0) {
    impl_->current.temp =
        path + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(impl_->counter++);
    fd = ::open(impl_->current.temp.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0 && errno != EEXIST) {
      impl_->current.temp.clear();
      throw Error(Msg::cannot_write, {{"path", path}, {"reason", std::strerror(errno)}});
    }
  }
  impl_->file = ::fdopen(fd, "wb");
  if (impl_->file == nullptr) {
    const int saved = errno;
    ::close(fd);
    std::remove(impl_->current.temp.c_str());
    impl_->current.temp.clear();
    throw Error(Msg::cannot_write, {{"path", path}, {"reason", std::strerror(saved)}});
  }
  std::setvbuf(impl_->file, nullptr, _IOFBF, 1 << 16);
  impl_->sink = std::make_unique<FileSink>(impl_->file, path);
  return *impl_->sink;
}

void FileOutputTarget::close() {
  std::FILE* f = impl_->file;
  impl_->file = nullptr;
  impl_->sink.reset();
  const bool failed = f == nullptr || std::fflush(f) != 0 || std::ferror(f) != 0;
  const int saved = errno;
  if (f != nullptr) std::fclose(f);
  impl_->done.push_back(impl_->current);
  impl_->current = {};
  if (failed) {
    throw Error(Msg::cannot_write,
                {{"path", impl_->current.target}, {"reason", std::strerror(saved)}});
  }
}

void FileOutputTarget::commit() {
  for (const auto& out : impl_->done) {
    if (std::rename(out.temp.c_str(), out.target.c_str()) != 0) {
      throw Error(Msg::cannot_write, {{"path", out.target}, {"reason", std::strerror(errno)}});
    }
  }
  impl_->done.clear();
  impl_->created_dirs.clear();
}

void FileOutputTarget::abort() noexcept {
  impl_->close_file();
  if (!impl_->current.temp.empty()) std::remove(impl_->current.temp.c_str());
  for (const auto& out : impl_->done) std::remove(out.temp.c_str());
  impl_->done.clear();
  impl_->current = {};
  for (auto it = impl_->created_dirs.rbegin(); it != impl_->created_dirs.rend(); ++it) {
    ::rmdir(it->c_str());
  }
  impl_->created_dirs.clear();
}

}  // namespace scope_speedscope
