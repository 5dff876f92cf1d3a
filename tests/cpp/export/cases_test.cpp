// Every case of tests/fixtures/cases.json (scope-profiler's own outputs) and
// of the generated cases (build/.../generated/cases.json, expected bytes from
// tests/fixtures/gen/reference_export.py) through the library: read_run for
// each input, then export_speedscope into a fresh folder.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "export/export.hpp"
#include "read/h5_reader.hpp"
#include "sha256.hpp"
#include "test_support.hpp"

namespace scope_speedscope::test {
namespace {

struct LibraryResult {
  bool ok = false;
  std::string kind;
  std::string message;
  std::string code;
  std::string people;
  std::string field;
  long long index = -1;
  std::string file;
  std::vector<std::string> written;
};

LibraryResult run_library(const Case& c, const std::string& filepath, std::size_t flush_size) {
  LibraryResult r;
  try {
    ExportOptions options;
    options.ranks = c.ranks;
    options.include = c.include;
    options.exclude = c.exclude;
    options.narrowing = narrowing_of(c);
    options.verbose = false;
    options.flush_size = flush_size;
    std::vector<scope_speedscope::Run> runs;
    for (const std::string& input : c.inputs) runs.push_back(read_run(input));
    r.written = export_speedscope(runs, filepath, options);
    r.ok = true;
  } catch (const Error& e) {
    r.kind = e.kind_name();
    r.message = e.what();
    r.code = e.code();
    r.people = e.people_message();
    r.field = e.field();
    r.index = e.index();
    r.file = e.file();
  }
  return r;
}

const char* const kUnderlying = "the underlying error was: ";

// The case's message with {path} filled in. A "not a readable HDF5 file"
// message ends in the HDF5 library's own words, which CONTRACT.md lets differ:
// for the generated cases (whose expectations h5py's HDF5 words) `prefix_only`
// then says to compare up to "the underlying error was: ". The shared cases
// hold HDF5 1.14's words, the library both our builds use: compared whole.
std::string expected_message(const Case& c, bool& prefix_only) {
  std::string message = c.error_message;
  if (message.find("{path}") != std::string::npos) {
    EXPECT_EQ(c.inputs.size(), 1u) << "{path} is ambiguous with several inputs";
    message = replace_all(message, "{path}", c.inputs.front());
  }
  const auto at = message.find(kUnderlying);
  prefix_only =
      c.set != "shared" && c.error_kind == "CorruptProfileError" && at != std::string::npos;
  if (prefix_only) message = message.substr(0, at + std::string(kUnderlying).size());
  return message;
}

void check_error(const Case& c, const LibraryResult& r, const std::string& dir) {
  ASSERT_FALSE(r.ok) << "expected " << c.error_kind << ", but the export wrote "
                     << ::testing::PrintToString(r.written);
  bool prefix_only = false;
  const std::string want = expected_message(c, prefix_only);
  if (prefix_only) {
    EXPECT_EQ(r.message.substr(0, want.size()), want);
    EXPECT_GT(r.message.size(), want.size()) << "no underlying error text";
  } else {
    EXPECT_EQ(r.message, want);
  }
  EXPECT_EQ(r.kind, c.error_kind);
  // The words for people never repeat the file's name (the page shows it
  // beside them) nor name a Python exception class.
  for (const std::string& input : c.inputs) {
    EXPECT_EQ(r.people.find(fs::path(input).filename().string()), std::string::npos) << r.people;
  }
  for (const char* word : {"Error", "KeyError", "PosixPath", "{", "}"}) {
    EXPECT_EQ(r.people.find(word), std::string::npos) << word << " in: " << r.people;
  }
  EXPECT_FALSE(r.people.empty());
  if (c.has_error_context) {  // which message, and what the error blames
    EXPECT_EQ(r.code, c.error_code);
    EXPECT_EQ(r.field, c.error_field);
    EXPECT_EQ(r.index, c.error_index);
    EXPECT_EQ(fs::path(r.file).filename().string(), c.error_file);
  }
  EXPECT_EQ(entries_under(dir), std::vector<std::string>{}) << "an export that failed left files";
}

void check_outputs(const Case& c, const LibraryResult& r, const std::string& dir) {
  ASSERT_TRUE(r.ok) << r.kind << ": " << r.message;
  std::vector<std::string> want_files;
  std::vector<std::string> want_paths;
  for (const CaseOutput& o : c.outputs) {
    want_files.push_back(o.file);
    want_paths.push_back(normalize_path(dir + "/" + o.file));
  }
  std::sort(want_files.begin(), want_files.end());
  std::sort(want_paths.begin(), want_paths.end());
  EXPECT_EQ(files_under(dir), want_files);
  std::vector<std::string> returned = r.written;
  std::sort(returned.begin(), returned.end());
  EXPECT_EQ(returned, want_paths);
  for (const CaseOutput& o : c.outputs) {
    const std::string path = dir + "/" + o.file;
    if (!fs::exists(path)) continue;  // reported above
    const std::string got = read_bytes(path);
    if (!o.expected.empty()) {
      const std::string want = as_ours(read_bytes(o.expected));
      EXPECT_EQ(first_difference(got, want), "") << o.file;
    } else {
      const std::string normalised = as_python(got);
      EXPECT_EQ(normalised.size(), o.bytes) << o.file;
      EXPECT_EQ(sha256_hex(normalised), o.sha256) << o.file;
    }
  }
}

void check_case(const Case& c, std::size_t flush_size) {
  TempDir dir;
  const LibraryResult r = run_library(c, dir / c.filepath, flush_size);
  if (c.is_error) {
    check_error(c, r, dir.path());
  } else {
    check_outputs(c, r, dir.path());
  }
}

class cases : public ::testing::TestWithParam<Case> {};

TEST_P(cases, library_output_matches_expected) { check_case(GetParam(), 1 << 16); }

// speedscope reruns its importers with a tiny chunk size; we rerun the writer
// with a tiny flush size: the bytes must not depend on chunk boundaries.
TEST_P(cases, library_output_with_flush_size_7_is_identical) { check_case(GetParam(), 7); }

INSTANTIATE_TEST_SUITE_P(all, cases, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return case_test_name(info.param);
                         });

// Narrowing that keeps everything (min-duration 0, a window from the first
// call on) changes no byte of any shared case that converts.
TEST(narrowing, keeping_everything_changes_nothing) {
  int checked = 0;
  for (const Case& shared : load_cases("shared", shared_dir())) {
    if (shared.is_error) continue;
    for (const char* option : {"min", "window"}) {
      Case c = shared;
      (option == std::string("min") ? c.min_duration : c.time_window) =
          option == std::string("min") ? "0" : "0:";
      TempDir dir;
      check_outputs(c, run_library(c, dir / c.filepath, 1 << 16), dir.path());
      ++checked;
    }
  }
  EXPECT_GT(checked, 40);
}

TEST(case_files, case_lists_load) {
  const std::vector<Case> shared = load_cases("shared", shared_dir());
  EXPECT_EQ(shared.size(), 37u) << shared_dir() << "/cases.json";
  const std::vector<Case> generated = load_cases("generated", generated_dir());
  EXPECT_GE(generated.size(), 50u) << generated_dir() << "/cases.json";
  const std::vector<Case> compressed =
      load_cases("compressed", shared_dir(), "compressed-cases.json");
  EXPECT_EQ(compressed.size(), 80u) << shared_dir() << "/compressed-cases.json";
  std::set<std::string> names;
  for (const Case& c : all_cases()) {
    EXPECT_TRUE(names.insert(case_test_name(c)).second) << "duplicate case " << c.name;
    EXPECT_NE(c.is_error, !c.outputs.empty()) << c.name;
  }
}

// The copies in tests/fixtures are the bytes cases.json describes.
TEST(case_files, expected_files_match_their_sha256) {
  int checked = 0;
  for (const Case& c : all_cases()) {
    for (const CaseOutput& o : c.outputs) {
      if (o.expected.empty()) continue;
      const std::string bytes = read_bytes(o.expected);
      EXPECT_EQ(bytes.size(), o.bytes) << o.expected;
      EXPECT_EQ(sha256_hex(bytes), o.sha256) << o.expected;
      ++checked;
    }
  }
  EXPECT_GT(checked, 60);
}

TEST(case_files, sha256_matches_the_standard_test_vectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  Sha256 chunked;
  const std::string text(1000, 'x');
  for (std::size_t i = 0; i < text.size(); i += 7) chunked.update(text.substr(i, 7));
  EXPECT_EQ(chunked.hex_digest(), sha256_hex(text));
}

// The exporter value is the one thing allowed to differ (CONTRACT.md).
TEST(case_files, exporter_value_names_this_package_and_version) {
  EXPECT_EQ(our_exporter(), std::string("\"exporter\": \"scope-speedscope@") + VERSION + "\"");
  EXPECT_EQ(as_python(as_ours("{" + python_exporter() + "}")), "{" + python_exporter() + "}");
}

}  // namespace
}  // namespace scope_speedscope::test
