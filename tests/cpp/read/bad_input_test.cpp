// Hostile files: every file of tests/fixtures/bad (with the arguments its
// cases.json entry gives) and the seeded campaign of damaged files
// (tests/fixtures/gen/make_mutations.py, generated at build time), through
// the library (from a path and from memory) and the native CLI.
//
// The rules: a clean refusal ("error: <message>", exit 1, nothing written) or
// a correct conversion; no signal, no hang (30 s), under 1 GiB of memory.
// The bad fixtures have exact expectations (tests/fixtures/bad/expected.json:
// the message, or the bytes of the output as sha256 with scope-profiler's
// exporter value, from tests/fixtures/gen/reference_export.py). The campaign
// files have none; a refusal must name the file (or be one of
// scope-profiler's own file-less messages) and a conversion must be valid
// JSON whose region names the file really holds (mutations.json "names").
#include <gtest/gtest.h>

#include <fstream>
#include <ostream>
#include <set>

#include <nlohmann/json.hpp>

#include "cli/options.hpp"
#include "export/export.hpp"
#include "process.hpp"
#include "read/h5_reader.hpp"
#include "sha256.hpp"
#include "test_support.hpp"
#include "text/messages.hpp"

namespace scope_speedscope::test {
namespace {

constexpr double kTimeLimitSeconds = 30;
constexpr long kMemoryLimitKiB = 1024 * 1024;  // 1 GiB

std::string bad_dir() { return shared_dir() + "/bad"; }
std::string mutations_dir() { return SCOPE_TEST_MUTATIONS_DIR; }

struct BadCase {
  std::string file;               // path of the input
  std::vector<std::string> args;  // extra CLI arguments
  nlohmann::json
      expected;  // {"error": {kind, message}} or {"outputs": [...]}; null in the campaign
  std::vector<std::string> names;  // campaign: region names a conversion may show
  std::string label;               // test name
};

void PrintTo(const BadCase& b, std::ostream* os) { *os << b.file; }

std::string test_name(const std::string& file) {
  std::string name;
  for (char c : file) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

std::vector<BadCase> bad_fixtures() {
  std::vector<BadCase> out;
  std::ifstream cases_in(bad_dir() + "/cases.json");
  std::ifstream expected_in(bad_dir() + "/expected.json");
  if (!cases_in || !expected_in) return out;  // checked by bad_input.fixture_lists_load
  const auto cases = nlohmann::json::parse(cases_in);
  const auto expected = nlohmann::json::parse(expected_in);
  for (const auto& c : cases) {
    BadCase b;
    b.file = bad_dir() + "/" + c["file"].get<std::string>();
    b.args = c["args"].get<std::vector<std::string>>();
    b.expected = expected.value(c["file"].get<std::string>(), nlohmann::json());
    b.label = test_name(c["file"]);
    out.push_back(std::move(b));
  }
  return out;
}

std::vector<BadCase> campaign() {
  std::vector<BadCase> out;
  std::ifstream in(mutations_dir() + "/mutations.json");
  if (!in) return out;
  for (const auto& m : nlohmann::json::parse(in)) {
    BadCase b;
    b.file = mutations_dir() + "/" + m["file"].get<std::string>();
    b.names = m["names"].get<std::vector<std::string>>();
    if (m.contains("error")) {
      b.expected = {{"error", {{"kind", "CorruptProfileError"}, {"message", m["error"]}}}};
    }
    b.label = test_name(m["file"]);
    out.push_back(std::move(b));
  }
  return out;
}

TEST(bad_input, fixture_lists_load) {
  const auto bad = bad_fixtures();
  EXPECT_EQ(bad.size(), 31u);
  for (const BadCase& b : bad) {
    EXPECT_TRUE(b.expected.is_object()) << b.file << " has no entry in expected.json";
  }
  EXPECT_GE(campaign().size(), 250u);
}

// scope-profiler's messages that do not name a file (spec; CONTRACT.md).
bool is_file_less_message(const std::string& m) {
  for (const char* prefix :
       {"a recorded call ends before it starts", "recorded calls are not properly nested",
        "No regions matched the selected filters.", "No calls recorded for the requested ranks.",
        "Invalid rank requested: ", "HDF5 schema version attribute 'scope_profiler_schema'",
        "Unsupported scope-profiler HDF5 schema version ", "Invalid regular expression ",
        "Regular expression "}) {
    if (m.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

// A refusal a person can act on: one line, naming the file (or one of
// scope-profiler's own messages), in our words or HDF5's, never the
// runtime's ("std::vector", "bad_alloc", "out of memory", ...).
void expect_clear_message(const std::string& message, const std::string& path) {
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_TRUE(message.find(path) != std::string::npos || is_file_less_message(message))
      << "the message names neither the file nor a known problem: " << message;
  for (const char* jargon : {"std::", "vector", "bad_alloc", "basic_string", "out of memory",
                             "max_size", "unknown HDF5 error"}) {
    EXPECT_EQ(message.find(jargon), std::string::npos) << message;
  }
}

// Region names of a written document, each of which the file must hold.
void expect_true_names(const std::string& bytes, const std::vector<std::string>& allowed,
                       const std::string& what) {
  nlohmann::json doc;
  ASSERT_NO_THROW(doc = nlohmann::json::parse(bytes)) << what << ": output is not JSON";
  const std::set<std::string> ok(allowed.begin(), allowed.end());
  for (const auto& frame : doc["shared"]["frames"]) {
    const std::string name = frame["name"];
    EXPECT_TRUE(ok.count(name) == 1)
        << what << ": region name '" << name.substr(0, 80) << "' is not in the file";
  }
  EXPECT_FALSE(doc["profiles"].empty()) << what;
}

struct Outcome {
  bool ok = false;
  std::string kind, message;
  std::map<std::string, std::string> files;  // name -> bytes
};

Outcome convert(const BadCase& b, bool from_memory) {
  Outcome o;
  TempDir dir;
  std::vector<std::string> args = {b.file, "-o", dir.path()};
  args.insert(args.end(), b.args.begin(), b.args.end());
  const CliOptions cli = parse_cli(args);
  ExportOptions options;
  options.ranks = cli.ranks;
  options.include = cli.include;
  options.exclude = cli.exclude;
  options.verbose = false;
  try {
    std::vector<Run> runs;
    if (from_memory) {
      const std::string bytes = read_bytes(b.file);
      runs.push_back(read_run_from_memory(bytes.data(), bytes.size(), b.file));
    } else {
      runs.push_back(read_run(b.file));
    }
    export_speedscope(runs, cli.filepath, options);
    o.ok = true;
  } catch (const Error& e) {
    o.kind = e.kind_name();
    o.message = e.what();
  }
  for (const std::string& f : files_under(dir.path())) o.files[f] = read_bytes(dir / f);
  return o;
}

void expect_as_expected(const Outcome& o, const BadCase& b, const std::string& what) {
  const nlohmann::json& e = b.expected;
  if (e.contains("error")) {
    ASSERT_FALSE(o.ok) << what << ": expected an error, got a conversion";
    EXPECT_EQ(o.kind, e["error"]["kind"].get<std::string>()) << what;
    EXPECT_EQ(o.message, replace_all(e["error"]["message"], "{path}", b.file)) << what;
    EXPECT_TRUE(o.files.empty()) << what << ": a failed conversion left files";
    return;
  }
  ASSERT_TRUE(o.ok) << what << ": " << o.kind << ": " << o.message;
  std::map<std::string, std::string> want;
  for (const auto& out : e["outputs"]) want[out["file"]] = out["sha256"];
  ASSERT_EQ(o.files.size(), want.size()) << what;
  for (const auto& [file, sha] : want) {
    ASSERT_EQ(o.files.count(file), 1u) << what << ": no " << file;
    EXPECT_EQ(sha256_hex(as_python(o.files.at(file))), sha) << what << ": " << file << " differs";
  }
}

void expect_within_limits(const Watched& w, const std::string& what) {
  EXPECT_FALSE(w.timed_out) << what << ": still running after " << kTimeLimitSeconds << " s";
  EXPECT_EQ(w.signal, 0) << what << ": ended by signal " << w.signal << "\n" << w.err;
  EXPECT_LT(w.max_rss_kib, kMemoryLimitKiB) << what << ": peak memory " << w.max_rss_kib << " KiB";
}

Watched run_cli_on(const BadCase& b, const std::string& out_dir) {
  std::vector<std::string> args = {SCOPE_TEST_CLI, b.file};
  args.insert(args.end(), b.args.begin(), b.args.end());
  args.insert(args.end(), {"-o", out_dir, "--quiet"});
  return run_watched(args, kTimeLimitSeconds);
}

// ---- the bad fixtures --------------------------------------------------------

class bad_fixture : public ::testing::TestWithParam<BadCase> {};

TEST_P(bad_fixture, library_from_a_path) {
  expect_as_expected(convert(GetParam(), false), GetParam(), "read_run");
}

TEST_P(bad_fixture, library_from_memory) {
  expect_as_expected(convert(GetParam(), true), GetParam(), "read_run_from_memory");
}

TEST_P(bad_fixture, native_cli) {
  const BadCase& b = GetParam();
  TempDir dir;
  const Watched w = run_cli_on(b, dir.path());
  expect_within_limits(w, b.file);
  if (b.expected.contains("error")) {
    EXPECT_EQ(w.exit_code, 1);
    EXPECT_EQ(w.err,
              "error: " + replace_all(b.expected["error"]["message"], "{path}", b.file) + "\n");
    EXPECT_EQ(entries_under(dir.path()), std::vector<std::string>{}) << "nothing may be written";
  } else {
    ASSERT_EQ(w.exit_code, 0) << w.err;
    for (const auto& out : b.expected["outputs"]) {
      EXPECT_EQ(sha256_hex(as_python(read_bytes(dir / out["file"].get<std::string>()))),
                out["sha256"].get<std::string>());
    }
  }
}

INSTANTIATE_TEST_SUITE_P(all, bad_fixture, ::testing::ValuesIn(bad_fixtures()),
                         [](const auto& info) { return info.param.label; });

// ---- the campaign ----------------------------------------------------------------

class damaged_file : public ::testing::TestWithParam<BadCase> {};

TEST_P(damaged_file, native_cli_refuses_cleanly_or_converts_truly) {
  const BadCase& b = GetParam();
  TempDir dir;
  const Watched w = run_cli_on(b, dir.path());
  expect_within_limits(w, b.file);
  ASSERT_TRUE(w.exit_code == 0 || w.exit_code == 1) << "exit " << w.exit_code << "\n" << w.err;
  if (b.expected.contains("error")) {  // a targeted case: its exact message
    EXPECT_EQ(w.err,
              "error: " + replace_all(b.expected["error"]["message"], "{path}", b.file) + "\n");
  }
  if (w.exit_code == 1) {
    ASSERT_EQ(w.err.rfind("error: ", 0), 0u) << w.err;
    ASSERT_EQ(w.err.back(), '\n');
    expect_clear_message(w.err.substr(7, w.err.size() - 8), b.file);
    EXPECT_EQ(entries_under(dir.path()), std::vector<std::string>{}) << "nothing may be written";
  } else {
    EXPECT_EQ(w.err, "");
    expect_true_names(read_bytes(dir / "profile.speedscope.json"), b.names, b.file);
  }
}

// The same file read from memory (as the page and the fuzzer read) gives
// the same outcome as from the path. (HDF5's own reason inside a message
// may differ: its memory and file drivers word a bad address differently.)
TEST_P(damaged_file, library_from_memory_agrees_with_the_path) {
  const BadCase& b = GetParam();
  const Outcome from_path = convert(b, false);
  const Outcome from_memory = convert(b, true);
  EXPECT_EQ(from_memory.ok, from_path.ok) << from_memory.message << " / " << from_path.message;
  EXPECT_EQ(from_memory.kind, from_path.kind);
  EXPECT_EQ(from_memory.files, from_path.files);
  if (!from_memory.ok) expect_clear_message(from_memory.message, b.file);
}

INSTANTIATE_TEST_SUITE_P(campaign, damaged_file, ::testing::ValuesIn(campaign()),
                         [](const auto& info) { return info.param.label; });

}  // namespace
}  // namespace scope_speedscope::test
