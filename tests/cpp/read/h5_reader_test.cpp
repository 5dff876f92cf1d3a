// read: HDF5 file -> Run (spec 1, 2.1). Every fixture, shared and generated,
// against what tests/fixtures/gen/reference_export.py reads from it
// (generated/layouts.json), plus messages and reading from memory.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "read/h5_reader.hpp"
#include "select/inspect.hpp"
#include "select/selection.hpp"
#include "test_support.hpp"

namespace scope_speedscope::test {
namespace {

using Strings = std::vector<std::string>;

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return std::string(e.kind_name()) + ": " + e.what();
  }
  return "no error";
}

// A canonical text of everything in a Run the export depends on. With
// `summarise`, the calls of each (region, rank) are reduced to a count and
// sums, as layouts.json does for large files.
std::string describe_run(const scope_speedscope::Run& run, bool summarise) {
  std::ostringstream s;
  s << "schema " << run.schema_version << "\nlayout " << run.storage_layout << "\nnum_ranks "
    << run.num_ranks << "\nlabel " << run.label << "\ndisplay_label " << run.display_label()
    << "\nlane_column " << run.has_lanes() << "\n";
  const bool lanes_ok = !run.has_lanes() || run.lane.size() == run.start_ns.size();
  if (!lanes_ok)
    s << "<lane column of " << run.lane.size() << " for " << run.start_ns.size() << " events>\n";
  if (run.start_ns.size() != run.end_ns.size()) s << "<start and end columns differ in length>\n";
  for (const Region& region : run.regions) {
    s << "region " << region.name << "\n";
    std::map<int64_t, const RankSlice*> by_rank;
    for (const RankSlice& slice : region.ranks) {
      if (!by_rank.emplace(slice.rank, &slice).second) s << "  <rank " << slice.rank << " twice>\n";
    }
    for (const auto& [rank, slice] : by_rank) {
      s << "  rank " << rank << ":";
      if (slice->offset + slice->count > run.start_ns.size()) {
        s << " <slice outside the columns>\n";
        continue;
      }
      if (summarise) {
        uint64_t sum_start = 0, sum_end = 0, sum_lane = 0;
        for (uint64_t i = slice->offset; i < slice->offset + slice->count; ++i) {
          sum_start += static_cast<uint64_t>(run.start_ns[i]);
          sum_end += static_cast<uint64_t>(run.end_ns[i]);
          if (run.has_lanes() && lanes_ok) sum_lane += static_cast<uint64_t>(run.lane[i]);
        }
        s << " count " << slice->count << " sum_start " << sum_start << " sum_end " << sum_end;
        if (run.has_lanes()) s << " sum_lane " << sum_lane;
      } else {
        for (uint64_t i = slice->offset; i < slice->offset + slice->count; ++i) {
          s << " [" << run.start_ns[i] << "," << run.end_ns[i];
          if (run.has_lanes() && lanes_ok) s << " lane " << run.lane[i];
          s << "]";
        }
      }
      s << "\n";
    }
  }
  for (const auto& [rank, threads] : run.threads) {
    for (const ThreadInfo& t : threads)
      s << "thread rank " << rank << " " << t.index << " " << t.name << "\n";
  }
  for (const auto& [rank, tasks] : run.tasks) {
    for (const TaskInfo& t : tasks) {
      s << "task rank " << rank << " " << t.index << " on " << t.thread_index << " '" << t.name
        << "' '" << t.coro_name << "'\n";
    }
  }
  return s.str();
}

