// read: the dispatcher: open the file (path, bytes or a source of ours),
// read its schema attribute and metadata, hand it to its layout's reader.
#include "read/h5_reader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <mutex>

#include "read/h5_detail.hpp"
#include "read/h5_driver.hpp"
#include "read/h5_filters.hpp"
#include "text/unicode.hpp"
#include "write/speedscope_writer.hpp"

namespace scope_speedscope {

namespace {

// int(metadata.get("mpi_size", 1)) as scope-profiler takes it: an integer,
// or a float truncated toward zero (saturated to 64 bits); NaN and infinity
// have no integer value (Python raises there too).
int64_t mpi_size_of(const h5::File& f, const std::optional<h5::AttributeValue>& attr) {
  using h5::AttributeValue;
  if (!attr) return 1;
  if (attr->type == AttributeValue::Type::integer) return attr->integer;
  if (attr->type != AttributeValue::Type::floating) return 1;
  const double v = attr->floating;
  if (std::isnan(v) || std::isinf(v)) f.fail(Msg::bad_mpi_size, {{"repr", attr->repr}});
  if (v >= 9223372036854775807.0) return INT64_MAX;
  if (v <= -9223372036854775808.0) return INT64_MIN;
  return static_cast<int64_t>(v);
}

Run read_open_file(h5::File& f) {
  using h5::AttributeValue;
  Run run;
  run.path = f.path;
  const hid_t root = f.file.get();

  // Schema version (spec 1.1).
  int64_t version = 1;
  if (auto attr = h5::read_attribute(f, root, "scope_profiler_schema")) {
    if (attr->type != AttributeValue::Type::integer) {
      throw Error(Msg::schema_not_integer, {{"repr", attr->repr}});
    }
    version = attr->integer;
    if (version < 1) throw Error(Msg::schema_not_positive, {{"version", std::to_string(version)}});
    if (version > 3) throw Error(Msg::schema_too_new, {{"version", std::to_string(version)}});
  }
  run.schema_version = version;

  // Metadata that matters: label, mpi_size.
  std::optional<AttributeValue> mpi_size_attr;
  if (h5::is_group(root, "metadata")) {
    h5::Handle meta = h5::open_group(f, root, "metadata");
    if (auto label = h5::read_attribute(f, meta.get(), "label")) {
      if (label->type == AttributeValue::Type::string) run.label = label->string;
      if (label->type == AttributeValue::Type::integer && label->integer != 0) {
        run.label = std::to_string(label->integer);
      }
    }
    mpi_size_attr = h5::read_attribute(f, meta.get(), "mpi_size");
    // (Only to tell jobs apart: a value mpi_size_of refuses is no job's.)
    if (mpi_size_attr && (mpi_size_attr->type == AttributeValue::Type::integer ||
                          (mpi_size_attr->type == AttributeValue::Type::floating &&
                           std::isfinite(mpi_size_attr->floating)))) {
      run.mpi_size = mpi_size_of(f, mpi_size_attr);
    }
    if (auto rank = h5::read_attribute(f, meta.get(), "mpi_rank")) {
      if (rank->type == AttributeValue::Type::integer) run.mpi_rank = rank->integer;
    }
  }

  if (version >= 2) {
    run.storage_layout = "columnar";
    if (auto layout = h5::read_attribute(f, root, "storage_layout")) {
      if (layout->type == AttributeValue::Type::string) run.storage_layout = layout->string;
    }
    if (run.storage_layout == "aggregate") {
      h5::read_aggregate(f, run);
    } else {
      h5::read_columnar(f, run);
    }
    h5::read_lane_tables(f, run);
    // num_ranks: max(int(mpi_size), max rank + 1), 0 without rows. Ranks are
    // below 2^32 (checked by the reader).
    int64_t max_rank = -1;
    bool any_row = false;
    for (const Region& region : run.regions) {
      for (const RankSlice& slice : region.ranks) {
        max_rank = std::max(max_rank, slice.rank);
        any_row = true;
      }
    }
    run.num_ranks = any_row ? std::max(mpi_size_of(f, mpi_size_attr), max_rank + 1) : 0;
  } else {
    h5::read_schema1(f, run);
  }
  h5::finish_sources(f, run);
  if (f.progress) f.progress("read", f.events_total, f.events_total);
  return run;
}

// Bytes in memory.
class MemorySource final : public ByteSource {
 public:
  MemorySource(const void* data, std::size_t size)
      : data_(static_cast<const unsigned char*>(data)), size_(size) {}
  uint64_t size() const override { return size_; }
  std::string read(uint64_t offset, void* out, std::size_t n) override {
    std::memcpy(out, data_ + offset, n);
    return {};
  }

