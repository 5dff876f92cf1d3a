#include "text/messages.hpp"

#include <cstddef>

namespace scope_speedscope {
namespace {

struct Entry {
  Msg id;
  const char* code;
  ErrorKind kind;
  const char* text;    // what the CLIs print (scope-profiler's words where it has the message)
  const char* people;  // for the page: no file name, no Python class names
};

// The one table. Keep it in the order of the enum (checked by the tests).
constexpr Entry kMessages[] = {
    // ---- reading -----------------------------------------------------------------
    {Msg::file_not_found, "file_not_found", ErrorKind::file_not_found,
     "HDF5 file not found: {path}", "The file was not found."},
    {Msg::not_hdf5, "not_hdf5", ErrorKind::corrupt_profile,
     "{path} is not a readable HDF5 profiling file. A run that was interrupted while writing "
     "leaves a truncated file behind; the underlying error was: {underlying}",
     "This HDF5 file is damaged or incomplete, so it cannot be opened. A run interrupted while "
     "writing its profile, or a copy cut short, leaves such a file. (HDF5 says: {underlying})"},
    {Msg::not_hdf5_no_signature, "not_hdf5_no_signature", ErrorKind::corrupt_profile,
     "{path} is not a readable HDF5 profiling file. A run that was interrupted while writing "
     "leaves a truncated file behind; the underlying error was: {underlying}",
     "This is not an HDF5 file: it has no HDF5 signature. scope-profiler writes its profiles as "
     "HDF5 files (.h5)."},
    {Msg::not_hdf5_empty, "not_hdf5_empty", ErrorKind::corrupt_profile,
     "{path} is not a readable HDF5 profiling file. A run that was interrupted while writing "
     "leaves a truncated file behind; the underlying error was: {underlying}",
     "The file is empty (0 bytes). A run that stopped before writing its profile leaves such a "
     "file."},
    {Msg::corrupt_file, "corrupt_file", ErrorKind::corrupt_profile, "{path}: {detail}",
     "The file is damaged, or it is not a scope-profiler profile: {detail}."},
    {Msg::truncated_index, "truncated_index", ErrorKind::corrupt_profile,
     "{path} claims {claimed} recorded events but its event columns hold {held}. The file is "
     "truncated or damaged.",
     "The file is truncated or damaged: its index lists {claimed} recorded calls, but it holds "
     "only {held}."},
    {Msg::overlapping_index, "overlapping_index", ErrorKind::corrupt_profile,
     "{path} has overlapping region rows in its event index. The file is damaged.",
     "The file is damaged: two regions claim the same recorded calls."},
    {Msg::schema_not_integer, "schema_not_integer", ErrorKind::schema,
     "HDF5 schema version attribute 'scope_profiler_schema' must be an integer, got {repr}",
     "This is not a scope-profiler profile, or it is damaged: its format version "
     "(scope_profiler_schema) is {repr}, not a whole number."},
    {Msg::schema_not_positive, "schema_not_positive", ErrorKind::schema,
     "Unsupported scope-profiler HDF5 schema version {version}; versions must be positive",
     "This is not a scope-profiler profile, or it is damaged: its format version is {version}, "
     "and versions start at 1."},
    {Msg::schema_too_new, "schema_too_new", ErrorKind::schema,
     "Unsupported scope-profiler HDF5 schema version {version}; this package supports versions "
     "through 3. Upgrade scope-profiler to read this file.",
     "This profile was written by a newer scope-profiler (format version {version}); this "
     "converter reads versions 1 to 3."},
    // ---- damaged files (ours) --------------------------------------------------------
    {Msg::negative_index_value, "negative_index_value", ErrorKind::corrupt_profile,
     "{path}: {dataset}[{row}] is {value}, which cannot be negative. The file is damaged.",
     "The file is damaged: its index of recorded calls holds a negative number ({dataset}[{row}] "
     "is {value})."},
    {Msg::rank_out_of_range, "rank_out_of_range", ErrorKind::corrupt_profile,
     "{path}: {dataset}[{row}] is {value}, not an MPI rank. The file is damaged.",
     "The file is damaged: it names rank {value}, which no MPI run has."},
    {Msg::thread_id_out_of_range, "thread_id_out_of_range", ErrorKind::corrupt_profile,
     "{path}: {dataset}[{row}] is {value}, not a thread index. The file is damaged.",
     "The file is damaged: a recorded call names thread {value}, which cannot exist."},
    {Msg::decoded_time_overflow, "decoded_time_overflow", ErrorKind::corrupt_profile,
     "{path}: the times decoded from {dataset} overflow 64-bit nanoseconds at {dataset}[{row}]. "
     "The file is damaged.",
     "The file is damaged: its recorded times add up to more than 292 years ({dataset}[{row}])."},
    {Msg::bad_mpi_size, "bad_mpi_size", ErrorKind::corrupt_profile,
     "{path}: metadata attribute 'mpi_size' is {repr}, not a number of ranks. The file is "
     "damaged.",
     "The file is damaged: its number of MPI ranks (mpi_size) is {repr}."},
    {Msg::declared_size_exceeds_storage, "declared_size_exceeds_storage",
     ErrorKind::corrupt_profile,
     "{path}: dataset '{dataset}' declares {values} values ({declared} bytes) but the file holds "
     "only {stored} bytes of data for it. The file is truncated or damaged.",
     "The file is truncated or damaged: {dataset} should hold {values} values, but the file has "
     "data for far fewer."},
    {Msg::strings_exceed_file, "strings_exceed_file", ErrorKind::corrupt_profile,
     "{path}: {where} declares {declared} bytes of text, more than the whole file holds ({size} "
     "bytes). The file is damaged.",
     "The file is damaged: {where} claims {declared} bytes of text in a file of {size} bytes."},
    {Msg::damaged_string, "damaged_string", ErrorKind::corrupt_profile,
     "{path}: {where} is damaged: its stored length and its text disagree. The file is damaged.",
     "The file is damaged: the text of {where} does not match its stored length."},
    {Msg::duplicate_region_name, "duplicate_region_name", ErrorKind::corrupt_profile,
     "{path}: {dataset}[{row}] repeats {dataset}[{first}] ({name}): every region is listed once. "
     "The file is damaged.",
     "The file is damaged: the region {name} is listed twice."},
    {Msg::group_reached_twice, "group_reached_twice", ErrorKind::corrupt_profile,
     "{path}: group '{group}' is reached twice through links (a cycle). The file is damaged.",
     "The file is damaged: its group {group} is linked into itself (a cycle)."},
    {Msg::converter_stopped, "converter_stopped", ErrorKind::corrupt_profile,
     "{path}: the file is damaged: the converter stopped ({what})",
     "The file is damaged: the converter stopped on it ({what}). Other files still convert."},
    {Msg::file_unreadable, "file_unreadable", ErrorKind::io,
     "{path}: cannot read the file: {reason}",
     "The file could not be read ({reason}). If it was moved, changed or removed since it was "
     "chosen, choose it again."},
    {Msg::file_shrank, "file_shrank", ErrorKind::io,
     "it ends at byte {offset}, before the {size} bytes it had when it was opened (it was changed "
     "meanwhile)",
     "it ends at byte {offset}, before the {size} bytes it had when it was opened (it was changed "
     "meanwhile)"},
    {Msg::too_large, "too_large", ErrorKind::memory,
     "{path}: {what} needs more than {limit} of memory, the most scope-speedscope gives one file "
     "(the same on the command line, in Node and in the page)",
     "This file is too large for scope-speedscope: {what} needs more than {limit} of memory, the "
     "most it gives one file."},
    {Msg::too_large_for_machine, "too_large_for_machine", ErrorKind::memory,
     "{path}: {what} needs more than {limit} of memory, all the memory this machine has",
     "This file is too large for this machine: {what} needs more than {limit} of memory, all "
     "the memory it has."},
    {Msg::unsupported_filter, "unsupported_filter", ErrorKind::corrupt_profile,
     "{path}: dataset '{dataset}' is compressed with HDF5 filter {filter} ({name}), which this "
     "build of scope-speedscope cannot decode",
     "This file is compressed with HDF5 filter {filter} ({name}), which scope-speedscope cannot "
     "decode: it reads profiles compressed with gzip, LZF or Zstandard, with or without shuffle."},
    {Msg::source_values_unknown, "source_values_unknown", ErrorKind::corrupt_profile,
     "{path}: {values} source location value(s) could not be used and are read as unknown "
     "(the first: {first})",
     "Some source locations in this file are damaged and are shown as unknown ({first})."},
    // ---- a job written one file per process ----------------------------------------
    {Msg::job_same_rank, "job_same_rank", ErrorKind::value,
     "{first} and {second} both hold rank {rank}: the files of one job must hold different "
     "ranks (two runs of the same ranks are compared, not joined)",
     "{first} and {second} both hold rank {rank}, so they cannot be opened as one job: choose "
     "each process's file once, or two runs to compare."},
    {Msg::job_not_one_job, "job_not_one_job", ErrorKind::value,
     "{first} and {second} are not files of one job: {why}",
     "{first} and {second} cannot be opened as one job: {why}."},
    // ---- export ------------------------------------------------------------------
    {Msg::no_profiling_data, "no_profiling_data", ErrorKind::value, "No profiling data provided.",
     "No file was given to convert."},
    {Msg::no_regions_matched, "no_regions_matched", ErrorKind::value,
     "No regions matched the selected filters.",
     "No region is left after the include and exclude filters."},
    {Msg::no_calls_recorded, "no_calls_recorded", ErrorKind::value,
     "No calls recorded for the requested ranks.", "The selected ranks recorded no calls."},
    {Msg::invalid_rank, "invalid_rank", ErrorKind::value, "Invalid rank requested: {rank}",
     "There is no rank {rank} in this run: {valid}."},
    {Msg::ends_before_starts, "ends_before_starts", ErrorKind::nesting,
     "a recorded call ends before it starts",
     "The profile is damaged: a recorded call ends before it starts."},
    {Msg::not_properly_nested, "not_properly_nested", ErrorKind::nesting,
     "recorded calls are not properly nested",
     "The recorded calls do not nest: a call starts inside another and ends after it."},
    {Msg::calls_overlap, "calls_overlap", ErrorKind::nesting,
     "recorded calls are not properly nested: {child} starts inside {parent} but ends after it. "
     "Regions must nest completely or not overlap at all - check for a missing or misordered "
     "sp_end / __exit__.",
     "Two recorded calls overlap without nesting: {child} starts inside {parent} but ends after "
     "it. In the profiled program, regions must nest completely or not overlap at all; look for "
     "a missing or misplaced sp_end / __exit__."},
    {Msg::too_many_calls, "too_many_calls", ErrorKind::value,
     "a rank with more than 4294967295 calls is not supported",
     "A rank holds more than 4,294,967,295 calls, more than this converter supports."},
    {Msg::invalid_regex, "invalid_regex", ErrorKind::pattern,
     "Invalid regular expression '{pattern}': {detail}",
     "The filter '{pattern}' is not a valid regular expression: {detail}."},
    {Msg::pattern_too_complex, "pattern_too_complex", ErrorKind::pattern,
     "Regular expression '{pattern}' needs too much backtracking to match a region name of "
     "{length} characters; simplify it",
     "The filter '{pattern}' needs too much work to match a region name of {length} characters: "
     "simplify it."},
    {Msg::pattern_match_failed, "pattern_match_failed", ErrorKind::pattern,
     "Regular expression '{pattern}' failed to match: {detail}",
     "The filter '{pattern}' failed to match: {detail}."},
    {Msg::empty_output_name, "empty_output_name", ErrorKind::value,
     "PosixPath('{path}') has an empty name", "The output file name is empty."},
    {Msg::cannot_write, "cannot_write", ErrorKind::io, "cannot write {path}: {reason}",
     "Cannot write {path}: {reason}."},
    {Msg::cannot_create_directory, "cannot_create_directory", ErrorKind::io,
     "cannot create directory {path}: {reason}", "Cannot create the folder {path}: {reason}."},
    {Msg::output_failed, "output_failed", ErrorKind::io, "{detail}",
     "Writing the output failed: {detail}"},
    // ---- narrowing (ours) --------------------------------------------------------
    {Msg::invalid_duration, "invalid_duration", ErrorKind::value,
     "{option}: invalid duration '{text}' (expected seconds such as 1e-4 or 0.5, or a number "
     "with a unit: 500ns, 100us, 2ms, 1s)",
     "'{text}' is not a duration: write seconds (1e-4, 0.5) or a number with a unit (500ns, "
     "100us, 2ms, 1s)."},
    {Msg::invalid_time_window, "invalid_time_window", ErrorKind::value,
     "{option}: invalid time window '{text}' (expected START:END in seconds from the run's first "
     "call, e.g. 2:5, 0.5:, :10, or with units: 100ms:250ms)",
     "'{text}' is not a time window: write START:END in seconds from the run's first call (2:5, "
     "0.5:, :10, 100ms:250ms)."},
    {Msg::time_window_backwards, "time_window_backwards", ErrorKind::value,
     "{option}: invalid time window '{text}' (END must be after START)",
     "The time window '{text}' ends before it starts: END must be after START."},
    {Msg::nothing_left_min, "nothing_left_min", ErrorKind::value,
     "No calls left for the requested ranks: none lasts at least {min} (min-duration).",
     "No call of the selected ranks lasts {min} or longer: choose a shorter minimum duration."},
    {Msg::nothing_left_window, "nothing_left_window", ErrorKind::value,
     "No calls left for the requested ranks: none overlaps the time window {window} "
     "(time-window, seconds from the run's first call).",
     "No call of the selected ranks falls in the time window {window} (seconds from the run's "
     "first call)."},
    {Msg::nothing_left_both, "nothing_left_both", ErrorKind::value,
     "No calls left for the requested ranks: none lasts at least {min} (min-duration) and "
     "overlaps the time window {window} (time-window, seconds from the run's first call).",
     "No call of the selected ranks lasts {min} or longer within the time window {window} "
     "(seconds from the run's first call)."},
    // ---- shells ------------------------------------------------------------------
    {Msg::usage, "usage", ErrorKind::usage, "{detail}", "{detail}"},
    {Msg::bad_argument, "bad_argument", ErrorKind::value, "{detail}", "{detail}"},
    {Msg::out_of_memory, "out_of_memory", ErrorKind::memory, "out of memory",
     "There is not enough memory to convert this file."},
    {Msg::internal, "internal", ErrorKind::internal, "{detail}",
     "The converter failed unexpectedly: {detail}"},
};

const Entry& entry(Msg id) {
  const auto i = static_cast<std::size_t>(id);
  if (i < sizeof kMessages / sizeof kMessages[0] && kMessages[i].id == id) return kMessages[i];
  for (const Entry& e : kMessages) {
    if (e.id == id) return e;
  }
  return kMessages[sizeof kMessages / sizeof kMessages[0] - 1];
}

std::string fill(const char* text, const MessageArgs& args) {
  std::string out;
  for (const char* p = text; *p != '\0'; ++p) {
    if (*p == '{') {
      const char* close = p + 1;
      while (*close != '\0' && *close != '}') ++close;
      if (*close == '}') {
        const std::string name(p + 1, close);
        for (const auto& [key, value] : args) {
          if (key == name) {
            out += value;
            p = close;
            break;
          }
        }
        if (p == close) continue;
      }
    }
    out += *p;
  }
  return out;
}

}  // namespace

Error::Error(Msg id, const MessageArgs& args) : Error(id, entry(id).kind, args) {}

Error::Error(Msg id, ErrorKind kind, const MessageArgs& args)
    : std::runtime_error(fill(entry(id).text, args)), id_(id), kind_(kind), args_(args) {}

const char* Error::kind_name() const noexcept {
  switch (kind_) {
    case ErrorKind::value: return "ValueError";
    case ErrorKind::nesting: return "NestingError";
    case ErrorKind::corrupt_profile: return "CorruptProfileError";
    case ErrorKind::schema: return "HDF5SchemaError";
    case ErrorKind::file_not_found: return "FileNotFoundError";
    case ErrorKind::io: return "OSError";
    case ErrorKind::usage: return "UsageError";
    case ErrorKind::memory: return "MemoryError";
    case ErrorKind::internal: return "Error";
    case ErrorKind::pattern: return "PatternError";
  }
  return "Error";
}

const char* Error::code() const noexcept { return entry(id_).code; }

std::string Error::people_message() const { return fill(entry(id_).people, args_); }

Error& Error::reword(Msg id) {
  if (std::string(entry(id).text) == entry(id_).text) id_ = id;
  return *this;
}

std::string message_text(Msg id, const MessageArgs& args) { return fill(entry(id).text, args); }

bool message_of_code(const std::string& code, Msg& id) {
  for (const Entry& e : kMessages) {
    if (code == e.code) {
      id = e.id;
      return true;
    }
  }
  return false;
}

namespace messages {
std::string valid_ranks(long long num_ranks) {
  if (num_ranks <= 0) return "it has no ranks";
  if (num_ranks == 1) return "its only rank is 0";
  return "its ranks are 0 to " + std::to_string(num_ranks - 1);
}
}  // namespace messages

}  // namespace scope_speedscope
