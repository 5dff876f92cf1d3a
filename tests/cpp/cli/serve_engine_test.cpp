// serve's engine (cli/serve_engine.hpp): the dispatcher over the named runs
// only, one open run shared by every client asking for it, and downloads in
// private temporary files that hold the export's bytes and go away after.
#include "cli/serve_engine.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <sstream>

#include "engine/wire.hpp"
#include "export/export.hpp"
#include "read/h5_reader.hpp"
#include "test_support.hpp"

namespace scope_speedscope::serve {
namespace {

using nlohmann::json;
using test::CollectTarget;

std::string fixture(const std::string& name) { return test::shared_dir() + "/h5/" + name; }

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The CLI's export of these runs with these options.
std::string exported(const std::vector<std::string>& files, ExportOptions o, std::size_t doc = 0) {
  std::vector<Run> runs;
  for (const auto& f : files) runs.push_back(read_run(f));
  CollectTarget target;
  o.verbose = false;
  export_speedscope(runs, "profile.speedscope.json", o, target);
  return target.docs.at(doc).text;
}

TEST(serve_engine, an_open_asked_again_is_the_same_timeline_read_once) {
  EngineHost host({fixture("ranks_imbalance_s3.h5")});
  const std::string open = R"({"type":"timeline-open","options":{"ranks":[0,1]}})";
  const Answer first = host.ask(open);
  ASSERT_EQ(first.type, "result") << wire_header(first.bytes).dump();
  EXPECT_EQ(wire_header(first.bytes)["timeline"], 1);
  const Answer again = host.ask(open);
  EXPECT_EQ(again.bytes, first.bytes);
  // Other options open another timeline.
  const Answer other = host.ask(R"({"type":"timeline-open","options":{"ranks":"all"}})");
  EXPECT_EQ(wire_header(other.bytes)["timeline"], 2);
  EXPECT_EQ(wire_header(host.ask(open).bytes)["timeline"], 3);
}

// The page's All ranks of one file, as it sends it.
constexpr const char* kAllRanks =
    R"({"type":"timeline-open","options":{"ranks":"all","include":null,"exclude":null,)"
    R"("sourceLocations":true},"served":{"file":0}})";

TEST(serve_engine, every_rank_opened_ahead_is_the_answer_to_all_ranks) {
  const std::string run = fixture("ranks_imbalance_s3.h5");
  EngineHost host({run});
  host.check_runs();
  std::atomic<uint64_t> told{0};
  host.open_ahead([&told](uint64_t calls, double) { told = calls; });
  const Answer all = host.ask(kAllRanks);  // waits for the open ahead
  ASSERT_EQ(all.type, "result") << wire_header(all.bytes).dump();
  json header = wire_header(all.bytes);
  EXPECT_EQ(header["timeline"], 1 << 24);  // the open ahead's engine, taken over
  uint64_t calls = 0;
  for (const json& lane : header["lanes"]) calls += lane["calls"].get<uint64_t>();
  EXPECT_EQ(calls, 60u);
  // The same answer as an open asked then (its timeline's id aside).
  EngineHost fresh({run});
  fresh.check_runs();
  json expected = wire_header(fresh.ask(kAllRanks).bytes);
  header.erase("timeline");
  expected.erase("timeline");
  EXPECT_EQ(header, expected);
  // Queries of the taken-over timeline are answered.
  const Answer bars = host.ask(R"({"type":"timeline-bars","timeline":16777216,"lanes":[0],)"
                               R"("start":0,"end":1000000,"width":100})");
  EXPECT_EQ(bars.type, "result") << wire_header(bars.bytes).dump();
  // Another tab's All ranks: the same timeline.
  EXPECT_EQ(host.ask(kAllRanks).bytes, all.bytes);
  // Told from the thread, after its answer was ready.
  for (int i = 0; i < 500 && told == 0; ++i) ::usleep(10000);
  EXPECT_EQ(told.load(), calls);
}

TEST(serve_engine, every_rank_with_other_options_drops_the_open_ahead) {
  EngineHost host({fixture("ranks_imbalance_s3.h5")});
  host.check_runs();
  host.open_ahead();
  const Answer other = host.ask(
      R"({"type":"timeline-open","options":{"ranks":"all","exclude":["^c"]},"served":{"file":0}})");
  ASSERT_EQ(other.type, "result") << wire_header(other.bytes).dump();
  EXPECT_LT(wire_header(other.bytes)["timeline"].get<int>(), 1 << 24);
  // The open ahead is gone: All ranks is opened when asked.
  EXPECT_LT(wire_header(host.ask(kAllRanks).bytes)["timeline"].get<int>(), 1 << 24);
}

TEST(serve_engine, a_request_cancelled_or_left_by_its_page_is_answered_cancelled) {
  EngineHost host({fixture("ranks_imbalance_s3.h5")});
  const std::string open = R"({"type":"timeline-open","options":{"ranks":[0,1]}})";
  EXPECT_FALSE(EngineHost::watch_id_ok("XYZ"));
  EXPECT_FALSE(EngineHost::watch_id_ok(std::string(65, 'a')));
  EXPECT_TRUE(EngineHost::watch_id_ok("0a9f"));
  EXPECT_TRUE(host.progress("0a9f").is_null());  // no such request
  EXPECT_FALSE(host.cancel("0a9f"));
  // Cancelled while it waits: never run.
  json seen;
  host.on_watched = [&](const std::string& id) {
    seen = host.progress(id);
    EXPECT_TRUE(host.cancel(id));
  };
  const Answer cancelled = host.ask(open, "c1");
  EXPECT_EQ(seen, json::object());  // watched, no progress yet
  EXPECT_EQ(cancelled.type, "cancelled");
  EXPECT_EQ(wire_header(cancelled.bytes)["type"], "cancelled");
  EXPECT_TRUE(host.progress("c1").is_null());  // answered: no longer watched
  // Its page asked its progress once and then no more (a closed tab).
  host.set_lease(std::chrono::milliseconds(0));
  host.on_watched = [&](const std::string& id) {
    host.progress(id);
    ::usleep(5000);
  };
  EXPECT_EQ(host.ask(open, "c2").type, "cancelled");
  // Within its lease, or unnamed: answered.
  host.set_lease(std::chrono::milliseconds(60000));
  const Answer answered = host.ask(open, "c3");
  EXPECT_EQ(answered.type, "result") << wire_header(answered.bytes).dump();
  EXPECT_EQ(wire_header(answered.bytes)["timeline"], 1);
  EXPECT_EQ(host.ask(open).type, "result");
  // The server stopping: every request cancelled.
  host.stop();
  EXPECT_EQ(host.ask(R"({"type":"timeline-open","options":{"ranks":[2]}})").type, "cancelled");
}

TEST(serve_engine, a_download_is_the_exports_bytes_in_a_file_removed_after) {
  const std::string run = fixture("ranks_imbalance_s3.h5");
  EngineHost host({run});
  Answer a = host.ask(
      R"({"type":"convert","count":1,"options":{"ranks":[1,2],"filepath":"../../etc/x.json"}})");
  ASSERT_EQ(a.type, "result") << wire_header(a.bytes).dump();
  ASSERT_EQ(a.downloads.size(), 1u);
  ExportOptions o;
  o.ranks = std::vector<int64_t>{1, 2};
  const std::string expected = exported({run}, o);
  const std::string path = a.downloads[0].second->path;
  EXPECT_EQ(a.downloads[0].second->name, "x.json");  // the name only: no path reaches the disk
  EXPECT_EQ(path.rfind("/tmp/scope-speedscope-", 0), 0u) << path;
  EXPECT_EQ(contents(path), expected);
  EXPECT_EQ(a.downloads[0].second->size, expected.size());
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  const std::string id = a.downloads[0].first;
  EXPECT_EQ(id.size(), 32u);
  a.downloads.clear();  // the answer is sent; the host keeps the download for its fetch
  std::shared_ptr<Download> d = host.take_download(id);
  ASSERT_TRUE(d);
  EXPECT_EQ(host.take_download(id), nullptr);  // once
  d.reset();
  EXPECT_NE(::access(path.c_str(), F_OK), 0);  // gone with its last owner
}

TEST(serve_engine, the_timelines_download_and_a_comparisons_inputs) {
  const std::string a_run = fixture("nested_pair_a_s3.h5"), b_run = fixture("nested_pair_b_s3.h5");
  EngineHost host({a_run, b_run});
  const json opened = wire_header(host.ask(R"({"type":"timeline-compare-open"})").bytes);
  ASSERT_EQ(opened["type"], "result") << opened.dump();
  const Answer a =
      host.ask(json{{"type", "timeline-export"}, {"timeline", opened["timeline"]}}.dump());
  ASSERT_EQ(a.downloads.size(), 1u) << wire_header(a.bytes).dump();
  EXPECT_EQ(contents(a.downloads[0].second->path), exported({b_run}, {}));  // B, the run drawn
  const Answer both = host.ask(R"({"type":"convert","count":2})");
  ASSERT_EQ(both.downloads.size(), 2u);
  EXPECT_EQ(contents(both.downloads[1].second->path), exported({a_run, b_run}, {}, 1));
  EXPECT_EQ(host.take_download(a.downloads[0].first), nullptr);  // replaced by the newer ones
}

TEST(serve_engine, only_the_named_runs_are_read) {
  EngineHost host({fixture("ranks_imbalance_s3.h5")});
  const Answer a = host.ask(R"({"type":"convert","count":2})");
  EXPECT_EQ(a.type, "error");
  EXPECT_TRUE(a.bad_request);
  EXPECT_EQ(wire_header(a.bytes)["message"],
            "scope-speedscope engine: this server has no input 'file1'");
  EXPECT_TRUE(a.downloads.empty());
  const Answer bad = host.ask("{");
  EXPECT_TRUE(bad.bad_request);
  EXPECT_EQ(wire_header(bad.bytes)["message"], "scope-speedscope engine: the request is not JSON");
}

TEST(serve_engine, a_run_that_cannot_be_opened_is_said_before_serving) {
  EngineHost host({fixture("not_hdf5.h5")});
  try {
    host.check_runs();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.file(), fixture("not_hdf5.h5"));
    EXPECT_NE(std::string(e.what()).find("not_hdf5.h5"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace scope_speedscope::serve
