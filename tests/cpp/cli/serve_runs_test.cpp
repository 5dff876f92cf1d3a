// serve's runs (cli/serve_runs.hpp): how the served files are grouped (one
// run, a job written one file per process, two runs compared, `vs`), the
// errors of files that are not one job, and which served file each of the
// engine's inputs reads.
#include "cli/serve_runs.hpp"

#include <gtest/gtest.h>

#include <tuple>

#include "read/h5_reader.hpp"
#include "test_support.hpp"
#include "text/messages.hpp"

namespace scope_speedscope::serve {
namespace {

using nlohmann::json;
using Strings = std::vector<std::string>;

std::string job(const std::string& name) { return test::shared_dir() + "/job/2/" + name; }
std::string h5(const std::string& name) { return test::shared_dir() + "/h5/" + name; }

ServedRuns plan(const Strings& files, std::optional<std::size_t> vs_at = std::nullopt) {
  return plan_served(files, vs_at, [&files](std::size_t i) {
    return read_run(files[i], {}, {}, ReadPlan(ReadDepth::index));
  });
}

// The layout as (files, a_files, compare).
std::tuple<std::size_t, std::size_t, bool> shape(const ServedLayout& l) {
  return {l.files, l.a_files, l.compare};
}

TEST(serve_runs, files_are_grouped_as_the_page_groups_picked_files) {
  const std::string r0 = job("job_rank00000.h5"), r1 = job("job_rank00001.h5");
  const std::string rerun = job("rerun_rank00000.h5");
  const ServedRuns one = plan({r0});
  EXPECT_EQ(shape(one.layout), std::make_tuple(1u, 1u, false));
  EXPECT_EQ(one.names, r0);
  // Two files of different ranks: one job; of the same rank: compared.
  const ServedRuns both = plan({r1, r0});
  EXPECT_EQ(shape(both.layout), std::make_tuple(2u, 2u, false));
  EXPECT_EQ(both.names, r1 + " and " + r0 + " (one job)");
  const ServedRuns pair = plan({r0, rerun});
  EXPECT_EQ(shape(pair.layout), std::make_tuple(2u, 1u, true));
  EXPECT_EQ(pair.names, rerun + " against " + r0);
  // vs: run A before it, run B after, whatever ranks they hold.
  const ServedRuns vs = plan({r0, r1, rerun}, 2);
  EXPECT_EQ(shape(vs.layout), std::make_tuple(3u, 2u, true));
  EXPECT_EQ(vs.names, rerun + " against " + r0 + " and " + r1 + " (one job)");
  EXPECT_EQ(shape(plan({r0}, std::nullopt).layout), shape(layout_of_arguments(1, std::nullopt)));
  // Each file's inspect info, as the engine's inspect answers it.
  ASSERT_EQ(vs.infos.size(), 3u);
  EXPECT_EQ(vs.infos[1]["ranks"][0]["rank"], 1);
  EXPECT_EQ(runs_json(vs, {"a", "b", "c"}, {1, 2, 3}),
            json::parse(R"({"runs": [{"name": "a", "size": 1, "info": )" + vs.infos[0].dump() +
                        R"(}, {"name": "b", "size": 2, "info": )" + vs.infos[1].dump() +
                        R"(}, {"name": "c", "size": 3, "info": )" + vs.infos[2].dump() +
                        R"(}], "compare": true, "sides": [[0, 1], [2]]})"));
}

TEST(serve_runs, files_that_are_not_one_job_are_refused_naming_them) {
  const std::string r0 = job("job_rank00000.h5"), r1 = job("job_rank00001.h5");
  const std::string rerun = job("rerun_rank00000.h5");
  try {
    plan({r0, r1, rerun});
    FAIL() << "three files holding rank 0 twice";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), std::string("job_same_rank"));
    EXPECT_EQ(std::string(e.what()),
              r0 + " and " + rerun +
                  " both hold rank 0: the files of one job must hold different ranks (two runs "
                  "of the same ranks are compared, not joined)");
  }
  try {
    plan({rerun, r1, h5("hdf5-schema-2.h5")}, 1);
    FAIL() << "a side that is not one job";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), std::string("job_not_one_job"));
    EXPECT_EQ(std::string(e.what()), r1 + " and " + h5("hdf5-schema-2.h5") +
                                         " are not files of one job: " + r1 +
                                         " is one process's file (no mpi_size), " +
                                         h5("hdf5-schema-2.h5") + " records mpi_size 1");
  }
}