// The same text from layouts.json.
std::string describe_layout(const nlohmann::json& j) {
  const bool summarise = j["summarised"].get<bool>();
  const bool lanes = j["lane_column"].get<bool>();
  std::ostringstream s;
  s << "schema " << j["schema"].get<int64_t>() << "\nlayout " << j["layout"].get<std::string>()
    << "\nnum_ranks " << j["num_ranks"].get<int64_t>() << "\nlabel "
    << j["label"].get<std::string>() << "\ndisplay_label " << j["display_label"].get<std::string>()
    << "\nlane_column " << lanes << "\n";
  for (const auto& region : j["regions"]) {
    s << "region " << region["name"].get<std::string>() << "\n";
    std::map<int64_t, nlohmann::json> by_rank;
    for (auto it = region["ranks"].begin(); it != region["ranks"].end(); ++it) {
      by_rank[std::stoll(it.key())] = it.value();
    }
    for (const auto& [rank, calls] : by_rank) {
      s << "  rank " << rank << ":";
      if (summarise) {
        s << " count " << calls["count"].get<uint64_t>() << " sum_start "
          << calls["sum_start"].get<uint64_t>() << " sum_end " << calls["sum_end"].get<uint64_t>();
        if (lanes) s << " sum_lane " << calls["sum_lane"].get<uint64_t>();
      } else {
        for (std::size_t i = 0; i < calls["start"].size(); ++i) {
          s << " [" << calls["start"][i].get<int64_t>() << "," << calls["end"][i].get<int64_t>();
          if (lanes) s << " lane " << calls["lane"][i].get<int64_t>();
          s << "]";
        }
      }
      s << "\n";
    }
  }
  std::map<int64_t, nlohmann::json> threads, tasks;
  for (auto it = j["threads"].begin(); it != j["threads"].end(); ++it)
    threads[std::stoll(it.key())] = it.value();
  for (auto it = j["tasks"].begin(); it != j["tasks"].end(); ++it)
    tasks[std::stoll(it.key())] = it.value();
  for (const auto& [rank, rows] : threads) {
    for (const auto& t : rows) {
      s << "thread rank " << rank << " " << t[0].get<int64_t>() << " " << t[1].get<std::string>()
        << "\n";
    }
  }
  for (const auto& [rank, rows] : tasks) {
    for (const auto& t : rows) {
      s << "task rank " << rank << " " << t[0].get<int64_t>() << " on " << t[1].get<int64_t>()
        << " '" << t[2].get<std::string>() << "' '" << t[3].get<std::string>() << "'\n";
    }
  }
  return s.str();
}

nlohmann::json load_layouts() {
  std::ifstream in(generated_dir() + "/layouts.json");
  if (!in) throw std::runtime_error("missing " + generated_dir() + "/layouts.json");
  return nlohmann::json::parse(in);
}

std::string fixture_path(const nlohmann::json& entry) {
  const std::string root = entry["set"] == "shared" ? shared_dir() : generated_dir();
  return root + "/h5/" + entry["file"].get<std::string>();
}

// The expected "Kind: message" of a layouts.json error entry; `prefix_only`
// when the message ends in the HDF5 library's own words (CONTRACT.md).
std::string expected_error(const nlohmann::json& entry, const std::string& path,
                           bool& prefix_only) {
  std::string message = replace_all(entry["error"]["message"].get<std::string>(), "{path}", path);
  const std::string underlying = "the underlying error was: ";
  const auto at = message.find(underlying);
  prefix_only = at != std::string::npos;
  if (prefix_only) message = message.substr(0, at + underlying.size());
  return entry["error"]["kind"].get<std::string>() + ": " + message;
}

void expect_error(const std::string& got, const std::string& want, bool prefix_only,
                  const std::string& what) {
  if (prefix_only) {
    EXPECT_EQ(got.substr(0, want.size()), want) << what;
    EXPECT_GT(got.size(), want.size()) << what << ": no underlying error text";
  } else {
    EXPECT_EQ(got, want) << what;
  }
}

TEST(h5_reader, every_fixture_reads_to_the_python_models_columns) {
  const nlohmann::json layouts = load_layouts();
  ASSERT_GE(layouts.size(), 60u);
  int readable = 0;
  for (const auto& entry : layouts) {
    const std::string path = fixture_path(entry);
    const std::string what =
        entry["set"].get<std::string>() + "/" + entry["file"].get<std::string>();
    if (entry.contains("error")) {
      bool prefix_only = false;
      const std::string want = expected_error(entry, path, prefix_only);
      expect_error(error_of([&] { read_run(path); }), want, prefix_only, what);
      continue;
    }
    ++readable;
    try {
      const scope_speedscope::Run run = read_run(path);
      EXPECT_EQ(run.path, path) << what;
      EXPECT_EQ(describe_run(run, entry["summarised"].get<bool>()), describe_layout(entry)) << what;
    } catch (const Error& e) {
      ADD_FAILURE() << what << ": " << e.kind_name() << ": " << e.what();
    }
  }
  EXPECT_GE(readable, 45);
}

