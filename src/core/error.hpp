// One error type for everything the user reads. The message is final text
// (the same words scope-profiler uses); the kind names the Python exception
// class scope-profiler would raise, for tests and for callers that branch.
#pragma once

#include <cstddef>
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
  pattern,          // PatternError (Python's re.error): a bad --include/--exclude expression
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message)
      : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const noexcept { return kind_; }
  // "ValueError", "NestingError", ... as scope-profiler names them.
  const char* kind_name() const noexcept;

 private:
  ErrorKind kind_;
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

// Damaged files (CorruptProfileError): each names the file and the dataset.
// `dataset` is an HDF5 path such as "rank_region_index/event_offsets".
std::string negative_index_value(const std::string& path, const std::string& dataset,
                                 unsigned long long row, long long value);
std::string rank_out_of_range(const std::string& path, const std::string& dataset,
                              unsigned long long row, long long value);
std::string thread_id_out_of_range(const std::string& path, const std::string& dataset,
                                   unsigned long long row, long long value);
std::string decoded_time_overflow(const std::string& path, const std::string& dataset,
                                  unsigned long long row);
std::string bad_mpi_size(const std::string& path, const std::string& repr);
std::string declared_size_exceeds_storage(const std::string& path, const std::string& dataset,
                                          unsigned long long values,
                                          unsigned long long declared_bytes,
                                          unsigned long long stored_bytes);
// `where` names the object: "dataset 'region_table/names'", "attribute 'label'".
std::string strings_exceed_file(const std::string& path, const std::string& where,
                                unsigned long long declared, unsigned long long file_size);
// `where` is "region_table/names[3]" or "attribute 'label'".
std::string damaged_string(const std::string& path, const std::string& where);
std::string duplicate_region_name(const std::string& path, const std::string& dataset,
                                  unsigned long long row, unsigned long long first,
                                  const std::string& name);
std::string group_reached_twice(const std::string& path, const std::string& group);
// A conversion that stopped inside the WebAssembly module (a trap: memory
// access out of bounds, unreachable, ...): the JavaScript wrapper rebuilds
// the module and reports this, `what` being the trap's own words.
std::string converter_stopped(const std::string& path, const std::string& what);

// Region filters (pattern.cpp). `position` counts characters, as Python's
// re.error does.
std::string invalid_pattern(const std::string& pattern, const std::string& what,
                            std::size_t position);
std::string pattern_too_complex(const std::string& pattern, std::size_t name_length);
std::string pattern_match_failed(const std::string& pattern, const std::string& what);
}  // namespace messages

}  // namespace scope_speedscope