TEST(serve_runs, each_input_reads_the_served_file_its_request_or_its_place_names) {
  const ServedLayout job{4, 4, false};
  const ServedLayout vs{5, 2, true};
  const json none = json::object();
  EXPECT_EQ(served_file(job, none, "file"), 0u);
  EXPECT_EQ(served_file(job, none, "file3"), 3u);
  EXPECT_EQ(served_file(job, none, "fileA2"), 2u);  // without a comparison, the run's
  EXPECT_EQ(served_file(vs, none, "fileA"), 0u);
  EXPECT_EQ(served_file(vs, none, "fileA1"), 1u);
  EXPECT_EQ(served_file(vs, none, "fileB"), 2u);
  EXPECT_EQ(served_file(vs, none, "fileB2"), 4u);
  EXPECT_EQ(served_file(vs, none, "file4"), 4u);
  const json served = json::parse(R"({"served": {"file0": 3, "fileB": 1}})");
  EXPECT_EQ(served_file(job, served, "file0"), 3u);
  EXPECT_EQ(served_file(job, served, "file1"), 1u);  // not named: by its place
  EXPECT_EQ(served_file(vs, served, "fileB"), 1u);
  const auto message = [](const ServedLayout& l, const json& r, const std::string& which) {
    try {
      served_file(l, r, which);
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), std::string("bad_argument"));
      return std::string(e.what());
    }
    return std::string("no error");
  };
  for (const char* which :
       {"fileB", "fileB0", "file4", "fileA4", "file01", "filex", "files", "x", "file1234567"}) {
    EXPECT_EQ(message(job, none, which),
              std::string("scope-speedscope engine: this server has no input '") + which + "'");
  }
  EXPECT_EQ(message(vs, none, "fileA2"),
            "scope-speedscope engine: this server has no input 'fileA2'");
  EXPECT_EQ(message(vs, none, "fileB3"),
            "scope-speedscope engine: this server has no input 'fileB3'");
  const std::string bad =
      "scope-speedscope engine: 'served' must give each input a served file (a whole number from 0 "
      "to 3)";
  for (const char* r :
       {R"({"served": 1})", R"({"served": {"file": 4}})", R"({"served": {"file": -1}})",
        R"({"served": {"file": 1.5}})", R"({"served": {"file": "0"}})"}) {
    EXPECT_EQ(message(job, json::parse(r), "file"), bad) << r;
  }
}

TEST(serve_runs, an_open_is_the_same_with_the_same_options_counts_and_served_files) {
  const auto key = [](const char* r) { return open_key(json::parse(r)); };
  EXPECT_EQ(key(R"({"type": "timeline-bars"})"), "");
  EXPECT_EQ(key(R"({"type": "timeline-open", "options": {"ranks": "all"}})"),
            key(R"({"options": {"ranks": "all"}, "type": "timeline-open"})"));
  EXPECT_NE(key(R"({"type": "timeline-open", "count": 2})"), key(R"({"type": "timeline-open"})"));
  EXPECT_NE(key(R"({"type": "timeline-open", "served": {"file": 1}})"),
            key(R"({"type": "timeline-open", "served": {"file": 0}})"));
  EXPECT_NE(key(R"({"type": "timeline-compare-open", "countA": 2})"),
            key(R"({"type": "timeline-compare-open", "countB": 2})"));
  EXPECT_EQ(open_key(json()), "");
  // An option given as null is one not given (the page sends include: null).
  EXPECT_EQ(key(R"({"type": "timeline-open", "options": {"ranks": "all", "include": null}})"),
            key(R"({"type": "timeline-open", "options": {"ranks": "all"}})"));
  EXPECT_NE(key(R"({"type": "timeline-open", "options": {"ranks": "all", "include": ["a"]}})"),
            key(R"({"type": "timeline-open", "options": {"ranks": "all"}})"));
}

TEST(serve_runs, a_run_is_opened_first_as_a_page_opens_it) {
  const auto dumped = [](const std::vector<json>& opens) {
    std::vector<std::string> out;
    for (const json& o : opens) out.push_back(o.dump());
    return out;
  };
  // One file of four ranks: rank 0, then every rank.
  EXPECT_EQ(dumped(first_opens(plan({h5("ranks_imbalance_s3.h5")}))),
            Strings({R"({"options":{"ranks":[0],"sourceLocations":true},"served":{"file":0},)"
                     R"("type":"timeline-open"})",
                     R"({"options":{"ranks":"all","sourceLocations":true},"served":{"file":0},)"
                     R"("type":"timeline-open"})"}));
  // A job of two files: counted, each file in its place.
  EXPECT_EQ(dumped(first_opens(plan({job("job_rank00000.h5"), job("job_rank00001.h5")}))),
            Strings({R"({"count":2,"options":{"ranks":[0],"sourceLocations":true},)"
                     R"("served":{"file0":0,"file1":1},"type":"timeline-open"})",
                     R"({"count":2,"options":{"ranks":"all","sourceLocations":true},)"
                     R"("served":{"file0":0,"file1":1},"type":"timeline-open"})"}));
  // Without rank 0: the lowest; one rank: no All ranks to open.
  EXPECT_EQ(dumped(first_opens(plan({job("job_rank00001.h5")}))),
            Strings({R"({"options":{"ranks":[1],"sourceLocations":true},"served":{"file":0},)"
                     R"("type":"timeline-open"})"}));
  // A comparison: nothing (the page opens it as it chooses).
  EXPECT_TRUE(first_opens(plan({job("job_rank00000.h5"), job("rerun_rank00000.h5")})).empty());
  // What the page sends for All ranks is the same open, also when it names
  // its first view's timeline as the same file's (web/flow-timeline.js).
  for (const char* same : {"", R"("sameFileAs":1,)"}) {
    EXPECT_EQ(open_key(first_opens(plan({h5("ranks_imbalance_s3.h5")}))[1]),
              open_key(json::parse(std::string(R"({"type":"timeline-open","options":{)") + same +
                                   R"("ranks":"all","include":null,"exclude":null,)"
                                   R"("sourceLocations":true},"served":{"file":0}})")))
        << same;
  }
  EXPECT_TRUE(opens_every_rank(json::parse(R"({"options":{"ranks":"all"}})")));
  EXPECT_FALSE(opens_every_rank(json::parse(R"({"options":{"ranks":[0,1]}})")));
  EXPECT_FALSE(opens_every_rank(json::parse(R"({"type":"timeline-bars"})")));
}

}  // namespace
}  // namespace scope_speedscope::serve
