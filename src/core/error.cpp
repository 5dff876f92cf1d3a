#include "error.hpp"

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

std::string nothing_left(const std::string& min_duration, const std::string& window) {
  std::string why;
  if (!min_duration.empty()) why = "none lasts at least " + min_duration + " (min-duration)";
  if (!window.empty()) {
    why += why.empty() ? "none overlaps " : " and overlaps ";
    why += "the time window " + window + " (time-window, seconds from the run's first call)";
  }
  return "No calls left for the requested ranks: " + why + ".";
}

}  // namespace messages
}  // namespace scope_speedscope