// The name given for the bytes is a name only (a browser's file, say): no
// file of that name exists here.
TEST(h5_reader, read_run_from_memory_equals_read_run) {
  const nlohmann::json layouts = load_layouts();
  for (const auto& entry : layouts) {
    const std::string path = fixture_path(entry);
    const std::string name = "not/on/disk/" + entry["file"].get<std::string>();
    const std::string what =
        entry["set"].get<std::string>() + "/" + entry["file"].get<std::string>();
    const std::string bytes = read_bytes(path);
    if (entry.contains("error")) {
      bool prefix_only = false;
      const std::string want = expected_error(entry, name, prefix_only);
      expect_error(error_of([&] { read_run_from_memory(bytes.data(), bytes.size(), name); }), want,
                   prefix_only, what);
      continue;
    }
    try {
      const bool summarise = entry["summarised"].get<bool>();
      const scope_speedscope::Run from_file = read_run(path);
      const scope_speedscope::Run from_memory =
          read_run_from_memory(bytes.data(), bytes.size(), name);
      EXPECT_EQ(from_memory.path, name) << what;
      EXPECT_EQ(describe_run(from_memory, summarise), describe_run(from_file, summarise)) << what;
      EXPECT_EQ(from_memory.start_ns, from_file.start_ns) << what;
      EXPECT_EQ(from_memory.end_ns, from_file.end_ns) << what;
      EXPECT_EQ(from_memory.lane, from_file.lane) << what;
    } catch (const Error& e) {
      ADD_FAILURE() << what << ": " << e.kind_name() << ": " << e.what();
    }
  }
}

// Everything inspect_run says of a run, as text.
std::string describe_inspection(const Inspection& info) {
  std::ostringstream s;
  s << info.label << "|" << info.display_label << "|" << info.schema_version << "|"
    << info.storage_layout << "|" << info.num_ranks << "|" << info.calls << "\n";
  for (const auto& rank : info.ranks) {
    s << "rank " << rank.rank << " " << rank.calls << "\n";
    for (const auto& lane : rank.lanes)
      s << "  lane " << lane.lane << " " << lane.label << " " << lane.profile_name << " "
        << lane.calls << "\n";
  }
  for (const auto& region : info.regions) {
    s << "region " << region.name << " " << region.calls << ":";
    for (int64_t r : region.ranks) s << " " << r;
    s << "\n";
  }
  return s.str();
}

// Reading what a file holds without the calls' times (the page's first
// question of a file) says what reading all of it says; a file it cannot
// read cannot be read whole either; and such a run gives no calls.
TEST(h5_reader, an_index_read_inspects_as_the_whole_read) {
  const nlohmann::json layouts = load_layouts();
  int compared = 0;
  for (const auto& entry : layouts) {
    const std::string path = fixture_path(entry);
    const std::string what =
        entry["set"].get<std::string>() + "/" + entry["file"].get<std::string>();
    const std::string index_error = error_of([&] { read_run(path, {}, {}, ReadDepth::index); });
    if (entry.contains("error")) continue;
    ASSERT_EQ(index_error, "no error") << what;
    const scope_speedscope::Run whole = read_run(path);
    const scope_speedscope::Run index = read_run(path, {}, {}, ReadDepth::index);
    EXPECT_EQ(describe_inspection(inspect_run(index)), describe_inspection(inspect_run(whole)))
        << what;
    if (whole.storage_layout == "columnar") {  // schema 1 and aggregate runs are read whole
      EXPECT_FALSE(index.times) << what;
      EXPECT_TRUE(index.start_ns.empty() && index.end_ns.empty()) << what;
      if (!index.regions.empty()) {
        EXPECT_EQ(error_of([&] { get_regions(index, std::nullopt, std::nullopt); }),
                  "Error: scope-speedscope: calls asked of a run read without their times")
            << what;
      }
    }
    ++compared;
  }
  EXPECT_GE(compared, 45);
  for (const auto& item : std::filesystem::directory_iterator(shared_dir() + "/bad")) {
    if (item.path().extension() != ".h5") continue;
    const std::string file = item.path().string();
    const std::string index_error = error_of([&] { read_run(file, {}, {}, ReadDepth::index); });
    if (index_error != "no error") {
      EXPECT_NE(error_of([&] { read_run(file); }), "no error") << file;
    }
  }
}

