// read: each region row's source location (file, line, text), only when a
// read asks for it (ReadPlan::sources). One rule for bad values: a value of
// the wrong type, a column of the wrong length or one that cannot be read,
// a line below -1, a string longer than 4 KiB is read as unknown ("", -1,
// ""), counted, and said once in the run's warnings; it never fails the
// read. Only a source that could not give bytes (the file changed, a read
// error) still fails it, as it fails every read.
#include <string>
#include <vector>

#include "read/h5_detail.hpp"
#include "read/h5_driver.hpp"

namespace scope_speedscope::h5 {
namespace {

// The longest file name or source text kept, in bytes of UTF-8.
constexpr std::size_t kSourceStringLimit = 4096;

void problem(File& f, const std::string& what) {
  if (f.source_problems++ == 0) f.first_source_problem = what;
}

// Runs `read`; an Error from it is a problem about `what`, unless the
// source failed (then the read fails as every read does).
template <class Read>
bool tolerant(File& f, const std::string& what, Read&& read) {
  try {
    read();
    return true;
  } catch (const Error& e) {
    if (f.source != nullptr && !f.source->failure.empty()) throw;
    H5Eclear2(H5E_DEFAULT);
    std::string reason = e.what();
    const std::string prefix = f.path + ": ";
    if (reason.compare(0, prefix.size(), prefix) == 0) reason.erase(0, prefix.size());
    problem(f, what + " could not be read (" + reason + ")");
    return false;
  }
}

// A kept string, or "" (a problem) when it is longer than the limit.
std::string capped(File& f, std::string&& value, const std::string& what) {
  if (value.size() <= kSourceStringLimit) return std::move(value);
  problem(f, what + " holds " + std::to_string(value.size()) + " bytes, more than 4 KiB");
  return {};
}

int64_t checked_line(File& f, int64_t line, const std::string& what) {
  if (line >= -1) return line;
  problem(f, what + " is " + std::to_string(line) + ", not a line number");
  return -1;
}

bool holds_integers(File& f, const std::string& path) {
  Handle dset = open_dataset(f, f.file.get(), path);
  Handle type(H5Dget_type(dset.get()), H5Tclose);
  return type.valid() && H5Tget_class(type.get()) == H5T_INTEGER;
}

// A column of the index: its values when it is there, readable and `rows`
// long; else nothing (absent: no problem; otherwise one).
template <class Value, class ReadColumn>
std::vector<Value> index_column(File& f, const std::string& path, std::size_t rows,
                                ReadColumn&& read_column) {
  std::vector<Value> values;
  if (!link_exists(f.file.get(), path)) return values;
  const uint64_t memory = f.memory;
  bool read = tolerant(f, "dataset '" + path + "'", [&] { values = read_column(path); });
  f.memory = memory;  // what is kept is claimed below
  if (read && values.size() != rows) {
    problem(f, "dataset '" + path + "' has " + std::to_string(values.size()) + " values where " +
                   std::to_string(rows) + " were expected");
    read = false;
  }
  if (!read) values.clear();
  return values;
}

std::vector<std::string> string_column(File& f, const std::string& path, std::size_t rows) {
  std::vector<std::string> values = index_column<std::string>(
      f, path, rows, [&](const std::string& p) { return read_string_column(f, f.file.get(), p); });
  for (std::size_t i = 0; i < values.size(); ++i) {
    values[i] = capped(f, std::move(values[i]), path + "[" + std::to_string(i) + "]");
  }
  return values;
}

std::vector<int64_t> line_column(File& f, const std::string& path, std::size_t rows) {
  if (link_exists(f.file.get(), path)) {
    bool integers = false;
    if (!tolerant(f, "dataset '" + path + "'", [&] { integers = holds_integers(f, path); })) {
      return {};
    }
    if (!integers) {
      problem(f, "dataset '" + path + "' does not hold integers");
      return {};
    }
  }
  std::vector<int64_t> values = index_column<int64_t>(
      f, path, rows, [&](const std::string& p) { return read_int64_column(f, f.file.get(), p); });
  for (std::size_t i = 0; i < values.size(); ++i) {
    values[i] = checked_line(f, values[i], path + "[" + std::to_string(i) + "]");
  }
  return values;
}

// A string attribute of a region group, "" when absent or bad.
std::string string_attribute(File& f, hid_t group, const std::string& name,
                             const std::string& where) {
  const std::string what = "attribute '" + name + "' of " + where;
  std::optional<AttributeValue> value;
  if (!tolerant(f, what, [&] { value = read_attribute(f, group, name); }) || !value) return {};
  if (value->type != AttributeValue::Type::string) {
    problem(f, what + " is not a string");
    return {};
  }
  return capped(f, std::move(value->string), what);
}

int64_t line_attribute(File& f, hid_t group, const std::string& where) {
  const std::string what = "attribute 'source_lineno' of " + where;
  std::optional<AttributeValue> value;
  if (!tolerant(f, what, [&] { value = read_attribute(f, group, "source_lineno"); }) || !value)
    return -1;
  if (value->type != AttributeValue::Type::integer) {
    problem(f, what + " is not an integer");
    return -1;
  }
  return checked_line(f, value->integer, what);
}

void claim_kept(File& f, const SourceLocation& s) {
  f.memory += 32 * 2 + s.file.size() + s.text.size() + sizeof s.line;
}

}  // namespace

uint32_t read_group_source(File& f, hid_t group, const std::string& where, Run& run) {
  run.sources_read = true;
  SourceLocation s;
  s.file = string_attribute(f, group, "source_file", where);
  s.line = line_attribute(f, group, where);
  s.text = string_attribute(f, group, "source_text", where);
  claim_kept(f, s);
  run.sources.push_back(std::move(s));
  return static_cast<uint32_t>(run.sources.size() - 1);
}

void read_index_sources(File& f, Run& run, std::size_t rows) {
  run.sources_read = true;
  std::vector<std::string> files = string_column(f, "rank_region_index/source_files", rows);
  const std::vector<int64_t> lines = line_column(f, "rank_region_index/source_lines", rows);
  std::vector<std::string> texts = string_column(f, "rank_region_index/source_texts", rows);
  run.sources.assign(rows, SourceLocation{});
  for (std::size_t p = 0; p < rows; ++p) {
    SourceLocation& s = run.sources[p];
    if (!files.empty()) s.file = std::move(files[p]);
    if (!lines.empty()) s.line = lines[p];
    if (!texts.empty()) s.text = std::move(texts[p]);
    claim_kept(f, s);
  }
}

void finish_sources(const File& f, Run& run) {
  if (!f.sources) return;
  run.sources_read = true;  // a file without regions too
  choose_region_sources(run);
  if (f.source_problems == 0) return;
  run.warnings.push_back(
      message_text(Msg::source_values_unknown, {{"path", f.path},
                                                {"values", std::to_string(f.source_problems)},
                                                {"first", f.first_source_problem}}));
}

}  // namespace scope_speedscope::h5
