// serve's engine (cli/serve_engine.hpp): the dispatcher over the named runs
// only, one open run shared by every client asking for it, and downloads in
// private temporary files that hold the export's bytes and go away after.
#include "cli/serve_engine.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

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