// ---- specific layouts, spelled out ------------------------------------------------

std::string gen(const std::string& name) { return generated_dir() + "/h5/" + name; }
std::string shared(const std::string& name) { return shared_dir() + "/h5/" + name; }

Strings names(const scope_speedscope::Run& run) {
  Strings out;
  for (const Region& r : run.regions) out.push_back(r.name);
  return out;
}

std::vector<std::pair<int64_t, int64_t>> calls_of(const scope_speedscope::Run& run,
                                                  const std::string& region, int64_t rank) {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const Region& r : run.regions) {
    if (r.name != region) continue;
    for (const RankSlice& s : r.ranks) {
      if (s.rank != rank) continue;
      for (uint64_t i = s.offset; i < s.offset + s.count; ++i)
        out.emplace_back(run.start_ns[i], run.end_ns[i]);
    }
  }
  return out;
}

TEST(h5_reader, compatibility_fixtures_hold_one_solve_region) {
  for (const char* name : {"hdf5-schema-1.h5", "hdf5-schema-2.h5", "hdf5-schema-3.h5"}) {
    const scope_speedscope::Run run = read_run(shared(name));
    EXPECT_EQ(names(run), Strings{"solve"}) << name;
    EXPECT_EQ(run.num_ranks, 1) << name;
    EXPECT_EQ(calls_of(run, "solve", 0),
              (std::vector<std::pair<int64_t, int64_t>>{{10, 15}, {20, 33}, {40, 55}}))
        << name;
    EXPECT_FALSE(run.has_lanes());
  }
  EXPECT_EQ(read_run(shared("hdf5-schema-1.h5")).schema_version, 1);
  EXPECT_EQ(read_run(shared("hdf5-schema-2.h5")).schema_version, 2);
  EXPECT_EQ(read_run(shared("hdf5-schema-3.h5")).schema_version, 3);
}

TEST(h5_reader, gzip_shuffle_chunked_schema_3_decodes_per_row_deltas) {
  const scope_speedscope::Run run = read_run(gen("gzip_shuffle_s3.h5"));
  EXPECT_EQ(names(run), (Strings{"io", "main", "assemble", "step", "solve"}));
  EXPECT_EQ(run.num_ranks, 2);
  EXPECT_EQ(calls_of(run, "main", 1).size(), 1u);
  EXPECT_EQ(calls_of(run, "step", 0).size(), 1500u);
  EXPECT_EQ(calls_of(run, "main", 0).front().first, 2038102156057);
}

TEST(h5_reader, schema_1_names_with_a_slash_are_read_depth_first_in_link_name_order) {
  const scope_speedscope::Run run = read_run(gen("slash_s1.h5"));
  EXPECT_EQ(names(run), (Strings{"a/b", "a-c", "inner/deep/x", "z"}));
  EXPECT_EQ(calls_of(run, "inner/deep/x", 0), (std::vector<std::pair<int64_t, int64_t>>{{2, 4}}));
}

TEST(h5_reader, schema_1_counts_rank_groups_in_numeric_order) {
  const scope_speedscope::Run run = read_run(gen("ranks_s1.h5"));
  EXPECT_EQ(run.num_ranks, 12) << "rank0..rank11, rank11 without regions";
  EXPECT_EQ(names(run), (Strings{"base", "b_nine", "a_ten"}));
  const scope_speedscope::Run gap = read_run(shared("gap_s1.h5"));
  EXPECT_EQ(gap.num_ranks, 2) << "rank0 and rank2: schema 1 counts groups";
  const scope_speedscope::Run attr = read_run(gen("schema1_attr.h5"));
  EXPECT_EQ(attr.schema_version, 1);
}

TEST(h5_reader, fixed_length_utf8_strings_lose_their_nul_padding) {
  const Strings want = {"b/x", "a", "\xc3\xa9", "na\xc3\xafve",
                        "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e region"};
  EXPECT_EQ(names(read_run(gen("fixedstr_s2.h5"))), want);
  const scope_speedscope::Run s3 = read_run(gen("fixedstr_s3.h5"));
  EXPECT_EQ(names(s3), want);
  ASSERT_EQ(s3.threads.count(0), 1u);
  ASSERT_EQ(s3.threads.at(0).size(), 1u);
  EXPECT_EQ(s3.threads.at(0)[0].name, "MainThread");
}

