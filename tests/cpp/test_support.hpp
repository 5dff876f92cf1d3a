// Shared helpers of the test suite: fixture locations, temporary folders,
// byte comparison with a readable first difference, the case list of
// cases.json, the generated tables, and in-memory runs.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "export/export.hpp"
#include "export/narrow.hpp"
#include "model/run.hpp"
#include "reconstruct/streams.hpp"
#include "text/messages.hpp"
#include "write/speedscope_format.hpp"

#include "test_paths.hpp"

namespace scope_speedscope::test {

namespace fs = std::filesystem;

// tests/fixtures in the source tree (cases.json, h5/, expected/).
inline std::string shared_dir() { return SCOPE_TEST_FIXTURES_DIR; }
// Written at build time by tests/fixtures/gen/make_fixtures.py.
inline std::string generated_dir() { return SCOPE_TEST_GENERATED_DIR; }
// Written at build time by tests/fixtures/gen/make_tables.py.
inline std::string tables_dir() { return SCOPE_TEST_TABLES_DIR; }

inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline void write_bytes(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary);
  out << data;
  if (!out) throw std::runtime_error("cannot write " + path);
}

// A fresh folder under the build tree, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    fs::path base = fs::path(SCOPE_TEST_TMP_DIR);
    fs::create_directories(base);
    std::string pattern = (base / "t-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& rel) const { return path_ + "/" + rel; }

 private:
  std::string path_;
};

// Every entry below `dir` (files and folders), relative, sorted; folders end in '/'.
inline std::vector<std::string> entries_under(const std::string& dir) {
  std::vector<std::string> out;
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    std::string rel = fs::relative(e.path(), dir).string();
    out.push_back(e.is_directory() ? rel + "/" : rel);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Regular files below `dir`, relative, sorted.
inline std::vector<std::string> files_under(const std::string& dir) {
  std::vector<std::string> out;
  for (auto& e : entries_under(dir)) {
    if (e.back() != '/') out.push_back(e);
  }
  return out;
}

// The damaged and hostile files (tests/fixtures/bad) and the campaign's
// mutations of good files, every .h5 of both, as paths.
inline std::vector<std::string> damaged_files() {
  std::vector<std::string> out;
  for (const std::string& dir : {shared_dir() + "/bad", std::string(SCOPE_TEST_MUTATIONS_DIR)}) {
    for (const std::string& f : files_under(dir)) {
      if (f.size() > 3 && f.substr(f.size() - 3) == ".h5") out.push_back(dir + "/" + f);
    }
  }
  return out;
}

// `run` with none of its events (its columns empty, its tables kept): what
// append_events fills again in another order.
inline Run without_events(const Run& run) {
  Run out = run;
  out.start_ns.clear();
  out.end_ns.clear();
  out.lane.clear();
  return out;
}

// Appends `from`'s events [offset, offset + count) (start, end and lane)
// to `to`'s columns; returns where they begin there.
inline uint64_t append_events(const Run& from, uint64_t offset, uint64_t count, Run& to) {
  const uint64_t at = to.start_ns.size();
  for (uint64_t e = offset; e < offset + count; ++e) {
    to.start_ns.push_back(from.start_ns[e]);
    to.end_ns.push_back(from.end_ns[e]);
    if (from.lane_column) to.lane.push_back(from.lane[e]);
  }
  return at;
}

// "" when equal; else where and how the two differ, with some context.
inline std::string first_difference(const std::string& got, const std::string& want) {
  if (got == want) return "";
  std::size_t i = 0;
  while (i < got.size() && i < want.size() && got[i] == want[i]) ++i;
  std::size_t from = i > 80 ? i - 80 : 0;
  std::ostringstream s;
  s << "sizes " << got.size() << " (got) vs " << want.size() << " (want); first difference at byte "
    << i << "\n  got:  ..." << got.substr(from, 160) << "\n  want: ..." << want.substr(from, 160);
  return s.str();
}

inline std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  if (from.empty()) return text;
  std::size_t pos = 0;
  while ((pos = text.find(from, pos)) != std::string::npos) {
    text.replace(pos, from.size(), to);
    pos += to.size();
  }
  return text;
}