 private:
  const unsigned char* data_;
  std::size_t size_;
};

// An open file descriptor, read with pread (which neither moves nor needs
// a file position); owns the descriptor.
class FdSource final : public ByteSource {
 public:
  explicit FdSource(int fd) : fd_(fd) {}
  void set_size(uint64_t size) { size_ = size; }
  ~FdSource() override { ::close(fd_); }
  FdSource(const FdSource&) = delete;
  FdSource& operator=(const FdSource&) = delete;
  uint64_t size() const override { return size_; }
  std::string read(uint64_t offset, void* out, std::size_t n) override {
    auto* bytes = static_cast<unsigned char*>(out);
    while (n > 0) {
      const std::size_t step = std::min<std::size_t>(n, std::size_t{1} << 30);
      const ssize_t got = ::pread(fd_, bytes, step, static_cast<off_t>(offset));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) return std::strerror(errno);
      if (got == 0) {
        return message_text(Msg::file_shrank,
                            {{"offset", std::to_string(offset)}, {"size", std::to_string(size_)}});
      }
      bytes += got;
      offset += static_cast<uint64_t>(got);
      n -= static_cast<std::size_t>(got);
    }
    return {};
  }

 private:
  int fd_;
  uint64_t size_ = 0;
};

Run read_from_state(h5::SourceState& state, const std::string& path, const Progress& progress,
                    const ReadPlan& plan) {
  h5::silence_hdf5_errors();
  h5::Handle fapl = h5::driver_fapl(state);
  if (!fapl.valid()) {
    throw Error(Msg::internal,
                {{"detail", "scope-speedscope: its HDF5 file driver could not be set up (" +
                                h5::error_stack_message() + ")"}});
  }
  h5::File f;
  f.path = path;
  f.progress = progress;
  f.source = &state;
  f.times = plan.depth == ReadDepth::calls;
  f.sources = plan.sources;
  if (f.times && plan.ranks) {
    f.held_ranks = *plan.ranks;
    std::sort(f.held_ranks->begin(), f.held_ranks->end());
    f.others_first_starts = plan.others_first_starts;
    f.keep_calls = plan.keep;
  }
  // The driver reads the source, not the name: a name no other open file has.
  static unsigned counter = 0;
  const std::string open_name = "scope-speedscope input " + std::to_string(++counter);
  f.file = h5::Handle(H5Fopen(open_name.c_str(), H5F_ACC_RDONLY, fapl.get()), H5Fclose);
  if (!f.file.valid()) {
    throw Error(Msg::not_hdf5, {{"path", path}, {"underlying", h5::error_stack_message()}});
  }
  return read_open_file(f);
}

// A file HDF5 cannot open: empty, not HDF5 at all, or damaged? The CLIs'
// text stays scope-profiler's; the words for people say which.
void classify_open_failure(Error& e, uint64_t size) {
  if (e.id() != Msg::not_hdf5) return;
  if (size == 0) {
    e.reword(Msg::not_hdf5_empty);
  } else if (std::string(e.what()).find("file signature not found") != std::string::npos) {
    e.reword(Msg::not_hdf5_no_signature);  // HDF5 found its signature at no offset it tries
  }
}

Error unreadable(const std::string& path, const std::string& reason) {
  Error e(Msg::file_unreadable, {{"path", path}, {"reason", reason}});
  e.in_file(path);
  return e;
}

// HDF5 as built is not thread-safe: one read at a time in the process (a
// server's reads on several threads wait here; decoding a read's chunks on
// worker threads is ours, outside HDF5: h5_chunks.cpp).
std::mutex& hdf5_mutex() {
  static std::mutex m;
  return m;
}

// Every reading error blames the file; a source that failed to give bytes
// is the reason, whatever HDF5 made of the missing bytes.
Run read_source(ByteSource& source, const std::string& shown, const Progress& progress,
                const ReadPlan& plan) {
  const std::lock_guard<std::mutex> one_read(hdf5_mutex());
  h5::SourceState state;
  state.source = &source;
  try {
    return read_from_state(state, shown, progress, plan);
  } catch (Error& e) {
    if (!state.failure.empty()) throw unreadable(shown, state.failure);
    e.in_file(shown);
    classify_open_failure(e, source.size());
    throw;
  }
}

}  // namespace

Run read_run(const std::string& path, const Progress& progress, const std::string& display_name,
             const ReadPlan& plan) {
  const std::string& shown = display_name.empty() ? path : display_name;
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    Error e(Msg::file_not_found, {{"path", shown}});
    e.in_file(shown);
    throw e;
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw unreadable(shown, std::strerror(errno));
  FdSource source(fd);  // closes it
  if (::fstat(fd, &st) != 0) throw unreadable(shown, std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw unreadable(shown, "it is a directory");
  source.set_size(static_cast<uint64_t>(st.st_size));
  return read_source(source, shown, progress, plan);
}

Run read_run_from_memory(const void* data, std::size_t size, const std::string& name,
                         const Progress& progress, const ReadPlan& plan) {
  MemorySource source(data, size);
  return read_source(source, name, progress, plan);
}

Run read_run_from_source(ByteSource& source, const std::string& name, const Progress& progress,
                         const ReadPlan& plan) {
  return read_source(source, name, progress, plan);
}

}  // namespace scope_speedscope