TEST(h5_reader, invalid_utf8_becomes_replacement_characters_like_python) {
  const std::string r = "\xef\xbf\xbd";  // U+FFFD
  const Strings want = {"ok",
                        "t1 bad" + r,
                        "t2 " + r,
                        "t3 " + r + "x",
                        "t4 " + r + r,
                        "t5 " + r + r + r,
                        "t6 " + r + r + r + r,
                        "t7 " + r,
                        "t8 " + r + r,
                        "t9 \xf0\x9f\x98\x80ok",
                        "t10 " + r + r + "\xc3\xa9"};
  EXPECT_EQ(names(read_run(gen("invalid_utf8_fixed_s3.h5"))), want);
  EXPECT_EQ(names(read_run(gen("invalid_utf8_vlen_s2.h5"))), want);
  // A later row for the same (rank, region) replaces the earlier one.
  EXPECT_EQ(calls_of(read_run(gen("invalid_utf8_vlen_s2.h5")), "ok", 0),
            (std::vector<std::pair<int64_t, int64_t>>{{0, 1000}}));
}

TEST(h5_reader, lanes_and_lane_tables) {
  const scope_speedscope::Run run = read_run(gen("lanes_s3.h5"));
  EXPECT_TRUE(run.has_lanes());
  EXPECT_EQ(run.lane_label(-7, 0), "thread 5");
  EXPECT_EQ(run.lane_label(2, 0), " (coro) on Thread");
  EXPECT_EQ(run.lane_label(4, 0), "Task-5 (z) on thread 7");
  EXPECT_EQ(run.lane_label(0, 1), "task 0");
  const scope_speedscope::Run tasks_only = read_run(gen("tasks_only_s3.h5"));
  EXPECT_FALSE(tasks_only.has_lanes()) << "task_ids without thread_ids are ignored";
  EXPECT_TRUE(tasks_only.lane.empty());
}

TEST(h5_reader, metadata_label_and_c_backend_ranks) {
  EXPECT_EQ(read_run(gen("unicode_s3.h5")).label, "R\xc3\xa9sum\xc3\xa9 \xf0\x9f\x9a\x80 run");
  EXPECT_EQ(read_run(gen("label_empty_s3.h5")).display_label(), "label_empty_s3");
  const scope_speedscope::Run c = read_run(gen("crun_rank00003.h5"));
  EXPECT_EQ(c.num_ranks, 4) << "max rank + 1 without mpi_size";
  EXPECT_EQ(c.label, "crun");
  EXPECT_EQ(names(c), (Strings{"sp_main", "kernel"}));
  const scope_speedscope::Run empty = read_run(gen("cempty_rank00000.h5"));
  EXPECT_EQ(empty.num_ranks, 0);
  EXPECT_TRUE(empty.regions.empty());
  const scope_speedscope::Run agg = read_run(gen("aggregate_s3.h5"));
  EXPECT_EQ(agg.storage_layout, "aggregate");
  EXPECT_EQ(names(agg), (Strings{"a", "b"}));
  EXPECT_TRUE(agg.start_ns.empty());
}

// ---- messages ----------------------------------------------------------------------

TEST(h5_reader, missing_file_message_uses_the_path_as_given) {
  EXPECT_EQ(error_of([] { read_run("no/such/dir/x.h5"); }),
            "FileNotFoundError: HDF5 file not found: no/such/dir/x.h5");
  EXPECT_EQ(error_of([] { read_run("./missing.h5"); }),
            "FileNotFoundError: HDF5 file not found: ./missing.h5");
}