inline const std::string& python_exporter() {
  static const std::string s = "\"exporter\": \"scope-profiler@0.7.3\"";
  return s;
}
inline std::string our_exporter() {
  return std::string("\"exporter\": \"") + EXPORTER_PREFIX + VERSION + "\"";
}
// Expected bytes (written by scope-profiler) as we must write them.
inline std::string as_ours(const std::string& python_bytes) {
  return replace_all(python_bytes, python_exporter(), our_exporter());
}
// Our bytes with the exporter value swapped back to scope-profiler's.
inline std::string as_python(const std::string& our_bytes) {
  return replace_all(our_bytes, our_exporter(), python_exporter());
}

// ---- cases.json ------------------------------------------------------------------

struct CaseOutput {
  std::string file;    // relative to the output folder
  std::string sha256;  // of the bytes with scope-profiler's exporter value
  uint64_t bytes = 0;
  std::string expected;  // absolute path of the expected file, or "" (large case)
};

struct Case {
  std::string set;  // "shared" or "generated"
  std::string name;
  std::vector<std::string> inputs;  // absolute paths
  std::string filepath;
  std::optional<std::vector<int64_t>> ranks;
  std::optional<std::vector<std::string>> include;
  std::optional<std::vector<std::string>> exclude;
  std::optional<std::string> min_duration;  // narrowing (generated cases only)
  std::optional<std::string> time_window;
  std::vector<CaseOutput> outputs;
  bool is_error = false;
  std::string error_kind;
  std::string error_message;  // {path} still in it
  // Generated cases: what the error blames (Error::field/index/file; file is
  // the input's file name). Absent from the shared cases.
  bool has_error_context = false;
  std::string error_code;  // Error::code()
  std::string error_field;
  long long error_index = -1;
  std::string error_file;
};

inline std::optional<std::string> optional_string(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<std::string>();
}

inline std::optional<std::vector<std::string>> string_list(const nlohmann::json& j) {
  if (j.is_null()) return std::nullopt;
  return j.get<std::vector<std::string>>();
}

// The cases of `root`/cases.json; inputs live in `root`/h5.
// The cases of <root>/<file>: inputs under <root>/h5, expected outputs under <root>.
inline std::vector<Case> load_cases(const std::string& set, const std::string& root,
                                    const std::string& file = "cases.json") {
  std::vector<Case> out;
  std::ifstream in(root + "/" + file);
  if (!in) return out;  // checked by TEST(cases, case_lists_load)
  nlohmann::json all = nlohmann::json::parse(in);
  for (const auto& j : all) {
    Case c;
    c.set = set;
    c.name = j.at("name").get<std::string>();
    for (const auto& input : j.at("inputs"))
      c.inputs.push_back(root + "/h5/" + input.get<std::string>());
    c.filepath = j.at("filepath").get<std::string>();
    if (!j.at("ranks").is_null()) c.ranks = j.at("ranks").get<std::vector<int64_t>>();
    c.include = string_list(j.at("include"));
    c.exclude = string_list(j.at("exclude"));
    c.min_duration = optional_string(j, "min_duration");
    c.time_window = optional_string(j, "time_window");
    if (j.contains("error")) {
      const auto& err = j.at("error");
      c.is_error = true;
      c.error_kind = err.at("kind").get<std::string>();
      c.error_message = err.at("message").get<std::string>();
      if (err.contains("field")) {
        c.has_error_context = true;
        c.error_code = err.at("code").get<std::string>();
        c.error_field = optional_string(err, "field").value_or("");
        c.error_index = err.at("index").is_null() ? -1 : err.at("index").get<long long>();
        c.error_file = optional_string(err, "file").value_or("");
      }
    } else {
      for (const auto& o : j.at("outputs")) {
        CaseOutput co;
        co.file = o.at("file").get<std::string>();
        co.sha256 = o.at("sha256").get<std::string>();
        co.bytes = o.at("bytes").get<uint64_t>();
        if (o.contains("expected") && !o.at("expected").is_null()) {
          co.expected = root + "/" + o.at("expected").get<std::string>();
        }
        c.outputs.push_back(co);
      }
    }
    out.push_back(c);
    // The files holding only the kept calls export to the same bytes.
    if (j.contains("narrowed_inputs")) {
      Case plain = c;
      plain.name += "_narrowed_file";
      plain.inputs.clear();
      for (const auto& input : j.at("narrowed_inputs")) {
        plain.inputs.push_back(root + "/h5/" + input.get<std::string>());
      }
      plain.min_duration.reset();
      plain.time_window.reset();
      out.push_back(plain);
    }
  }
  return out;
}

