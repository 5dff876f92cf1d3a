// Private to the reader units (h5_*.cpp): RAII handles over hid_t, HDF5's
// error stack turned into our messages, and column/attribute readers.
// Nothing here may appear in a public header.
#pragma once

#include <hdf5.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/run.hpp"
#include "text/messages.hpp"

namespace scope_speedscope::h5 {

// A move-only owner of one HDF5 identifier; its destructor never throws.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
  Handle(Handle&& other) noexcept : id_(other.id_), closer_(other.closer_) { other.id_ = -1; }
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = other.id_;
      closer_ = other.closer_;
      other.id_ = -1;
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { reset(); }

  hid_t get() const noexcept { return id_; }
  bool valid() const noexcept { return id_ >= 0; }
  void reset() noexcept {
    if (id_ >= 0 && closer_ != nullptr) closer_(id_);
    id_ = -1;
  }

 private:
  hid_t id_ = -1;
  Closer closer_ = nullptr;
};

// "Unable to open file (file signature not found)": the outermost entry of
// HDF5's error stack, capitalised, and the innermost one, as h5py words it.
std::string error_stack_message();
// Sets HDF5 up for the reader, once per process: its automatic error
// printing off, our stored-string conversion and filters registered,
// external links unregistered.
void silence_hdf5_errors();
// The conversion that reads what a variable-length string element stores
// (h5_columns.cpp).
void register_stored_string_conversion();

struct SourceState;  // h5_driver.hpp

// The default of memory_per_file() (h5_reader.hpp): the WebAssembly build
// cannot address more than 4 GiB in all. 2 GiB hold about 130 million calls
// of one lane.
constexpr uint64_t kMemoryPerFileBytes = uint64_t{2} << 30;
// The largest chunk of a dataset HDF5 may have to hold in memory at once
// (scope-profiler's chunks are well below 1 MiB).
constexpr uint64_t kChunkBytesLimit = uint64_t{256} << 20;

// "2 GiB", "256 MiB": a limit in messages.
std::string mebibytes(uint64_t bytes);
// "22.9 GiB" (under 1 GiB: "512 MiB"): a machine's memory in messages.
std::string gibibytes(uint64_t bytes);

// What the reader units share about the file being read.
struct File {
  Handle file;
  std::string path;  // as the user named it
  Progress progress;
  SourceState* source = nullptr;  // where its bytes come from (our driver)
  uint64_t events_total = 0;      // for progress
  uint64_t events_done = 0;
  uint64_t memory = 0;  // bytes claimed by what has been read so far
  bool times = true;    // false: the calls' times are left out (ReadDepth::index)
  // ReadPlan::ranks, ascending: only these ranks' calls are read (columnar).
  std::optional<std::vector<int64_t>> held_ranks;
  bool others_first_starts = true;
  bool keep_calls = true;  // ReadPlan::keep
  bool sources = false;    // ReadPlan::sources: read the rows' source locations
  // Source values read as unknown (h5_source.cpp): how many, the first.
  uint64_t source_problems = 0;
  std::string first_source_problem;

  [[noreturn]] void fail(const std::string& what) const;  // corrupt_profile, names the file
  // A message of the table about this file: {"path", path} comes first.
  [[noreturn]] void fail(Msg id, MessageArgs args) const;
  // Bytes of the file (of the image, in memory): nothing in it can be larger.
  uint64_t size() const;
  // Counts `bytes` of memory for `what` ("dataset 'events/start_times'")
  // before they are allocated; refuses past memory_per_file().
  void claim_memory(uint64_t bytes, const std::string& what);
};

bool link_exists(hid_t loc, const std::string& path);
bool is_group(hid_t loc, const std::string& path);
bool is_dataset(hid_t loc, const std::string& path);
Handle open_group(const File& f, hid_t loc, const std::string& path);
Handle open_dataset(const File& f, hid_t loc, const std::string& path);
// Child link names of a group in byte-wise ascending order; with
// `followed_only`, only hard and soft links (an external link would open
// another file; the reader never follows one).
std::vector<std::string> child_names(const File& f, hid_t group, bool followed_only = false);