TEST(h5_reader, not_hdf5_message) {
  const std::string prefix =
      " is not a readable HDF5 profiling file. A run that was interrupted while writing leaves "
      "a truncated file behind; the underlying error was: ";
  // HDF5 1.14's words, as scope-profiler prints them with current h5py wheels.
  const std::string signature = "Unable to synchronously open file (file signature not found)";
  const std::string path = shared("not_hdf5.h5");
  EXPECT_EQ(error_of([&] { read_run(path); }), "CorruptProfileError: " + path + prefix + signature);
  const std::string bytes = read_bytes(path);
  EXPECT_EQ(error_of([&] { read_run_from_memory(bytes.data(), bytes.size(), "x.h5"); }),
            "CorruptProfileError: x.h5" + prefix + signature);
  EXPECT_EQ(error_of([&] { read_run_from_memory(bytes.data(), 0, "empty.h5"); }),
            "CorruptProfileError: empty.h5" + prefix + signature);
  // A truncated HDF5 file (the first half of a real one).
  const std::string real = read_bytes(shared("hdf5-schema-3.h5"));
  EXPECT_EQ(error_of([&] { read_run_from_memory(real.data(), 1000, "half.h5"); }),
            "CorruptProfileError: half.h5" + prefix +
                "Unable to synchronously open file (truncated file: eof = 1000, "
                "sblock->base_addr = 0, stored_eof = 15176)");
}

// The memory a file may take: 2 GiB by default (every build's, the wasm
// builds' only); the native CLI raises it to the machine's memory and then
// names the machine, not the build (a small limit here stands for both).
TEST(h5_reader, memory_per_file_is_the_builds_or_the_machines) {
  const MemoryLimit before = memory_per_file();
  EXPECT_EQ(before.bytes, uint64_t{2} << 30);
  EXPECT_FALSE(before.machine);
  const MemoryLimit machine = machine_memory();  // this machine has more than 2 GiB
  EXPECT_TRUE(machine.machine);
  EXPECT_GT(machine.bytes, uint64_t{2} << 30);
  const std::string path = shared("large_s3.h5");  // 212,030 calls: 1.6 MiB a column
  set_memory_per_file({uint64_t{1} << 20, false});
  EXPECT_EQ(error_of([&] { read_run(path); }),
            "MemoryError: " + path +
                ": dataset 'events/start_deltas' (212030 values) needs more than 1 MiB of memory, "
                "the most scope-speedscope gives one file (the same on the command line, in Node "
                "and in the page)");
  set_memory_per_file({uint64_t{1} << 20, true});
  EXPECT_EQ(error_of([&] { read_run(path); }),
            "MemoryError: " + path +
                ": dataset 'events/start_deltas' (212030 values) needs more than 1 MiB of memory, "
                "all the memory this machine has");
  set_memory_per_file({uint64_t{5} << 20, true});  // both columns fit: 3.2 MiB
  EXPECT_EQ(read_run(path).start_ns.size(), 212030u);
  set_memory_per_file(before);
  EXPECT_EQ(read_run(path).start_ns.size(), 212030u);
}

TEST(h5_reader, schema_attribute_messages) {
  EXPECT_EQ(error_of([] { read_run(shared("schema0.h5")); }),
            "HDF5SchemaError: Unsupported scope-profiler HDF5 schema version 0; versions must be "
            "positive");
  EXPECT_EQ(error_of([] { read_run(gen("schema_neg.h5")); }),
            "HDF5SchemaError: Unsupported scope-profiler HDF5 schema version -3; versions must be "
            "positive");
  EXPECT_EQ(error_of([] { read_run(shared("schema4.h5")); }),
            "HDF5SchemaError: Unsupported scope-profiler HDF5 schema version 4; this package "
            "supports versions through 3. Upgrade scope-profiler to read this file.");
  EXPECT_EQ(error_of([] { read_run(shared("strschema.h5")); }),
            "HDF5SchemaError: HDF5 schema version attribute 'scope_profiler_schema' must be an "
            "integer, got '2'");
  EXPECT_EQ(read_run(gen("schema_int32.h5")).schema_version, 3) << "any integer type";
}