// The case's narrowing options, as the API takes them.
inline Narrowing narrowing_of(const Case& c) {
  Narrowing n;
  if (c.min_duration) set_min_duration(n, *c.min_duration, "minDuration", false);
  if (c.time_window) set_time_window(n, *c.time_window, "timeWindow", false);
  return n;
}

inline std::vector<Case> all_cases() {
  std::vector<Case> cases = load_cases("shared", shared_dir());
  for (auto& c : load_cases("generated", generated_dir())) cases.push_back(c);
  // The compressed twins (tests/fixtures/gen/make_compressed.py): the
  // shared cases again, the same bytes or messages, and the hostile chunks.
  for (auto& c : load_cases("compressed", shared_dir(), "compressed-cases.json"))
    cases.push_back(c);
  return cases;
}

inline std::string case_test_name(const Case& c) { return c.set + "_" + c.name; }
inline void PrintTo(const Case& c, std::ostream* os) { *os << c.set << "/" << c.name; }

// ---- generated tables --------------------------------------------------------------

inline std::string unhex(const std::string& hex) {
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  }
  return out;
}

// Lines "<key> <value>" of a table written by make_tables.py (after its
// "# count N" line, which is checked).
inline std::vector<std::pair<std::string, std::string>> load_table(const std::string& name) {
  std::ifstream in(tables_dir() + "/" + name);
  if (!in) throw std::runtime_error("missing table " + name);
  std::string line;
  std::getline(in, line);
  const std::size_t count = std::stoul(line.substr(std::string("# count ").size()));
  std::vector<std::pair<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    const auto space = line.find(' ');
    rows.emplace_back(line.substr(0, space), line.substr(space + 1));
  }
  if (rows.size() != count) throw std::runtime_error("truncated table " + name);
  return rows;
}

// Checks every row of a Python table: `differs(key, value)` returns what
// differs from Python's answer, or "" when ours is the same. Reports the
// first ten differences and fails on any.
template <class Differs>
void expect_python_table(const std::string& name, std::size_t min_rows, Differs&& differs) {
  const auto table = load_table(name);
  ASSERT_GT(table.size(), min_rows) << name;
  int failures = 0;
  for (const auto& [key, value] : table) {
    const std::string difference = differs(key, value);
    if (!difference.empty() && ++failures <= 10) ADD_FAILURE() << name << ": " << difference;
  }
  EXPECT_EQ(failures, 0) << name;
}

// ---- in-memory runs ------------------------------------------------------------------

// The calls one region made on one rank; lanes empty or one per call.
// The documents an export writes, in memory, with the names it gave them.
class CollectTarget final : public OutputTarget {
 public:
  Sink& open(const std::string& path) override {
    names.push_back(path);
    docs.emplace_back();
    return docs.back();
  }
  Sink& resume() override { return docs.back(); }
  void close() override {}
  void commit() override { committed = true; }
  void abort() noexcept override { ++aborts; }
  std::vector<std::string> names;
  std::vector<StringSink> docs;
  bool committed = false;
  int aborts = 0;
};

struct SliceSpec {
  std::string region;
  int64_t rank = 0;
  std::vector<std::pair<int64_t, int64_t>> calls;
  std::vector<int64_t> lanes;
};