uint64_t dataset_length(const File& f, hid_t dset, const std::string& what);
// A 1-D numeric dataset as int64 (HDF5 converts), read in blocks; reports
// progress when `events` is true. `shown` names it in messages (default: path).
// Every column reader first checks that the declared length fits in what
// the file stores for the dataset (no buffer is sized from a lie).
std::vector<int64_t> read_int64_column(File& f, hid_t loc, const std::string& path,
                                       bool events = false, const std::string& shown = {});
// The same of an event column (progress reported), as a Column.
Column<int64_t> read_event_column(File& f, hid_t loc, const std::string& path);
// The same column's n values into `out` with its chunks decoded by us, on
// every core natively (h5_chunks.cpp), unless set_decode_threads asked for
// none, when the dataset is one whose chunks we decode; false when it did not (then
// `out` holds nothing of use and the caller reads through HDF5).
bool read_column_in_parallel(File& f, hid_t dset, uint64_t n, int64_t* out, bool events);
// Values [begin, end) of a 1-D numeric dataset.
struct ValueRange {
  uint64_t begin, end;
};
// The values of `ranges` (ascending, disjoint, within the dataset) of a 1-D
// numeric dataset as int64, with read_int64_column's checks, handed to
// `take(first_index, values, n)` block after block in index order (blocks
// of whole chunks where it can, so no chunk is decompressed twice by one
// range). Counts events for progress. Returns the dataset's length.
using TakeValues = std::function<void(uint64_t, const int64_t*, std::size_t)>;
uint64_t read_int64_ranges(File& f, hid_t loc, const std::string& path,
                           const std::vector<ValueRange>& ranges, const TakeValues& take);
// The first part of read_int64_ranges on every core (as
// read_column_in_parallel): the chunks the ranges touch decoded a batch at
// a time, their values handed to `take` in index order on this thread.
// Returns the index up to which every value of the ranges was taken (0
// when the dataset is not one whose chunks we decode): HDF5 reads the rest,
// and says what is wrong with the chunk that stopped it.
uint64_t take_ranges_in_parallel(File& f, hid_t dset, uint64_t n,
                                 const std::vector<ValueRange>& ranges, const TakeValues& take);
// A 1-D string dataset (variable- or fixed-length), decoded as UTF-8 with
// replacement; fixed-length values lose trailing NULs.
std::vector<std::string> read_string_column(File& f, hid_t loc, const std::string& path);

// What a variable-length string element stores, read without HDF5's
// conversion (h5_reader.cpp).
struct StoredString {
  uint32_t length;  // declared bytes
};

// A scalar attribute: nullopt when absent.
struct AttributeValue {
  enum class Type { integer, floating, string, other } type = Type::other;
  int64_t integer = 0;
  double floating = 0;
  std::string string;  // decoded UTF-8 (replace)
  std::string repr;    // Python repr of the value as h5py would return it
};
std::optional<AttributeValue> read_attribute(const File& f, hid_t loc, const std::string& name);

// Source locations (h5_source.cpp), read only when File::sources is set. A
// bad value is read as unknown and counted, never a failure (only a source
// that could not give bytes still fails the read).
// Schema 1: a region group's @source_file, @source_lineno, @source_text as a
// new row of run.sources; returns its index (`where` names the group).
uint32_t read_group_source(File& f, hid_t group, const std::string& where, Run& run);
// Schemas 2 and 3: rank_region_index/source_files, source_lines and
// source_texts, one row of run.sources per index row (`rows` of them).
void read_index_sources(File& f, Run& run, std::size_t rows);
// Each region's source (choose_region_sources) and the one warning of a
// read that read some source value as unknown.
void finish_sources(const File& f, Run& run);

// The layout readers, one per layout (dispatch in h5_reader.cpp).
void read_schema1(File& f, Run& run);
void read_columnar(File& f, Run& run);   // schema >= 2, "columnar"
void read_aggregate(File& f, Run& run);  // schema >= 2, "aggregate"
// thread_table / task_table (schema >= 2, optional).
void read_lane_tables(File& f, Run& run);

}  // namespace scope_speedscope::h5