TEST(h5_reader, event_index_messages) {
  const std::string trunc = shared("trunc_index_s3.h5");
  EXPECT_EQ(error_of([&] { read_run(trunc); }),
            "CorruptProfileError: " + trunc +
                " claims 4 recorded events but its event columns hold 3. The file is truncated or "
                "damaged.");
  const std::string trunc2 = gen("trunc_s2.h5");
  EXPECT_EQ(error_of([&] { read_run(trunc2); }),
            "CorruptProfileError: " + trunc2 +
                " claims 7 recorded events but its event columns hold 2. The file is truncated or "
                "damaged.");
  const std::string overlap = gen("overlap_rows_s2.h5");
  EXPECT_EQ(error_of([&] { read_run(overlap); }),
            "CorruptProfileError: " + overlap +
                " has overlapping region rows in its event index. The file is damaged.");
  const std::string bytes = read_bytes(overlap);
  EXPECT_EQ(error_of([&] { read_run_from_memory(bytes.data(), bytes.size(), "mem.h5"); }),
            "CorruptProfileError: mem.h5 has overlapping region rows in its event index. The file "
            "is damaged.");
}

// Reading bytes must not depend on what lies on disk under the name given
// for them (the Node CLI hands over the bytes of the file it names).
TEST(h5_reader, read_run_from_memory_ignores_a_file_of_the_same_name) {
  const std::string path = shared("nested_s1.h5");
  const std::string bytes = read_bytes(path);
  try {
    const scope_speedscope::Run run = read_run_from_memory(bytes.data(), bytes.size(), path);
    EXPECT_EQ(run.path, path);
    EXPECT_EQ(describe_run(run, false), describe_run(read_run(path), false));
  } catch (const Error& e) {
    ADD_FAILURE() << e.kind_name() << ": " << e.what();
  }
  // Different bytes under the name of an existing file: the bytes win.
  const std::string other = read_bytes(shared("hdf5-schema-3.h5"));
  try {
    const scope_speedscope::Run run = read_run_from_memory(other.data(), other.size(), path);
    EXPECT_EQ(names(run), Strings{"solve"});
  } catch (const Error& e) {
    ADD_FAILURE() << e.kind_name() << ": " << e.what();
  }
}

TEST(h5_reader, memory_name_stands_for_the_path) {
  const std::string bytes = read_bytes(shared("nested_s1.h5"));
  const scope_speedscope::Run run =
      read_run_from_memory(bytes.data(), bytes.size(), "some/dir/my.run.h5");
  EXPECT_EQ(run.path, "some/dir/my.run.h5");
  EXPECT_EQ(run.display_label(), "my.run");
}

// CONTRACT.md: any filter but gzip, shuffle, LZF and Zstandard is named with
// its dataset (tests/fixtures/h5/compressed/refused, make_compressed.py).
TEST(h5_reader, a_filter_we_do_not_decode_is_named_with_its_dataset) {
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"blosc", "32001 (blosc)"},
      {"lz4", "32004 (lz4)"},
      {"bitshuffle", "32008 (bitshuffle)"},
      {"filter_32999", "32999 (unknown)"},
      {"nbit", "5 (nbit)"},
      {"fletcher32", "3 (fletcher32)"}};
  for (const auto& [stem, filter] : refused) {
    const std::string file = shared("compressed/refused/" + stem + ".h5");
    EXPECT_EQ(error_of([&] { read_run(file); }),
              "CorruptProfileError: " + file +
                  ": dataset 'events/start_deltas' is compressed with HDF5 filter " + filter +
                  ", which this build of scope-speedscope cannot decode");
  }
}

// LZF chunks that did not shrink are stored raw and marked in the chunk's
// filter mask: the file holds both kinds, and reads as its twin.
TEST(h5_reader, lzf_and_zstd_twins_read_as_their_originals) {
  for (const char* variant : {"lzf", "zstd", "lzf-noshuffle", "zstd-noshuffle"}) {
    for (const char* stem : {"nested_s3", "threads_s3"}) {
      const scope_speedscope::Run twin =
          read_run(shared(std::string("compressed/") + variant + "/" + stem + ".h5"));
      const scope_speedscope::Run original = read_run(shared(std::string(stem) + ".h5"));
      EXPECT_EQ(twin.start_ns, original.start_ns) << variant << " " << stem;
      EXPECT_EQ(twin.end_ns, original.end_ns) << variant << " " << stem;
      EXPECT_EQ(twin.lane, original.lane) << variant << " " << stem;
      EXPECT_EQ(names(twin), names(original)) << variant << " " << stem;
    }
  }
}

}  // namespace
}  // namespace scope_speedscope::test
