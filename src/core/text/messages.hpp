// One error type for everything the user reads, and every message in one
// table (messages.cpp). Each entry has:
//   - its kind: the Python exception class scope-profiler would raise, for
//     tests and for callers that branch;
//   - its text: what the CLIs print after "error: " (scope-profiler's words
//     where scope-profiler has the message);
//   - its words for people: what the page shows next to the file's name, so
//     they never repeat the file name and never name a Python class.
// Both are templates: {name} is replaced by the argument of that name.
// Adding a message is one enum value and one table entry.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace scope_speedscope {

enum class ErrorKind {
  value,            // ValueError: bad ranks, no regions, no calls, bad arguments
  nesting,          // NestingError: calls that do not nest
  corrupt_profile,  // CorruptProfileError: unreadable or damaged HDF5 file
  schema,           // HDF5SchemaError: bad scope_profiler_schema attribute
  file_not_found,   // FileNotFoundError
  io,               // OSError while writing outputs
  usage,            // command-line usage error
  memory,           // MemoryError: out of memory
  internal,         // Error: a failure that is a bug of ours
  pattern,          // PatternError (Python's re.error): a bad --include/--exclude expression
};

// The messages. The comment names the arguments each one takes.
enum class Msg {
  // reading
  file_not_found,         // path
  not_hdf5,               // path, underlying: opens as HDF5 but is damaged or cut short
  not_hdf5_no_signature,  // path, underlying: no HDF5 signature at all
  not_hdf5_empty,         // path, underlying: 0 bytes
  corrupt_file,           // path, detail: the reader's own checks of the layout
  truncated_index,        // path, claimed, held
  overlapping_index,      // path
  schema_not_integer,     // repr
  schema_not_positive,    // version
  schema_too_new,         // version
  // damaged files (ours: scope-profiler would read garbage or fail obscurely)
  negative_index_value,           // path, dataset, row, value
  rank_out_of_range,              // path, dataset, row, value
  thread_id_out_of_range,         // path, dataset, row, value
  decoded_time_overflow,          // path, dataset, row
  bad_mpi_size,                   // path, repr
  declared_size_exceeds_storage,  // path, dataset, values, declared, stored
  strings_exceed_file,            // path, where, declared, size
  damaged_string,                 // path, where
  duplicate_region_name,          // path, dataset, row, first, name
  group_reached_twice,            // path, group
  converter_stopped,              // path, what: a trap inside the WebAssembly module
  file_unreadable,                // path, reason: the bytes could not be read (not damage)
  file_shrank,            // offset, size: a file_unreadable reason: it ended before its size
  too_large,              // path, what, limit: more memory than one file may take
  too_large_for_machine,  // path, what, limit: more memory than the machine has (native)
  unsupported_filter,     // path, dataset, filter (its number), name: not gzip/shuffle/lzf/zstd
  // a warning, never thrown: source locations read as unknown (ReadPlan::sources)
  source_values_unknown,  // path, values (how many), first
  // a job written one file per process (select/job.hpp)
  job_same_rank,    // first, second, rank: two files hold the same rank
  job_not_one_job,  // first, second, why: files that are not of one job
  // export
  no_profiling_data,
  no_regions_matched,
  no_calls_recorded,
  invalid_rank,  // rank, valid ("its ranks are 0 to 3", ...)
  ends_before_starts,
  not_properly_nested,
  calls_overlap,  // child, parent ("'solve' call 3 [10, 200] ns")
  too_many_calls,
  invalid_regex,            // pattern, detail (PCRE2's words "at position N")
  pattern_too_complex,      // pattern, length
  pattern_match_failed,     // pattern, detail
  empty_output_name,        // path
  cannot_write,             // path, reason
  cannot_create_directory,  // path, reason
  output_failed,            // detail: a caller's output sink failed
  // narrowing (ours)
  invalid_duration,       // option, text
  invalid_time_window,    // option, text
  time_window_backwards,  // option, text
  nothing_left_min,       // min
  nothing_left_window,    // window
  nothing_left_both,      // min, window
  // shells
  usage,         // detail: a command-line usage error
  bad_argument,  // detail: an API argument of the wrong shape
  out_of_memory,
  internal,  // detail
};

using MessageArgs = std::vector<std::pair<std::string, std::string>>;

class Error : public std::runtime_error {
 public:
  // A message of the table.
  explicit Error(Msg id, const MessageArgs& args = {});
  // The same with another kind (a value error that is a usage error on the
  // command line).
  Error(Msg id, ErrorKind kind, const MessageArgs& args = {});
  ErrorKind kind() const noexcept { return kind_; }
  // "ValueError", "NestingError", ... as scope-profiler names them.
  const char* kind_name() const noexcept;
  Msg id() const noexcept { return id_; }
  // The entry's name, stable for callers: "not_hdf5_no_signature", ...
  const char* code() const noexcept;
  // The message for people (what() is the CLIs' text).
  std::string people_message() const;
  // The same text, other words for people: an entry whose text template is
  // the same (not_hdf5 -> not_hdf5_empty once the reader knows more).
  Error& reword(Msg id);

  // What caused it, for callers that show an error next to a file or a field.
  // The input file as the user named it ("" when no input file is to blame).
  const std::string& file() const noexcept { return file_; }
  // The option: "include", "exclude", "ranks", "minDuration", "timeWindow",
  // "filepath" ("" when none).
  const std::string& field() const noexcept { return field_; }
  // The position within that option's list (a filter pattern, a rank), or -1.
  long long index() const noexcept { return index_; }
  // Sets the file when none is set yet.
  Error& in_file(const std::string& file) {
    if (file_.empty()) file_ = file;
    return *this;
  }
  Error& on_field(const std::string& field, long long index = -1) {
    field_ = field;
    index_ = index;
    return *this;
  }

 private:
  Msg id_;
  ErrorKind kind_;
  MessageArgs args_;
  std::string file_;
  std::string field_;
  long long index_ = -1;
};

// A message's text (what the CLIs print) without throwing it.
std::string message_text(Msg id, const MessageArgs& args = {});
// The message whose code() is `code`; false when there is none.
bool message_of_code(const std::string& code, Msg& id);

namespace messages {
// "its ranks are 0 to 3", "its only rank is 0", "it has no ranks".
std::string valid_ranks(long long num_ranks);
}  // namespace messages

}  // namespace scope_speedscope
