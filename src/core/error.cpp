#include "error.hpp"

#include "unicode.hpp"

namespace scope_speedscope {

const char* Error::kind_name() const noexcept {
  switch (kind_) {
    case ErrorKind::value: return "ValueError";
    case ErrorKind::nesting: return "NestingError";
    case ErrorKind::corrupt_profile: return "CorruptProfileError";
    case ErrorKind::schema: return "HDF5SchemaError";
    case ErrorKind::file_not_found: return "FileNotFoundError";
    case ErrorKind::io: return "OSError";
    case ErrorKind::usage: return "UsageError";
    case ErrorKind::pattern: return "PatternError";
  }
  return "Error";
}

namespace messages {

std::string file_not_found(const std::string& path) {
  return "HDF5 file not found: " + path;
}

std::string not_hdf5(const std::string& path, const std::string& underlying) {
  return path +
         " is not a readable HDF5 profiling file. A run that was interrupted "
         "while writing leaves a truncated file behind; the underlying error "
         "was: " +
         underlying;
}

std::string truncated_index(const std::string& path, unsigned long long claimed,
                            unsigned long long held) {
  return path + " claims " + std::to_string(claimed) +
         " recorded events but its event columns hold " + std::to_string(held) +
         ". The file is truncated or damaged.";
}

std::string overlapping_index(const std::string& path) {
  return path + " has overlapping region rows in its event index. The file is damaged.";
}

std::string schema_not_integer(const std::string& repr) {
  return "HDF5 schema version attribute 'scope_profiler_schema' must be an "
         "integer, got " +
         repr;
}

std::string schema_not_positive(long long version) {
  return "Unsupported scope-profiler HDF5 schema version " + std::to_string(version) +
         "; versions must be positive";
}

std::string schema_too_new(long long version) {
  return "Unsupported scope-profiler HDF5 schema version " + std::to_string(version) +
         "; this package supports versions through 3. Upgrade scope-profiler to "
         "read this file.";
}

const char* const no_profiling_data = "No profiling data provided.";
const char* const no_regions_matched = "No regions matched the selected filters.";
const char* const no_calls_recorded = "No calls recorded for the requested ranks.";

std::string invalid_rank(long long rank) {
  return "Invalid rank requested: " + std::to_string(rank);
}

const char* const ends_before_starts = "a recorded call ends before it starts";
const char* const not_properly_nested = "recorded calls are not properly nested";

namespace {
const char* const kDamaged = ". The file is damaged.";
}

std::string negative_index_value(const std::string& path, const std::string& dataset,
                                 unsigned long long row, long long value) {
  return path + ": " + dataset + "[" + std::to_string(row) + "] is " + std::to_string(value) +
         ", which cannot be negative" + kDamaged;
}

std::string rank_out_of_range(const std::string& path, const std::string& dataset,
                              unsigned long long row, long long value) {
  return path + ": " + dataset + "[" + std::to_string(row) + "] is " + std::to_string(value) +
         ", not an MPI rank" + kDamaged;
}

std::string thread_id_out_of_range(const std::string& path, const std::string& dataset,
                                   unsigned long long row, long long value) {
  return path + ": " + dataset + "[" + std::to_string(row) + "] is " + std::to_string(value) +
         ", not a thread index" + kDamaged;
}

std::string decoded_time_overflow(const std::string& path, const std::string& dataset,
                                  unsigned long long row) {
  return path + ": the times decoded from " + dataset + " overflow 64-bit nanoseconds at " +
         dataset + "[" + std::to_string(row) + "]" + kDamaged;
}

std::string bad_mpi_size(const std::string& path, const std::string& repr) {
  return path + ": metadata attribute 'mpi_size' is " + repr + ", not a number of ranks" +
         kDamaged;
}

std::string declared_size_exceeds_storage(const std::string& path, const std::string& dataset,
                                          unsigned long long values,
                                          unsigned long long declared_bytes,
                                          unsigned long long stored_bytes) {
  return path + ": dataset '" + dataset + "' declares " + std::to_string(values) + " values (" +
         std::to_string(declared_bytes) + " bytes) but the file holds only " +
         std::to_string(stored_bytes) +
         " bytes of data for it. The file is truncated or damaged.";
}

std::string strings_exceed_file(const std::string& path, const std::string& where,
                                unsigned long long declared, unsigned long long file_size) {
  return path + ": " + where + " declares " + std::to_string(declared) +
         " bytes of text, more than the whole file holds (" + std::to_string(file_size) +
         " bytes)" + kDamaged;
}

std::string damaged_string(const std::string& path, const std::string& where) {
  return path + ": " + where + " is damaged: its stored length and its text disagree" + kDamaged;
}

std::string duplicate_region_name(const std::string& path, const std::string& dataset,
                                  unsigned long long row, unsigned long long first,
                                  const std::string& name) {
  return path + ": " + dataset + "[" + std::to_string(row) + "] repeats " + dataset + "[" +
         std::to_string(first) + "] (" + python_str_repr(name) +
         "): every region is listed once" + kDamaged;
}

std::string group_reached_twice(const std::string& path, const std::string& group) {
  return path + ": group '" + group + "' is reached twice through links (a cycle)" + kDamaged;
}

std::string converter_stopped(const std::string& path, const std::string& what) {
  return path + ": the file is damaged: the converter stopped (" + what + ")";
}

std::string invalid_pattern(const std::string& pattern, const std::string& what,
                            std::size_t position) {
  return "Invalid regular expression " + python_str_repr(utf8_decode_replace(pattern)) + ": " +
         what + " at position " + std::to_string(position);
}

std::string pattern_too_complex(const std::string& pattern, std::size_t name_length) {
  return "Regular expression " + python_str_repr(pattern) +
         " needs too much backtracking to match a region name of " +
         std::to_string(name_length) + " characters; simplify it";
}

std::string pattern_match_failed(const std::string& pattern, const std::string& what) {
  return "Regular expression " + python_str_repr(pattern) + " failed to match: " + what;
}

}  // namespace messages
}  // namespace scope_speedscope
