// One error type for everything the user reads. The message is final text
// (the same words scope-profiler uses); the kind names the Python exception
// class scope-profiler would raise, for tests and for callers that branch.
#pragma once

#include <stdexcept>
#include <string>

namespace scope_speedscope {

enum class ErrorKind {
  value,            // ValueError: bad ranks, no regions, no calls, bad arguments
  nesting,          // NestingError: calls that do not nest
  corrupt_profile,  // CorruptProfileError: unreadable or damaged HDF5 file
  schema,           // HDF5SchemaError: bad scope_profiler_schema attribute
  file_not_found,   // FileNotFoundError
  io,               // OSError while writing outputs
  usage,            // command-line usage error
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message)
      : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const noexcept { return kind_; }
  // "ValueError", "NestingError", ... as scope-profiler names them.
  const char* kind_name() const noexcept;

  // What caused it, for callers that show an error next to a file or a field.
  // The input file as the user named it ("" when no input file is to blame).
  const std::string& file() const noexcept { return file_; }
  // The option: "include", "exclude", "ranks", "minDuration", "timeWindow",
  // "filepath", "labels" ("" when none).
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
  ErrorKind kind_;
  std::string file_;
  std::string field_;
  long long index_ = -1;
};

// The message texts, in one place (shared by the reader, the export and the
// shells that check a path before handing bytes to the core).
namespace messages {
std::string file_not_found(const std::string& path);
std::string not_hdf5(const std::string& path, const std::string& underlying);
std::string truncated_index(const std::string& path, unsigned long long claimed,
                            unsigned long long held);
std::string overlapping_index(const std::string& path);
std::string schema_not_integer(const std::string& repr);
std::string schema_not_positive(long long version);
std::string schema_too_new(long long version);
extern const char* const no_profiling_data;
extern const char* const no_regions_matched;
extern const char* const no_calls_recorded;
std::string invalid_rank(long long rank);
extern const char* const ends_before_starts;
extern const char* const not_properly_nested;
// Narrowing (ours) left no call: min_duration / window as given, "" when not
// to blame.
std::string nothing_left(const std::string& min_duration, const std::string& window);
}  // namespace messages

}  // namespace scope_speedscope
