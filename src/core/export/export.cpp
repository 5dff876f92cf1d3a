// export: filters, ranks, labels, file names and errors around the pipeline
// (scope-profiler's export_speedscope, spec 5.1).
#include "export/export.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>

#include "reconstruct/profiles.hpp"
#include "text/messages.hpp"
#include "export/narrow.hpp"
#include "text/unicode.hpp"

namespace scope_speedscope {

// ---- names -----------------------------------------------------------------------

std::vector<std::string> unique_labels(const std::vector<std::string>& labels) {
  std::map<std::string, int> seen;
  std::vector<std::string> out;
  out.reserve(labels.size());
  for (const std::string& label : labels) {
    const int k = ++seen[label];
    out.push_back(k == 1 ? label : label + " (" + std::to_string(k) + ")");
  }
  return out;
}

std::string filename_slug(const std::string& label) {
  std::string slug;
  bool in_run = false;
  std::size_t i = 0;
  while (i < label.size()) {
    const std::size_t at = i;
    const uint32_t cp = next_code_point(label, i);
    const bool keep = cp == '_' || cp == '.' || cp == '+' || cp == '-' || is_alnum(cp);
    if (keep) {
      slug.append(label, at, i - at);
      in_run = false;
    } else if (!in_run) {
      slug += '_';
      in_run = true;
    }
  }
  const auto first = slug.find_first_not_of('_');
  if (first == std::string::npos) return label;
  const auto last = slug.find_last_not_of('_');
  return slug.substr(first, last - first + 1);
}

std::string normalize_path(const std::string& path) {
  std::string root;
  if (!path.empty() && path[0] == '/') {
    root = (path.size() > 1 && path[1] == '/' && (path.size() == 2 || path[2] != '/')) ? "//" : "/";
  }
  std::string out = root;
  std::size_t pos = 0;
  bool first = true;
  while (pos <= path.size()) {
    auto slash = path.find('/', pos);
    if (slash == std::string::npos) slash = path.size();
    const std::string part = path.substr(pos, slash - pos);
    if (!part.empty() && part != ".") {
      if (!first) out += '/';
      out += part;
      first = false;
    }
    pos = slash + 1;
  }
  if (out.empty()) return ".";
  return out;
}

std::vector<std::string> output_paths(const std::string& filepath,
                                      const std::vector<std::string>& labels) {
  const std::string base = normalize_path(filepath);
  const auto slash = base.rfind('/');
  const std::string parent = slash == std::string::npos ? "" : base.substr(0, slash + 1);
  const std::string name = slash == std::string::npos ? base : base.substr(slash + 1);
  if (name.empty() || name == ".") {
    throw Error(Msg::empty_output_name, {{"path", base}}).on_field("filepath");
  }
  const auto dot = name.find('.');
  const std::string stem = dot == std::string::npos ? name : name.substr(0, dot);
  const std::string suffix = dot == std::string::npos ? ".speedscope.json" : name.substr(dot);
  std::vector<std::string> out;
  out.reserve(labels.size());
  for (const std::string& label : labels) {
    const std::string file =
        labels.size() > 1 ? stem + "_" + filename_slug(label) + suffix : stem + suffix;
    out.push_back(normalize_path(parent + file));
  }
  return out;
}


// ---- files -------------------------------------------------------------------------

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
        throw Error(Msg::cannot_create_directory, {{"path", *it}, {"reason", std::strerror(errno)}});
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
  impl_->current.temp = path + ".tmp-" + std::to_string(::getpid()) + "-" +
                        std::to_string(impl_->counter++);
  impl_->file = std::fopen(impl_->current.temp.c_str(), "wb");
  if (impl_->file == nullptr) {
    throw Error(Msg::cannot_write, {{"path", path}, {"reason", std::strerror(errno)}});
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
    throw Error(Msg::cannot_write, {{"path", impl_->current.target}, {"reason", std::strerror(saved)}});
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

// ---- export_speedscope -------------------------------------------------------

namespace {

// The message when narrowing left nothing although the selection had calls:
// it names the option that emptied it (both when only together they do).
[[noreturn]] void nothing_left(const std::vector<Run>& runs, const std::vector<int64_t>& ranks,
                               const ExportOptions& options) {
  const Narrowing& n = options.narrowing;
  bool by_min = n.min_duration_ns.has_value();
  bool by_window = n.window;
  if (by_min && by_window) {
    // Does either option alone leave nothing? Then it alone is named.
    auto keeps_some = [&](const Narrowing& alone) {
      for (const Run& run : runs) {
        const std::vector<uint32_t> regions =
            filter_regions(run, options.include, options.exclude, nullptr);
        const Clip clip = clip_of(alone, alone.window ? run_origin_ns(run) : std::nullopt);
        const bool none = for_each_selected_event(run, regions, ranks, [&](uint64_t e) {
          return !clip.keep(run.start_ns[e], run.end_ns[e]);
        });
        if (!none) return true;
      }
      return false;
    };
    Narrowing only_min = n, only_window = n;
    only_min.window = false;
    only_window.min_duration_ns.reset();
    if (!keeps_some(only_min)) {
      by_window = false;
    } else if (!keeps_some(only_window)) {
      by_min = false;
    }
  }
  Error e(by_min && by_window ? Msg::nothing_left_both : by_min ? Msg::nothing_left_min : Msg::nothing_left_window,
          {{"min", n.min_duration_text}, {"window", n.window_text}});
  e.on_field(by_min ? "minDuration" : "timeWindow");
  if (runs.size() == 1) e.in_file(runs.front().path);
  throw e;
}

std::vector<std::string> export_runs(const std::vector<Run>& runs, const std::string& filepath,
                                     const ExportOptions& options, OutputTarget& target) {
  if (runs.empty()) throw Error(Msg::no_profiling_data);
  const std::vector<int64_t> ranks = requested_ranks(options.ranks);
  const Narrowing& narrowing = options.narrowing;

  std::vector<std::string> display;
  display.reserve(runs.size());
  for (const Run& run : runs) display.push_back(run.display_label());
  const std::vector<std::string> labels = unique_labels(display);

  // scope-profiler names files after validating every run; keep that order
  // of errors while writing run by run.
  std::vector<std::string> paths;
  std::optional<Error> naming_error;
  try {
    paths = output_paths(filepath, labels);
  } catch (const Error& e) {
    naming_error = e;
  }

  std::vector<std::string> written;
  bool narrowed_away = false;  // narrowing left nothing of calls the selection had
  const uint64_t steps = static_cast<uint64_t>(runs.size()) * ranks.size();
  uint64_t step = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    try {
      const Run& original = runs[i];
      std::vector<uint32_t> regions = selected_regions(original, options.include, options.exclude);
      // Narrowing: from here on, the run is the file holding only the kept calls.
      std::optional<Run> narrowed;
      if (narrowing.active()) narrowed.emplace(narrow_run(original, regions, narrowing));
      const Run& run = narrowed ? *narrowed : original;
      regions = order_regions(run, std::move(regions));
      const SelectedProfiles selected =
          reconstruct_profiles(run, regions, ranks, CallStorage::streamed, [&](std::size_t) {
            if (options.progress) options.progress("reconstruct", ++step, steps);
          });
      if (selected.empty()) {  // a run without calls is skipped
        if (narrowed && selection_calls(original, regions, ranks) > 0) narrowed_away = true;
        continue;
      }
      if (naming_error) {
        written.push_back("");
        continue;
      }
      Sink& sink = target.open(paths[i]);
      write_speedscope_document(sink, run, labels[i], selected.named(), options.flush_size,
                                options.progress);
      target.close();
      written.push_back(paths[i]);
    } catch (Error& e) {
      if (e.kind() != ErrorKind::io) e.in_file(runs[i].path);  // not the output's failures
      throw;
    }
  }
  if (written.empty()) {
    if (narrowed_away) nothing_left(runs, ranks, options);
    Error e(Msg::no_calls_recorded);
    e.on_field("ranks");
    if (runs.size() == 1) e.in_file(runs.front().path);
    throw e;
  }
  if (naming_error) throw *naming_error;
  target.commit();
  if (options.verbose) {
    for (const std::string& path : written) {
      const std::string line = "Wrote " + path + " (view at https://www.speedscope.app)";
      if (options.log) {
        options.log(line);
      } else {
        std::cout << line << '\n';
      }
    }
  }
  return written;
}

}  // namespace

std::vector<std::string> export_speedscope(const std::vector<Run>& runs, const std::string& filepath,
                                           const ExportOptions& options, OutputTarget& target) {
  try {
    return export_runs(runs, filepath, options, target);
  } catch (...) {
    target.abort();
    throw;
  }
}

std::vector<std::string> export_speedscope(const std::vector<Run>& runs, const std::string& filepath,
                                           const ExportOptions& options) {
  FileOutputTarget target;
  return export_speedscope(runs, filepath, options, target);
}

}  // namespace scope_speedscope