// A Run as the reader would build it: regions in first-appearance order,
// events appended slice after slice. With lane_column, calls without lanes
// get -1.
inline Run make_run(const std::vector<SliceSpec>& slices, bool lane_column = false) {
  Run run;
  run.path = "memory.h5";
  run.schema_version = 3;
  run.storage_layout = "columnar";
  run.lane_column = lane_column;
  std::map<std::string, std::size_t> index;
  for (const SliceSpec& s : slices) {
    auto it = index.find(s.region);
    if (it == index.end()) {
      it = index.emplace(s.region, run.regions.size()).first;
      run.regions.push_back(Region{s.region, {}});
    }
    RankSlice slice;
    slice.rank = s.rank;
    slice.offset = run.start_ns.size();
    slice.count = s.calls.size();
    run.regions[it->second].ranks.push_back(slice);
    for (std::size_t k = 0; k < s.calls.size(); ++k) {
      run.start_ns.push_back(s.calls[k].first);
      run.end_ns.push_back(s.calls[k].second);
      if (lane_column) run.lane.push_back(s.lanes.empty() ? -1 : s.lanes.at(k));
    }
    run.num_ranks = std::max<int64_t>(run.num_ranks, s.rank + 1);
  }
  return run;
}

inline std::vector<uint32_t> all_regions(const Run& run) {
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < run.regions.size(); ++i) out.push_back(i);
  return out;
}

// The streamed form (calls produced on demand from the columns, one stream
// a lane), read out; `kinds` collects which streams were used.
inline RankCalls materialize(RankCalls rc, std::set<std::string>* kinds = nullptr) {
  if (rc.streams.empty()) {
    if (kinds && !rc.calls.empty()) kinds->insert("reference");
    return rc;
  }
  EXPECT_EQ(rc.streams.size(), rc.lanes.size());
  for (std::size_t l = 0; l < rc.streams.size() && l < rc.lanes.size(); ++l) {
    CallStream& stream = *rc.streams[l];
    if (kinds) kinds->insert(dynamic_cast<MergedCalls*>(&stream) ? "merged" : "indexed");
    EXPECT_TRUE(stream.summary().valid);
    stream.rewind();
    const std::size_t begin = rc.calls.size();
    std::vector<scope_speedscope::Call> block(3);  // small blocks: boundaries matter
    for (std::size_t n; (n = stream.next(block.data(), block.size())) > 0;) {
      rc.calls.insert(rc.calls.end(), block.begin(),
                      block.begin() + static_cast<std::ptrdiff_t>(n));
    }
    EXPECT_EQ(rc.calls.size() - begin, stream.size());
    rc.lanes[l].begin = begin;
    rc.lanes[l].end = rc.calls.size();
  }
  rc.streams.clear();
  return rc;
}
// "lane -1: outer[0,100]d0 inner[10,40]d1 | lane 0: ..." (Lane ranges are checked).
inline std::string describe(const Run& run, const RankCalls& calls) {
  std::ostringstream s;
  std::size_t expect_begin = 0;
  for (std::size_t l = 0; l < calls.lanes.size(); ++l) {
    const Lane& lane = calls.lanes[l];
    if (l) s << " | ";
    s << "lane " << lane.lane << ":";
    if (lane.begin != expect_begin || lane.end < lane.begin || lane.end > calls.calls.size()) {
      s << " <bad range " << lane.begin << ".." << lane.end << ">";
    }
    expect_begin = lane.end;
    for (std::size_t i = lane.begin; i < lane.end && i < calls.calls.size(); ++i) {
      const Call& c = calls.calls[i];
      s << " " << (c.region < run.regions.size() ? run.regions[c.region].name : "?") << "["
        << c.start_ns << "," << c.end_ns << "]d" << c.depth;
    }
  }
  if (expect_begin != calls.calls.size()) s << " <calls outside lanes>";
  return s.str();
}

// Either describe(...) or "error <kind>: <message>".
template <typename F>
std::string outcome(const Run& run, F&& build) {
  try {
    return describe(run, build());
  } catch (const Error& e) {
    return std::string("error ") + e.kind_name() + ": " + e.what();
  }
}

inline std::string nesting_message(const std::string& child, const std::string& parent) {
  return "recorded calls are not properly nested: " + child + " starts inside " + parent +
         " but ends after it. Regions must nest completely or not overlap at all - check for "
         "a missing or misordered sp_end / __exit__.";
}

}  // namespace scope_speedscope::test
