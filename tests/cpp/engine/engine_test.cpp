// The engine's dispatcher (engine/engine.hpp): every answer it gives equals
// the core's own, asked directly of a timeline opened the same way; its
// errors name the request's problem; a comparison's rows over the whole
// run are diff's; a download is the file's export, byte for byte.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "compare/compare.hpp"
#include "engine/answers.hpp"
#include "engine/engine.hpp"
#include "engine/wire.hpp"
#include "export/export.hpp"
#include "export/narrow.hpp"
#include "export/overview.hpp"
#include "read/h5_reader.hpp"
#include "test_support.hpp"
#include "text/pattern.hpp"
#include "timeline/aligned_grid.hpp"
#include "timeline/timeline.hpp"

namespace scope_speedscope::test {
namespace {

using nlohmann::json;

struct Asked {
  json header;
  std::vector<uint8_t> bytes;
  std::vector<double> column(const json& entry) const { return wire_column(bytes, entry); }
};

// An engine over named files, as a shell gives it.
struct Shell {
  Engine engine;
  std::map<std::string, std::string> files;
  std::vector<ReadPlan> reads;
  CollectTarget* output = nullptr;
  uint64_t group_calls = 0;  // EngineIo::group_calls (the wasm engine's: 8 M)

  Asked ask(const json& request) { return ask_text(request.dump()); }
  Asked ask_text(const std::string& text) {
    EngineIo io;
    io.read = [&](const std::string& which, const Progress& progress, const ReadPlan& plan) {
      reads.push_back(plan);
      return read_run(files.at(which), progress, {}, plan);
    };
    io.output = output;
    io.group_calls = group_calls;
    Asked a;
    a.bytes = engine.dispatch(text, io);
    a.header = wire_header(a.bytes);
    return a;
  }
};

std::string fixture(const std::string& name) { return shared_dir() + "/h5/" + name; }

Timeline direct(const std::string& path, std::vector<int64_t> ranks) {
  TimelineOptions o;
  o.ranks = ranks;
  return open_timeline(read_run(path), o);
}

template <class T>
std::vector<double> as_doubles(const std::vector<T>& v) {
  return std::vector<double>(v.begin(), v.end());
}

TEST(Engine, open_answers_the_timelines_lanes_frames_and_totals) {
  Shell sh;
  sh.files["file"] = fixture("ranks_imbalance_s3.h5");
  const Asked a = sh.ask({{"type", "timeline-open"}, {"options", {{"ranks", {0, 1, 2, 3}}}}});
  ASSERT_EQ(a.header["type"], "result") << a.header.dump();
  const Timeline tl = direct(sh.files["file"], {0, 1, 2, 3});
  EXPECT_EQ(a.header["timeline"], 1);
  ASSERT_EQ(a.header["lanes"].size(), tl.lanes().size());
  for (std::size_t i = 0; i < tl.lanes().size(); ++i) {
    const json& l = a.header["lanes"][i];
    EXPECT_EQ(l["name"], tl.lanes()[i].name);
    EXPECT_EQ(l["calls"], tl.lanes()[i].calls);
    EXPECT_EQ(l["maxDepth"], tl.lanes()[i].max_depth);
    EXPECT_EQ(l["start"], tl.lanes()[i].start_ns);
    EXPECT_EQ(l["end"], tl.lanes()[i].end_ns);
    EXPECT_EQ(l["rank"], tl.lanes()[i].rank);
  }
  EXPECT_EQ(a.header["frames"], json(tl.frames()));
  EXPECT_EQ(a.header["runEnd"], tl.run_end_ns());
  EXPECT_EQ(a.header["originInRun"], tl.origin_in_run_ns());
  // The run's first call, absolute, as text (an int64 a JavaScript number may round).
  EXPECT_EQ(a.header["runOrigin"], std::to_string(tl.origin_ns() - tl.origin_in_run_ns()));
  EXPECT_EQ(a.header["maxWidth"], kTimelineMaxWidth);
  std::vector<double> totals(tl.frames().size(), 0);
  for (const auto& r : tl.regions(0, tl.run_end_ns())) totals[r.frame] = r.calls;
  EXPECT_EQ(a.column(a.header["totals"]), totals);
  // Only the ranks asked for were read.
  ASSERT_EQ(sh.reads.size(), 1u);
  EXPECT_EQ(sh.reads[0].ranks, (std::vector<int64_t>{0, 1, 2, 3}));
}

TEST(Engine, bars_and_busy_are_the_timelines_columns) {
  Shell sh;
  sh.files["file"] = fixture("ranks_imbalance_s3.h5");
  const Asked opened = sh.ask({{"type", "timeline-open"}, {"options", {{"ranks", "all"}}}});
  ASSERT_EQ(opened.header["type"], "result") << opened.header.dump();
  const Timeline tl = direct(sh.files["file"], {0, 1, 2, 3});
  const int64_t end = tl.run_end_ns();
  for (const uint32_t width : {1u, 37u, 800u}) {
    const Asked a = sh.ask({{"type", "timeline-bars"},
                            {"timeline", 1},
                            {"lanes", {0, 2, 1}},
                            {"start", 0},
                            {"end", end},
                            {"width", width}});
    ASSERT_EQ(a.header["type"], "result") << a.header.dump();
    EXPECT_EQ(a.header["width"], width);
    ASSERT_EQ(a.header["bars"].size(), 3u);
    for (const json& b : a.header["bars"]) {
      const Timeline::Bars want = tl.bars(b["lane"].get<std::size_t>(), 0, end, width);
      EXPECT_EQ(a.column(b["start"]), as_doubles(want.start));
      EXPECT_EQ(a.column(b["end"]), as_doubles(want.end));
      EXPECT_EQ(a.column(b["depth"]), as_doubles(want.depth));
      EXPECT_EQ(a.column(b["frame"]), as_doubles(want.frame));
      EXPECT_EQ(a.column(b["count"]), as_doubles(want.count));
      EXPECT_EQ(a.column(b["rows"]), as_doubles(want.rows));
      EXPECT_FALSE(b.contains("ratio"));
    }
    const Asked busy = sh.ask({{"type", "timeline-busy"},
                               {"timeline", 1},
                               {"groups", {{0}, {1, 3}}},
                               {"start", 10},
                               {"end", end},
                               {"width", width}});
    ASSERT_EQ(busy.header["busy"].size(), 2u);
    EXPECT_EQ(busy.header["busy"][0]["$column"], "float32");
    EXPECT_EQ(busy.column(busy.header["busy"][1]), as_doubles(tl.busy({1, 3}, 10, end, width)));
  }
}

TEST(Engine, tables_stacks_and_the_ranks_panel_are_the_cores) {
  Shell sh;
  sh.files["file"] = fixture("ranks_imbalance_s3.h5");
  sh.ask({{"type", "timeline-open"}, {"options", {{"ranks", "all"}}}});
  const Timeline tl = direct(sh.files["file"], {0, 1, 2, 3});
  const int64_t end = tl.run_end_ns(), mid = end / 2;
  const json base = {{"timeline", 1}, {"start", 0}, {"end", end}};
  json q = base;
  q["type"] = "timeline-regions";
  const auto regions = tl.regions(0, end);
  const json got = sh.ask(q).header["regions"];
  ASSERT_EQ(got.size(), regions.size());
  for (std::size_t i = 0; i < regions.size(); ++i) {
    EXPECT_EQ(got[i]["name"], tl.frames()[regions[i].frame]);
    EXPECT_EQ(got[i]["total"], regions[i].total_ns);
    EXPECT_EQ(got[i]["self"], regions[i].self_ns);
    EXPECT_EQ(got[i]["calls"], regions[i].calls);
  }
  const auto stack = tl.stack_at(0, mid);
  const json s = sh.ask({{"type", "timeline-stack"}, {"timeline", 1}, {"lane", 0}, {"time", mid}})
                     .header["stack"];
  ASSERT_EQ(s.size(), stack.size());
  for (std::size_t i = 0; i < stack.size(); ++i) {
    EXPECT_EQ(s[i]["start"], stack[i].start_ns);
    EXPECT_EQ(s[i]["self"], stack[i].self_ns);
  }
  q["type"] = "timeline-imbalance";
  const auto rows = tl.imbalance(0, end);
  const json im = sh.ask(q).header["rows"];
  ASSERT_EQ(im.size(), rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(im[i]["max"], rows[i].max_ns);
    EXPECT_EQ(im[i]["mean"].get<double>(), rows[i].mean_ns);
    EXPECT_EQ(im[i]["slowestRank"], rows[i].slowest_rank);
  }
  q["type"] = "timeline-aligned";
  q["frame"] = rows[0].frame;
  q["maxColumns"] = 5;
  const Asked grid = sh.ask(q);
  const AlignedGrid want = aligned_grid(tl.aligned_calls(rows[0].frame, 0, end), 5);
  EXPECT_EQ(grid.header["grid"]["cols"], want.cols);
  EXPECT_EQ(grid.column(grid.header["grid"]["excess"]), want.excess);
  EXPECT_EQ(grid.column(grid.header["grid"]["spanEnd"]), as_doubles(want.span_end));
  q["type"] = "timeline-lateness";
  const Asked late = sh.ask(q);
  EXPECT_EQ(late.column(late.header["lateness"]),
            mean_lateness(tl.aligned_calls(rows[0].frame, 0, end)).lateness);
  q = base;
  q["type"] = "timeline-fit";
  q["maxCalls"] = 3;
  const auto w = tl.window_within(0, end, 3);
  const Asked fit = sh.ask(q);
  EXPECT_EQ(fit.header["start"], w.start_ns);
  EXPECT_EQ(fit.header["end"], w.end_ns);
  EXPECT_EQ(fit.header["calls"], w.calls);
}

TEST(Engine, a_comparison_over_the_whole_run_answers_diffs_rows) {
  Shell sh;
  sh.files["fileA"] = fixture("nested_pair_a_s3.h5");
  sh.files["fileB"] = fixture("nested_pair_b_s3.h5");
  const Asked opened = sh.ask({{"type", "timeline-compare-open"}, {"options", json::object()}});
  ASSERT_EQ(opened.header["type"], "result") << opened.header.dump();
  const std::vector<RegionDelta> diff =
      compare_regions(read_run(sh.files["fileA"]), read_run(sh.files["fileB"]), {});
  const json& cmp = opened.header["compare"];
  ASSERT_EQ(cmp["regions"].size(), diff.size());
  const json rows = sh.ask({{"type", "timeline-compare-regions"},
                            {"timeline", 1},
                            {"start", 0},
                            {"end", cmp["runEnd"]["b"]}})
                        .header["rows"];
  ASSERT_EQ(rows.size(), diff.size());
  for (std::size_t i = 0; i < diff.size(); ++i) {
    EXPECT_EQ(rows[i]["name"], diff[i].name);
    EXPECT_EQ(rows[i]["b"]["total"], diff[i].b.total_ns) << diff[i].name;
    EXPECT_EQ(rows[i]["deltaSelf"], diff[i].delta_self_ns) << diff[i].name;
    EXPECT_EQ(cmp["regions"][i]["deltaTotal"], diff[i].delta_total_ns) << diff[i].name;
  }
  // Lanes: B's, then A's; B's bars carry ratios.
  const json& lanes = opened.header["lanes"];
  EXPECT_EQ(lanes[0]["run"], "b");
  EXPECT_EQ(lanes[0]["name"].get<std::string>().rfind("B · rank 0", 0), 0u);
  EXPECT_EQ(lanes[cmp["lanesB"].get<std::size_t>()]["run"], "a");
  const json bars = sh.ask({{"type", "timeline-bars"},
                            {"timeline", 1},
                            {"lanes", {0}},
                            {"start", 0},
                            {"end", opened.header["runEnd"]},
                            {"width", 100}})
                        .header["bars"];
  EXPECT_TRUE(bars[0].contains("ratio"));
}

// make_pair.py's runs: A 4 steps of 1000 ns (solve 600, kernels of 200,
// exchange 400) and an io call; B 5 steps of 1200 ns (solve 750, kernels of
// 250, exchange 450 holding a 50 ns halo), no io. Partners: the same lane,
// region and k; worked out by hand.
TEST(Engine, a_comparison_answers_each_calls_partner_and_as_bars_ratios) {
  Shell sh;
  sh.files["fileA"] = fixture("pair_a_s3.h5");
  sh.files["fileB"] = fixture("pair_b_s3.h5");
  const Asked opened = sh.ask({{"type", "timeline-compare-open"}, {"options", {{"ranks", "all"}}}});
  ASSERT_EQ(opened.header["type"], "result") << opened.header.dump();
  ASSERT_EQ(opened.header["compare"]["lanesB"], 2);
  const json& frames = opened.header["frames"];
  const auto frame = [&](const std::string& name) {
    for (std::size_t f = 0; f < frames.size(); ++f)
      if (frames[f] == name) return static_cast<int>(f);
    return -1;
  };
  const auto partner = [&](int lane, int depth, int64_t start) {
    const json h = sh.ask({{"type", "timeline-compare-partner"},
                           {"timeline", 1},
                           {"lane", lane},
                           {"depth", depth},
                           {"start", start}})
                       .header;
    EXPECT_EQ(h["type"], "result") << h.dump();
    return h["partner"];
  };
  // B's solve of step 3 on rank 0 ([3600, 4350)): A's solve of step 3.
  EXPECT_EQ(
      partner(0, 1, 3600),
      json({{"lane", 2}, {"depth", 1}, {"start", 3000}, {"end", 3600}, {"frame", frame("solve")}}));
  // B's 4th kernel of rank 1 (step 1's second, [1450, 1700)) and back.
  const json kernel = {
      {"lane", 3}, {"depth", 2}, {"start", 1200}, {"end", 1400}, {"frame", frame("kernel")}};
  EXPECT_EQ(partner(1, 2, 1450), kernel);
  EXPECT_EQ(
      partner(3, 2, 1200),
      json(
          {{"lane", 1}, {"depth", 2}, {"start", 1450}, {"end", 1700}, {"frame", frame("kernel")}}));
  EXPECT_EQ(partner(2, 0, 2000)["start"], 2400);  // A's step 2: B's step 2
  EXPECT_TRUE(partner(0, 0, 4800).is_null());     // B's fifth step: A has four
  EXPECT_TRUE(partner(0, 2, 750).is_null());      // halo, new in B
  EXPECT_TRUE(partner(2, 0, 4000).is_null());     // io, gone from B
  const json bad = sh.ask({{"type", "timeline-compare-partner"},
                           {"timeline", 1},
                           {"lane", 0},
                           {"depth", 1},
                           {"start", 3601}})
                       .header;
  EXPECT_EQ(bad["code"], "bad_argument");
  EXPECT_EQ(bad["message"], "scope-speedscope engine: no call of lane 0 at depth 1 starts at 3601");

  // A's bars carry the ratio too, B over A: step 1.2, solve 1.25, io none.
  const Asked bars = sh.ask({{"type", "timeline-bars"},
                             {"timeline", 1},
                             {"lanes", {2}},
                             {"start", 0},
                             {"end", 4100},
                             {"width", 4100}});
  const json& a = bars.header["bars"][0];
  const std::vector<double> start = bars.column(a["start"]), depth = bars.column(a["depth"]),
                            ratio = bars.column(a["ratio"]), count = bars.column(a["count"]);
  ASSERT_EQ(start.size(), ratio.size());
  std::map<std::pair<double, double>, double> ratio_at;  // (depth, start) -> ratio
  for (std::size_t i = 0; i < start.size(); ++i) {
    ASSERT_EQ(count[i], 1);
    ratio_at[{depth[i], start[i]}] = ratio[i];
  }
  EXPECT_DOUBLE_EQ((ratio_at[{0, 0}]), 1.2);        // step 0
  EXPECT_DOUBLE_EQ((ratio_at[{1, 1000}]), 1.25);    // solve 1
  EXPECT_DOUBLE_EQ((ratio_at[{1, 1600}]), 1.125);   // exchange 1
  EXPECT_TRUE(std::isnan(ratio_at.at({0, 4000})));  // io
  EXPECT_EQ(ratio_at.size(), 4u * 5 + 1);           // a step, solve, two kernels, exchange; io
  // The wider view merges calls into blocks: their ratio is the sums'.
  const Asked merged = sh.ask({{"type", "timeline-bars"},
                               {"timeline", 1},
                               {"lanes", {2}},
                               {"start", 0},
                               {"end", 4100},
                               {"width", 2}});
  const json& m = merged.header["bars"][0];
  const std::vector<double> mcount = merged.column(m["count"]), mratio = merged.column(m["ratio"]);
  ASSERT_FALSE(mcount.empty());
  EXPECT_GT(mcount[0], 1);
  EXPECT_FALSE(std::isnan(mratio[0]));
}

TEST(Engine, a_download_is_the_files_export_byte_for_byte) {
  Shell sh;
  CollectTarget target;
  sh.output = &target;
  sh.files["file"] = fixture("ranks_imbalance_s3.h5");
  sh.ask({{"type", "timeline-open"}, {"options", {{"ranks", {1}}}}});
  const Asked a = sh.ask({{"type", "timeline-export"},
                          {"timeline", 1},
                          {"options", {{"filepath", "out.speedscope.json"}}}});
  ASSERT_EQ(a.header["type"], "result") << a.header.dump();
  ExportOptions o;
  o.ranks = {1};
  o.verbose = false;
  CollectTarget want;
  export_speedscope({read_run(sh.files["file"])}, "out.speedscope.json", o, want);
  EXPECT_EQ(a.header["files"], json(want.names));
  ASSERT_EQ(target.docs.size(), 1u);
  EXPECT_EQ(target.docs[0].text, want.docs[0].text);
  // The other ranks were read once, to be checked, and not kept.
  ASSERT_EQ(sh.reads.size(), 2u);
  EXPECT_FALSE(sh.reads[1].keep);
}

// Work the engine does in slices (a download, an overview): begun with
// `type`, gone on with `type`-more naming its `token`, refused in the words
// `given_up` once something replaced it.
struct SlicedWork {
  Shell& sh;
  std::string type, token, given_up;
  json begin(int timeline, const json& options) {
    const json p = sh.ask({{"type", type}, {"timeline", timeline}, {"options", options}}).header;
    EXPECT_EQ(p["pending"], true) << p.dump();
    return p[token];
  }
  json more(const json& t) { return sh.ask({{"type", type + "-more"}, {token, t}}).header; }
  // Begun twice: the newer gives the first up and goes on. Returns the newer's token.
  json newer_gives_up(int timeline, const json& options) {
    const json first = begin(timeline, options);
    const json second = begin(timeline, options);
    EXPECT_NE(first, second);
    EXPECT_EQ(more(first)["message"], given_up);
    EXPECT_EQ(more(second)["pending"], true);
    return second;
  }
};

TEST(Engine, a_download_in_slices_goes_on_until_written_and_is_given_up_by_what_replaces_it) {
  Shell sh;
  CollectTarget target;
  sh.output = &target;
  sh.files["file"] = fixture("ranks_imbalance_s3.h5");
  sh.ask({{"type", "timeline-open"}, {"options", {{"ranks", "all"}}}});
  const json sliced = {{"filepath", "out.speedscope.json"}, {"slices", 50}};
  json a = sh.ask({{"type", "timeline-export"}, {"timeline", 1}, {"options", sliced}}).header;
  ASSERT_EQ(a["pending"], true) << a.dump();
  // A slice reads the plan, or writes whole blocks of calls (here a lane's)
  // until 50 events at least.
  const uint64_t total = a["total"];
  int slices = 1;
  uint64_t done = a["done"];
  while (a.value("pending", false) && slices < 100000) {
    a = sh.ask({{"type", "timeline-export-more"}, {"exporting", a["exporting"]}}).header;
    ++slices;
    if (a.value("pending", false)) {
      if (done > 0) {
        EXPECT_GE(a["done"].get<uint64_t>(), done + 50);
      }
      EXPECT_LE(a["done"].get<uint64_t>(), total);
      done = a["done"];
    }
  }
  ASSERT_EQ(a["type"], "result") << a.dump();
  EXPECT_EQ(a["files"], json({"out.speedscope.json"}));
  EXPECT_GE(slices, 3);
  EXPECT_LE(slices, 2 * static_cast<int>((total + 49) / 50));
  ExportOptions o;
  o.every_rank = true;
  o.verbose = false;
  CollectTarget want;
  export_speedscope({read_run(sh.files["file"])}, "out.speedscope.json", o, want);
  ASSERT_EQ(target.docs.size(), 1u);
  EXPECT_EQ(target.docs[0].text, want.docs[0].text);
  EXPECT_EQ(target.aborts, 0);

  // A newer download, a cancel or a close gives it up (the shell drops
  // what it was lent: the engine holds no output between requests).
  SlicedWork work{sh, "timeline-export", "exporting",
                  "scope-speedscope engine: the download was given up (a newer download, file "
                  "or options replaced it)"};
  const auto more = [&](const json& token) { return work.more(token); };
  const json second = work.newer_gives_up(1, sliced);
  EXPECT_EQ(sh.ask({{"type", "timeline-export-cancel"}, {"exporting", second}}).header["type"],
            "result");
  EXPECT_EQ(more(second)["message"], work.given_up);
  const json third = work.begin(1, sliced);
  sh.ask({{"type", "timeline-close"}, {"timeline", 1}});
  EXPECT_EQ(more(third)["message"], work.given_up);
  // Without an output to write to, a slice is refused.
  sh.ask({{"type", "timeline-open"}, {"options", {{"ranks", "all"}}}});
  const json fourth =
      sh.ask({{"type", "timeline-export"}, {"timeline", 2}, {"options", sliced}}).header;
  sh.output = nullptr;
  EXPECT_EQ(more(fourth["exporting"])["message"],
            "scope-speedscope engine: this engine has nowhere to write a download");
  sh.output = &target;
  EXPECT_EQ(more(fourth["exporting"])["pending"], true);
  json zero = sliced;
  zero["slices"] = 0;
  EXPECT_EQ(
      sh.ask({{"type", "timeline-export"}, {"timeline", 2}, {"options", zero}}).header["message"],
      "scope-speedscope engine: 'options.slices' must be true, false or a number of events "
      "from 1");
}

// timeline-check: the ranks a first view did not read, checked a few at a
// time between other requests (the page's download). The export then reads
// nothing more; its document, or its error, is the one without checks, on
// every damaged file and every fixture with several ranks.
struct Exported {
  json header;
  std::vector<std::string> docs;
  std::size_t reads_after_checks = 0;
};

// export_slices: the download asked in slices of that many events (0: at
// once), a question to the timeline between slices.
Exported export_first_rank(const std::string& path, bool checked_first,
                           uint64_t export_slices = 0) {
  Shell sh;
  CollectTarget target;
  sh.output = &target;
  sh.files["file"] = path;
  Exported out;
  const Asked open = sh.ask({{"type", "timeline-open"}, {"options", {{"ranks", {0}}}}});
  if (open.header["type"] != "result") {
    out.header = open.header;
    return out;
  }
  const json id = open.header["timeline"];
  for (int slice = 0; checked_first; ++slice) {  // a few hundred calls a slice
    const Asked c = sh.ask({{"type", "timeline-check"}, {"timeline", id}, {"calls", 300}});
    EXPECT_EQ(c.header["type"], "result") << c.header.dump();
    if (c.header["left"] == 0 || slice > 10000) break;
  }
  const std::size_t reads = sh.reads.size();
  json options = {{"filepath", "out.speedscope.json"}};
  if (export_slices > 0) options["slices"] = export_slices;
  out.header = sh.ask({{"type", "timeline-export"}, {"timeline", id}, {"options", options}}).header;
  for (int slice = 0; out.header.value("pending", false) && slice < 1000000; ++slice) {
    EXPECT_FALSE(target.committed);
    const Asked q = sh.ask(
        {{"type", "timeline-fit"}, {"timeline", id}, {"start", 0}, {"end", 1000}, {"maxCalls", 3}});
    EXPECT_EQ(q.header["type"], "result") << q.header.dump();
    out.header =
        sh.ask({{"type", "timeline-export-more"}, {"exporting", out.header["exporting"]}}).header;
  }
  if (out.header["type"] == "result") {
    EXPECT_TRUE(target.committed);
  }
  if (out.header["type"] == "error") {
    EXPECT_EQ(target.aborts, target.docs.empty() ? 0 : 1);  // what was opened is aborted
  }
  out.reads_after_checks = sh.reads.size() - reads;
  for (const StringSink& d : target.docs) out.docs.push_back(d.text);
  return out;
}

TEST(Engine, checked_a_rank_at_a_time_a_download_is_the_same_bytes_or_error) {
  std::vector<std::string> files = damaged_files();
  for (const char* f : {"ranks_imbalance_s3.h5", "ranks_main_s3.h5", "large_s3.h5", "nested_s3.h5"})
    files.push_back(fixture(f));
  EXPECT_GT(files.size(), 20u);
  int checked_and_clean = 0;
  for (const std::string& f : files) {
    SCOPED_TRACE(f);
    const Exported once = export_first_rank(f, false);
    const Exported sliced = export_first_rank(f, true);
    json a = once.header, b = sliced.header;
    EXPECT_EQ(b.dump(), a.dump());
    EXPECT_EQ(sliced.docs, once.docs);
    // Written a few events at a time, the same files or error.
    const Exported in_slices = export_first_rank(f, true, 7);
    EXPECT_EQ(in_slices.header.dump(), a.dump());
    EXPECT_EQ(in_slices.docs, once.docs);
    if (b["type"] == "result" && once.reads_after_checks > 0) {
      EXPECT_EQ(sliced.reads_after_checks, 0u);  // every rank checked before
      ++checked_and_clean;
    }
  }
  EXPECT_GE(checked_and_clean, 3);
}

// The page's way to every rank: rank 0 opened provisionally, made exact,
// every other rank checked, then every rank opened, naming the open
// timeline as of the same file (same_file) or not.
struct Reopened {
  json header;
  std::vector<std::string> docs;
  std::vector<ReadPlan> reads;  // the open of every rank's
  int slices = 0;               // sliced: the requests it took
};

// sliced: options.slices too, each slice followed by a question to the
// timeline open before (answered between slices); checked: the other ranks
// checked first (else the sliced open checks them itself).
Reopened reopen_every_rank(const std::string& path, bool same_file, bool sliced = false,
                           bool checked = true) {
  Shell sh;
  sh.group_calls = 1;  // a group a rank
  CollectTarget target;
  sh.output = &target;
  sh.files["file"] = path;
  Reopened out;
  const Asked first =
      sh.ask({{"type", "timeline-open"},
              {"options", {{"ranks", {0}}, {"provisional", true}, {"sourceLocations", true}}}});
  if (first.header["type"] != "result") {
    out.header = first.header;
    return out;
  }
  const Asked done =
      sh.ask({{"type", "timeline-complete"}, {"timeline", first.header["timeline"]}});
  const json id = done.header.value("timeline", first.header["timeline"]);
  for (int slice = 0; checked && slice < 10000; ++slice) {
    const Asked c = sh.ask({{"type", "timeline-check"}, {"timeline", id}, {"calls", 100000}});
    if (c.header["type"] != "result" || c.header["left"] == 0) break;
  }
  // A group a rank; of a file of thousands of ranks, a few groups (a read each).
  if (first.header["unreadRanks"].size() > 64) sh.group_calls = 1 << 14;
  const std::size_t reads = sh.reads.size();
  json options = {{"ranks", "all"}, {"sourceLocations", true}};
  if (same_file) options["sameFileAs"] = id;
  if (sliced) options["slices"] = true;
  out.header = sh.ask({{"type", "timeline-open"}, {"options", options}}).header;
  uint64_t done_before = 0;
  for (out.slices = 1; out.header.value("pending", false); ++out.slices) {
    const Asked old =
        sh.ask({{"type", "timeline-regions"}, {"timeline", id}, {"start", 0}, {"end", 1000}});
    EXPECT_EQ(old.header["type"], "result") << old.header.dump();
    EXPECT_LE(out.header["done"], out.header["total"]);
    EXPECT_LE(done_before, out.header["done"].get<uint64_t>());
    done_before = out.header["done"].get<uint64_t>();
    out.header =
        sh.ask({{"type", "timeline-open-more"}, {"opening", out.header["opening"]}}).header;
  }
  out.reads.assign(sh.reads.begin() + static_cast<std::ptrdiff_t>(reads), sh.reads.end());
  if (out.header["type"] != "result") return out;
  const Asked doc = sh.ask({{"type", "timeline-export"},
                            {"timeline", out.header["timeline"]},
                            {"options", {{"filepath", "out.speedscope.json"}}}});
  EXPECT_EQ(doc.header["type"], "result") << doc.header.dump();
  for (const StringSink& d : target.docs) out.docs.push_back(d.text);
  return out;
}

TEST(Engine, the_same_file_again_reads_a_group_of_ranks_at_a_time_and_answers_the_same) {
  std::vector<std::string> files = damaged_files();
  for (const char* f : {"ranks_imbalance_s3.h5", "ranks_main_s3.h5", "order_by_other_rank_s3.h5",
                        "nested_pair_a_s3.h5", "threads_s3.h5", "large_s3.h5",
                        "chunked/job_6x4000_gzip_s3.h5", "chunked/job_6x4000_rank3_damaged_s3.h5",
                        "chunked/job_6x4000_rank1_overlap_rank3_damaged_s3.h5"})
    files.push_back(fixture(f));
  int grouped = 0, grouped_errors = 0, sliced_more = 0, unchecked_in_slices = 0;
  for (const std::string& f : files) {
    SCOPED_TRACE(f);
    const Reopened once = reopen_every_rank(f, false);
    const Reopened again = reopen_every_rank(f, true);
    const Reopened sliced = reopen_every_rank(f, true, true);
    // Not checked before: the sliced open reads its groups at once, and
    // what fails in one sends it back to the one read (failing as it does).
    const Reopened unchecked = reopen_every_rank(f, true, true, false);
    EXPECT_EQ(again.header.dump(), once.header.dump());
    EXPECT_EQ(again.docs, once.docs);
    EXPECT_EQ(sliced.header.dump(), once.header.dump());
    EXPECT_EQ(sliced.docs, once.docs);
    EXPECT_EQ(unchecked.header.dump(), once.header.dump());
    EXPECT_EQ(unchecked.docs, once.docs);
    if (unchecked.slices > 2) ++unchecked_in_slices;
    // Rank 3's durations damaged: its group's read fails, and the open then
    // reads at once, failing as the file does.
    // Rank 1's calls also overlapping: in groups its reconstruction would
    // fail first, before rank 3 is read; the one read fails on rank 3.
    if (f.find("rank1_overlap") != std::string::npos) {
      EXPECT_NE(unchecked.header.value("message", "").find("cannot read dataset"),
                std::string::npos)
          << unchecked.header.dump();
    }
    if (f.find("job_6x4000_rank3_damaged") != std::string::npos) {
      EXPECT_EQ(unchecked.header["type"], "error");
      EXPECT_EQ(unchecked.slices, 4) << unchecked.header.dump();  // ranks 0 to 2, then 3 fails
    }
    // (A file whose checks failed is checked again by the sliced open.)
    if (sliced.header["type"] == "result") {
      EXPECT_EQ(sliced.reads.size(), again.reads.size());
    }
    if (again.reads.size() > 2 && sliced.header["type"] == "result") {
      // A group a request (its reads but the index's), then one that indexes the timeline.
      EXPECT_EQ(sliced.slices, static_cast<int>(again.reads.size()));
      ++sliced_more;
    }
    // Read at once: one read of every rank. In groups: the index, then a read a rank.
    if (!once.reads.empty()) {
      EXPECT_EQ(once.reads.size(), 1u);
    }
    if (again.reads.size() > 1) {
      ASSERT_TRUE(again.reads[0].ranks.has_value());
      EXPECT_TRUE(again.reads[0].ranks->empty());
      for (const ReadPlan& p : again.reads) EXPECT_FALSE(p.others_first_starts);
      ++grouped;
      grouped_errors += again.header["type"] != "result";
    }
  }
  EXPECT_GE(grouped, 100);
  EXPECT_GE(grouped_errors, 1);  // calls that do not nest, said alike
  EXPECT_GE(sliced_more, 3);
  EXPECT_GE(unchecked_in_slices, 15);
}

TEST(Engine, the_same_file_again_is_read_at_once_unless_every_rank_was_read) {
  Shell sh;
  sh.group_calls = 1;
  sh.files["file"] = fixture("ranks_imbalance_s3.h5");
  sh.ask({{"type", "timeline-open"}, {"options", {{"ranks", {0}}}}});
  // Ranks 1 to 3 not read yet: at once.
  std::size_t reads = sh.reads.size();
  Asked a =
      sh.ask({{"type", "timeline-open"}, {"options", {{"ranks", {0, 1}}, {"sameFileAs", 1}}}});
  ASSERT_EQ(a.header["type"], "result") << a.header.dump();
  EXPECT_EQ(sh.reads.size(), reads + 1);
  // Ranks 2 and 3 checked: every rank read; an id that is not the open one's: at once.
  a = sh.ask({{"type", "timeline-check"}, {"timeline", 2}, {"calls", 1000}});
  EXPECT_EQ(a.header["left"], 0);
  reads = sh.reads.size();
  a = sh.ask({{"type", "timeline-open"}, {"options", {{"ranks", "all"}, {"sameFileAs", 1}}}});
  EXPECT_EQ(sh.reads.size(), reads + 1);
  // (A reopen at once of every rank read them all.) Now in groups: the index, then four ranks.
  reads = sh.reads.size();
  a = sh.ask({{"type", "timeline-open"},
              {"options", {{"ranks", {3, 1}}, {"exclude", {"exchange"}}, {"sameFileAs", 3}}}});
  ASSERT_EQ(a.header["type"], "result") << a.header.dump();
  ASSERT_EQ(sh.reads.size(), reads + 3);
  EXPECT_EQ(sh.reads[reads].ranks, std::vector<int64_t>{});
  EXPECT_EQ(sh.reads[reads + 1].ranks, std::vector<int64_t>{3});
  EXPECT_EQ(sh.reads[reads + 2].ranks, std::vector<int64_t>{1});
  // An engine that reads at once (natively) ignores it.
  sh.group_calls = 0;
  reads = sh.reads.size();
  a = sh.ask({{"type", "timeline-open"}, {"options", {{"ranks", {2}}, {"sameFileAs", 4}}}});
  EXPECT_EQ(sh.reads.size(), reads + 1);
  // Not a number: refused.
  a = sh.ask({{"type", "timeline-open"}, {"options", {{"ranks", {2}}, {"sameFileAs", "5"}}}});
  EXPECT_EQ(a.header["type"], "error");
  EXPECT_EQ(a.header["message"],
            "scope-speedscope engine: 'options.sameFileAs' must be a timeline's id");
}

// A fresh open in slices (a link straight to All ranks): nothing open
// before, so the file's order is its own, read first from every rank's
// start column; then a group of ranks a request. The answer, the
// questions between slices and the download are the one read's, and a
// damaged file fails as it does.
struct FreshOpen {
  json header, exported;
  std::vector<std::string> docs;
  std::vector<ReadPlan> reads;
  int slices = 0;
};

FreshOpen open_fresh(const std::string& path, const json& ranks, bool sliced) {
  Shell sh;
  sh.group_calls = 1;  // a group a rank; of a file of thousands of ranks, a few groups
  try {
    if (read_run(path, {}, {}, ReadPlan(ReadDepth::index)).num_ranks > 64) sh.group_calls = 1 << 14;
  } catch (const Error&) {
  }
  CollectTarget target;
  sh.output = &target;
  sh.files["file"] = path;
  FreshOpen out;
  json options = {{"ranks", ranks}, {"sourceLocations", true}};
  if (sliced) options["slices"] = true;
  out.header = sh.ask({{"type", "timeline-open"}, {"options", options}}).header;
  for (out.slices = 1; out.header.value("pending", false) && out.slices < 100000; ++out.slices) {
    // Nothing was open before: a question between slices is refused, not waited on.
    const Asked q =
        sh.ask({{"type", "timeline-regions"}, {"timeline", 1}, {"start", 0}, {"end", 1000}});
    EXPECT_EQ(q.header["type"], "error") << q.header.dump();
    out.header =
        sh.ask({{"type", "timeline-open-more"}, {"opening", out.header["opening"]}}).header;
  }
  out.reads = sh.reads;
  if (out.header["type"] != "result") return out;
  // (A download of some ranks checks the others: it may fail where the open did not.)
  out.exported = sh.ask({{"type", "timeline-export"},
                         {"timeline", out.header["timeline"]},
                         {"options", {{"filepath", "out.speedscope.json"}}}})
                     .header;
  for (const StringSink& d : target.docs) out.docs.push_back(d.text);
  return out;
}

TEST(Engine, a_fresh_open_in_slices_answers_as_the_one_read) {
  std::vector<std::string> files = damaged_files();
  for (const char* f :
       {"ranks_imbalance_s3.h5", "ranks_main_s3.h5", "order_by_other_rank_s3.h5",
        "nested_pair_a_s3.h5", "threads_s3.h5", "large_s3.h5", "real_run_s1.h5", "hdf5-schema-2.h5",
        "chunked/job_6x4000_gzip_s3.h5", "chunked/job_6x4000_rank3_damaged_s3.h5",
        "chunked/job_6x4000_rank1_overlap_rank3_damaged_s3.h5"})
    files.push_back(fixture(f));
  int in_groups = 0, failed_alike = 0;
  for (const std::string& f : files) {
    SCOPED_TRACE(f);
    for (const json& ranks : {json("all"), json({2, 0})}) {
      SCOPED_TRACE(ranks.dump());
      const FreshOpen once = open_fresh(f, ranks, false);
      const FreshOpen sliced = open_fresh(f, ranks, true);
      EXPECT_EQ(sliced.header.dump(), once.header.dump());
      EXPECT_EQ(sliced.exported.dump(), once.exported.dump());
      EXPECT_EQ(sliced.docs, once.docs);
      if (sliced.header["type"] != "result") failed_alike += sliced.slices > 1;
      if (sliced.header["type"] != "result" || sliced.slices < 3) continue;
      // The index, the index with every rank's first starts, then a read a group.
      ++in_groups;
      ASSERT_GE(sliced.reads.size(), 4u);
      EXPECT_EQ(sliced.reads[0].ranks, std::vector<int64_t>{});
      EXPECT_FALSE(sliced.reads[0].others_first_starts);
      EXPECT_EQ(sliced.reads[1].ranks, std::vector<int64_t>{});
      EXPECT_TRUE(sliced.reads[1].others_first_starts);
      for (std::size_t i = 2; i < sliced.reads.size(); ++i) {
        ASSERT_TRUE(sliced.reads[i].ranks.has_value());
        EXPECT_FALSE(sliced.reads[i].ranks->empty());
        EXPECT_FALSE(sliced.reads[i].others_first_starts);
      }
    }
  }
  EXPECT_GE(in_groups, 10);
  EXPECT_GE(failed_alike, 2);  // rank 3 damaged, with and without rank 1's overlap
}

TEST(Engine, a_fresh_open_in_slices_is_read_at_once_when_one_group_holds_it) {
  Shell sh;
  sh.group_calls = 1000;  // more than the file's 60 calls
  sh.files["file"] = fixture("ranks_imbalance_s3.h5");
  const Asked a =
      sh.ask({{"type", "timeline-open"}, {"options", {{"ranks", "all"}, {"slices", true}}}});
  ASSERT_EQ(a.header["type"], "result") << a.header.dump();
  EXPECT_FALSE(a.header.contains("pending"));
  ASSERT_EQ(sh.reads.size(), 2u);  // the index, then the one read
  EXPECT_FALSE(sh.reads[1].ranks.has_value() && sh.reads[1].ranks->empty());
  // A number: that many calls a group (15 a rank here: two ranks a group).
  Asked n = sh.ask({{"type", "timeline-open"}, {"options", {{"ranks", "all"}, {"slices", 30}}}});
  ASSERT_EQ(n.header["pending"], true) << n.header.dump();
  EXPECT_EQ(n.header["done"], 30);
  n = sh.ask({{"type", "timeline-open-more"}, {"opening", n.header["opening"]}});
  EXPECT_EQ(n.header["done"], 60);
  n = sh.ask({{"type", "timeline-open-more"}, {"opening", n.header["opening"]}});
  EXPECT_EQ(n.header["lanes"].size(), a.header["lanes"].size());
  EXPECT_EQ(n.header["frames"], a.header["frames"]);
  for (const json& bad : {json(0), json(-1), json("8")}) {
    n = sh.ask({{"type", "timeline-open"}, {"options", {{"ranks", "all"}, {"slices", bad}}}});
    EXPECT_EQ(n.header["type"], "error") << bad.dump();
  }
  EXPECT_EQ(n.header["message"], "scope-speedscope engine: 'slices' must be a whole number from 0");
  n = sh.ask({{"type", "timeline-open"}, {"options", {{"ranks", "all"}, {"slices", 0}}}});
  EXPECT_EQ(n.header["message"],
            "scope-speedscope engine: 'options.slices' must be true, false or a number of calls "
            "from 1");
  // An engine that reads at once (natively): at once, whatever the number.
  sh.group_calls = 0;
  n = sh.ask({{"type", "timeline-open"}, {"options", {{"ranks", "all"}, {"slices", 1}}}});
  EXPECT_FALSE(n.header.contains("pending"));
  EXPECT_EQ(n.header["type"], "result");
  // Provisional: never in slices (its order is its ranks' own).
  sh.group_calls = 1;
  const Asked p = sh.ask({{"type", "timeline-open"},
                          {"options", {{"ranks", {0}}, {"provisional", true}, {"slices", true}}}});
  ASSERT_EQ(p.header["type"], "result") << p.header.dump();
  EXPECT_FALSE(p.header.contains("pending"));
  EXPECT_EQ(p.header["provisional"], true);
}

// All ranks chosen before the first view was made exact: the timeline it
// names is provisional (its order its rank's own), so the open in slices
// is a fresh one (the file's order read first), the provisional timeline
// answering between its slices; the answer is the one read's.
TEST(Engine, the_same_file_again_before_it_is_exact_opens_fresh_in_slices) {
  for (const char* file : {"ranks_imbalance_s3.h5", "order_by_other_rank_s3.h5"}) {
    SCOPED_TRACE(file);
    Shell once, sh;
    once.files["file"] = sh.files["file"] = fixture(file);
    const Asked want =
        once.ask({{"type", "timeline-open"}, {"options", {{"ranks", "all"}, {"slices", false}}}});
    ASSERT_EQ(want.header["type"], "result") << want.header.dump();
    sh.group_calls = 1;
    const Asked first =
        sh.ask({{"type", "timeline-open"}, {"options", {{"ranks", {0}}, {"provisional", true}}}});
    ASSERT_EQ(first.header["provisional"], true);
    const json options = {
        {"ranks", "all"}, {"sameFileAs", first.header["timeline"]}, {"slices", true}};
    Asked a = sh.ask({{"type", "timeline-open"}, {"options", options}});
    ASSERT_EQ(a.header["pending"], true) << a.header.dump();
    ASSERT_GE(sh.reads.size(), 3u);
    EXPECT_TRUE(sh.reads[2].others_first_starts);  // the file's order read first
    int slices = 1;
    for (; a.header.value("pending", false); ++slices) {
      const Asked q = sh.ask({{"type", "timeline-regions"},
                              {"timeline", first.header["timeline"]},
                              {"start", 0},
                              {"end", 1000}});
      EXPECT_EQ(q.header["type"], "result") << q.header.dump();
      a = sh.ask({{"type", "timeline-open-more"}, {"opening", a.header["opening"]}});
    }
    EXPECT_GE(slices, 3);
    json got = a.header, expected = want.header;
    got.erase("timeline");
    expected.erase("timeline");
    EXPECT_EQ(got.dump(), expected.dump());
  }
}

TEST(Engine, a_sliced_open_given_up_leaves_the_timeline_before_it_open) {
  Shell sh;
  sh.group_calls = 1;
  sh.files["file"] = fixture("ranks_imbalance_s3.h5");
  sh.ask({{"type", "timeline-open"}, {"options", {{"ranks", {0}}}}});
  Asked a = sh.ask({{"type", "timeline-check"}, {"timeline", 1}, {"calls", 1000}});
  ASSERT_EQ(a.header["left"], 0);
  const json options = {{"ranks", "all"}, {"sameFileAs", 1}, {"slices", true}};
  a = sh.ask({{"type", "timeline-open"}, {"options", options}});
  ASSERT_EQ(a.header["type"], "result") << a.header.dump();
  ASSERT_EQ(a.header["pending"], true);
  EXPECT_EQ(a.header["done"], 15);  // rank 0's calls (4 ranks of 15)
  EXPECT_EQ(a.header["total"], 60);
  const json opening = a.header["opening"];
  a = sh.ask({{"type", "timeline-open-more"}, {"opening", opening}});
  EXPECT_EQ(a.header["done"], 30);
  // Given up: the timeline before it answers, the opening is gone.
  a = sh.ask({{"type", "timeline-open-cancel"}, {"opening", opening}});
  EXPECT_EQ(a.header["type"], "result");
  a = sh.ask({{"type", "timeline-regions"}, {"timeline", 1}, {"start", 0}, {"end", 5001}});
  EXPECT_EQ(a.header["type"], "result") << a.header.dump();
  a = sh.ask({{"type", "timeline-open-more"}, {"opening", opening}});
  EXPECT_EQ(a.header["type"], "error");
  EXPECT_EQ(a.header["message"],
            "scope-speedscope engine: the opening was given up (a newer file, options or request "
            "replaced it)");
  // A new open gives up the one going on; its token then names nothing.
  a = sh.ask({{"type", "timeline-open"}, {"options", options}});
  ASSERT_EQ(a.header["pending"], true);
  const json second = a.header["opening"];
  sh.ask({{"type", "timeline-open"}, {"options", {{"ranks", {1}}}}});
  a = sh.ask({{"type", "timeline-open-more"}, {"opening", second}});
  EXPECT_EQ(a.header["type"], "error");
}

TEST(Engine, timeline_check_answers_what_is_left_and_refuses_bad_requests) {
  Shell sh;
  sh.files["file"] = fixture("ranks_imbalance_s3.h5");
  const Asked open = sh.ask({{"type", "timeline-open"}, {"options", {{"ranks", {2}}}}});
  ASSERT_EQ(open.header["unreadRanks"], json({0, 1, 3}));
  const std::size_t reads = sh.reads.size();
  // One rank at least, however few calls are asked.
  Asked c = sh.ask({{"type", "timeline-check"}, {"timeline", 1}, {"calls", 1}});
  EXPECT_EQ(c.header["ok"], true);
  EXPECT_EQ(c.header["checked"], json({0}));
  EXPECT_EQ(c.header["left"], 2);
  ASSERT_EQ(sh.reads.size(), reads + 1);
  EXPECT_EQ(sh.reads.back().ranks, (std::vector<int64_t>{0}));
  EXPECT_FALSE(sh.reads.back().keep);
  // Enough calls for the rest: both in one read.
  c = sh.ask({{"type", "timeline-check"}, {"timeline", 1}, {"calls", 1000000}});
  EXPECT_EQ(c.header["checked"], json({1, 3}));
  EXPECT_EQ(c.header["left"], 0);
  EXPECT_EQ(sh.reads.back().ranks, (std::vector<int64_t>{1, 3}));
  // Nothing left: nothing read, and the export reads nothing more.
  c = sh.ask({{"type", "timeline-check"}, {"timeline", 1}, {"calls", 5}});
  EXPECT_EQ(c.header["checked"], json::array());
  EXPECT_EQ(sh.reads.size(), reads + 2);
  c = sh.ask({{"type", "timeline-check"}, {"timeline", 1}, {"calls", 0}});
  EXPECT_EQ(c.header["type"], "error");
  EXPECT_EQ(c.header["message"],
            "scope-speedscope engine: timeline-check needs 'calls', a whole number of at least 1");
  c = sh.ask({{"type", "timeline-check"}, {"timeline", 7}, {"calls", 5}});
  EXPECT_EQ(c.header["type"], "error");
}

// The open of the page's first view: provisional (nothing of the other
// ranks read), then made exact by timeline-complete. Once complete, every
// answer is an exact open's; the id stays unless the frames' order changed.
TEST(Engine, a_provisional_open_completes_into_the_exact_one) {
  int changed = 0, kept = 0;
  for (const char* file : {"ranks_imbalance_s3.h5", "hdf5-schema-2.h5", "hdf5-schema-3.h5",
                           "real_run_s1.h5", "pair_a_s3.h5", "nested_pair_a_s3.h5", "threads_s3.h5",
                           "large_s3.h5", "order_by_other_rank_s3.h5"}) {
    const scope_speedscope::Run index = read_run(fixture(file), {}, {}, ReadPlan(ReadDepth::index));
    for (int64_t rank = 0; rank < std::min<int64_t>(index.num_ranks, 4); ++rank) {
      const std::string what = std::string(file) + " rank " + std::to_string(rank);
      Shell exact, sh;
      exact.files["file"] = sh.files["file"] = fixture(file);
      const json options = {{"ranks", {rank}}};
      const Asked want = exact.ask({{"type", "timeline-open"}, {"options", options}});
      json provisional = options;
      provisional["provisional"] = true;
      const Asked first = sh.ask({{"type", "timeline-open"}, {"options", provisional}});
      if (want.header["type"] != "result") {  // refused alike (no calls on that rank)
        EXPECT_EQ(first.header, want.header) << what;
        continue;
      }
      ASSERT_EQ(first.header["type"], "result") << what << first.header.dump();
      // Nothing of the other ranks was read: not even their start column.
      ASSERT_EQ(sh.reads.size(), 1u);
      EXPECT_FALSE(sh.reads[0].others_first_starts) << what;
      const bool others = !want.header["unreadRanks"].empty();
      EXPECT_EQ(first.header["provisional"], others) << what;
      const Asked done = sh.ask({{"type", "timeline-complete"}, {"timeline", 1}});
      ASSERT_EQ(done.header["type"], "result") << what << done.header.dump();
      EXPECT_EQ(done.header["provisional"], false);
      EXPECT_EQ(done.header["originInRun"], want.header["originInRun"]) << what;
      EXPECT_EQ(done.header["runOrigin"], want.header["runOrigin"]) << what;
      const int id = done.header["timeline"].get<int>();
      if (done.header["changed"].get<bool>()) {
        ++changed;
        EXPECT_EQ(id, 2) << what;
        EXPECT_NE(first.header["frames"], want.header["frames"]) << what;
        EXPECT_EQ(done.header["frames"], want.header["frames"]) << what;
        EXPECT_EQ(done.column(done.header["totals"]), want.column(want.header["totals"])) << what;
      } else {
        kept += others ? 1 : 0;
        EXPECT_EQ(id, 1) << what;
        EXPECT_EQ(first.header["frames"], want.header["frames"]) << what;
      }
      // Every answer now is the exact open's.
      const int64_t end = want.header["runEnd"].get<int64_t>();
      for (const json& q : {json{{"type", "timeline-bars"},
                                 {"lanes", {0}},
                                 {"start", 0},
                                 {"end", end},
                                 {"width", 97}},
                            json{{"type", "timeline-regions"}, {"start", 0}, {"end", end}},
                            json{{"type", "timeline-imbalance"}, {"start", 0}, {"end", end}}}) {
        json mine = q, theirs = q;
        mine["timeline"] = id;
        theirs["timeline"] = 1;
        const Asked a = sh.ask(mine), b = exact.ask(theirs);
        json ha = a.header, hb = b.header;
        ha.erase("timeline");
        hb.erase("timeline");
        EXPECT_EQ(ha, hb) << what << q.dump();
        // The columns after each header, byte for byte.
        const auto columns = [](const Asked& x) {
          uint32_t n = 0;
          std::memcpy(&n, x.bytes.data() + 4, 4);
          return std::vector<uint8_t>(x.bytes.begin() + ((8 + n + 7) & ~7u), x.bytes.end());
        };
        EXPECT_EQ(columns(a), columns(b)) << what << q.dump();
      }
      // Completing again reads nothing more.
      const std::size_t reads = sh.reads.size();
      const Asked again = sh.ask({{"type", "timeline-complete"}, {"timeline", id}});
      EXPECT_EQ(again.header["changed"], false);
      EXPECT_EQ(sh.reads.size(), reads);
    }
  }
  // Both cases are among the fixtures: an order another rank changes, and one it keeps.
  EXPECT_GT(changed, 0);
  EXPECT_GT(kept, 0);
}

TEST(Engine, a_provisional_timelines_download_is_the_files_export) {
  // ranks_imbalance keeps its order (the same id writes it); on
  // order_by_other_rank rank 0 loses it (the export of id 1 is refused as
  // of a replaced timeline, id 2 writes it).
  for (const auto& [file, changed] :
       {std::pair{"ranks_imbalance_s3.h5", false}, std::pair{"order_by_other_rank_s3.h5", true}}) {
    Shell sh;
    CollectTarget target;
    sh.output = &target;
    sh.files["file"] = fixture(file);
    sh.ask({{"type", "timeline-open"}, {"options", {{"ranks", {0}}, {"provisional", true}}}});
    const json request = {{"type", "timeline-export"},
                          {"timeline", 1},
                          {"options", {{"filepath", "out.speedscope.json"}}}};
    Asked a = sh.ask(request);
    if (changed) {
      EXPECT_EQ(a.header["message"],
                "scope-speedscope engine: the timeline was closed (a newer file or options "
                "replaced it)");
      json again = request;
      again["timeline"] = 2;
      a = sh.ask(again);
    }
    ASSERT_EQ(a.header["type"], "result") << file << a.header.dump();
    ExportOptions o;
    o.ranks = {0};
    o.verbose = false;
    CollectTarget want;
    export_speedscope({read_run(sh.files["file"])}, "out.speedscope.json", o, want);
    ASSERT_EQ(target.docs.size(), 1u) << file;
    EXPECT_EQ(target.docs[0].text, want.docs[0].text) << file;
  }
  Shell sh;
  sh.files["file"] = fixture("ranks_imbalance_s3.h5");
  EXPECT_EQ(
      sh.ask({{"type", "timeline-open"}, {"options", {{"provisional", 1}}}}).header["message"],
      "scope-speedscope engine: 'options.provisional' must be true or false");
}

TEST(Engine, an_overview_in_slices_is_the_one_at_once_and_other_requests_go_between) {
  Shell sh;
  sh.files["file"] = fixture("ranks_imbalance_s3.h5");
  ASSERT_EQ(sh.ask({{"type", "timeline-open"}, {"options", {{"ranks", "all"}}}}).header["type"],
            "result");
  const Timeline tl = direct(sh.files["file"], {0, 1, 2, 3});
  const json options = {{"bins", 37}, {"maxEvents", 40}};
  const json whole_answer = engine::overview_json(overview_timeline(tl, 37), uint64_t{40});
  const Asked at_once =
      sh.ask({{"type", "timeline-overview"}, {"timeline", 1}, {"options", options}});
  EXPECT_EQ(at_once.header["overview"], whole_answer);
  uint64_t calls = 0;
  for (const auto& l : tl.lanes()) calls += l.calls;
  ASSERT_GT(calls, 30u);
  json sliced = options;
  sliced["slices"] = 13;
  json a = sh.ask({{"type", "timeline-overview"}, {"timeline", 1}, {"options", sliced}}).header;
  uint64_t done = 0;
  while (a.value("pending", false)) {
    done += 13;
    EXPECT_EQ(a["done"], done);
    EXPECT_EQ(a["total"], calls);
    const json token = a["overviewing"];
    // Other requests are answered between the slices.
    const Asked fit = sh.ask({{"type", "timeline-fit"},
                              {"timeline", 1},
                              {"start", 0},
                              {"end", tl.run_end_ns()},
                              {"maxCalls", 5}});
    EXPECT_EQ(fit.header["type"], "result") << fit.header.dump();
    a = sh.ask({{"type", "timeline-overview-more"}, {"overviewing", token}}).header;
  }
  ASSERT_EQ(a["type"], "result") << a.dump();
  EXPECT_EQ(done, (calls - 1) / 13 * 13);
  EXPECT_EQ(a["overview"], whole_answer);
  // `slices: true` is the engine's own slice (here all of it at once).
  sliced["slices"] = true;
  a = sh.ask({{"type", "timeline-overview"}, {"timeline", 1}, {"options", sliced}}).header;
  EXPECT_EQ(a["overview"], whole_answer);

  // A newer overview, a close or an open gives the one that goes on up.
  SlicedWork work{sh, "timeline-overview", "overviewing",
                  "scope-speedscope engine: the overview was given up (a newer overview, file "
                  "or options replaced it)"};
  sliced["slices"] = 1;
  const json second = work.newer_gives_up(1, sliced);
  EXPECT_EQ(work.more(second)["done"], 3);  // a call a slice: begun, then two more
  sh.ask({{"type", "timeline-close"}, {"timeline", 1}});
  EXPECT_EQ(work.more(second)["message"], work.given_up);
  sliced["slices"] = 0;
  ASSERT_EQ(sh.ask({{"type", "timeline-open"}, {"options", {{"ranks", {0}}}}}).header["type"],
            "result");
  EXPECT_EQ(sh.ask({{"type", "timeline-overview"}, {"timeline", 2}, {"options", sliced}})
                .header["message"],
            "scope-speedscope engine: 'options.slices' must be true, false or a number of calls "
            "from 1");
}

TEST(Engine, a_bad_request_is_answered_with_what_is_wrong) {
  Shell sh;
  sh.files["file"] = fixture("ranks_imbalance_s3.h5");
  const auto message = [&](const std::string& text) {
    const json h = sh.ask_text(text).header;
    EXPECT_EQ(h["type"], "error") << text;
    return h["message"].get<std::string>();
  };
  EXPECT_EQ(message("{not json"), "scope-speedscope engine: the request is not JSON");
  EXPECT_EQ(message("[1]"), "scope-speedscope engine: a request must be a JSON object");
  EXPECT_EQ(message(R"({"type":"timeline-nothing"})"),
            "scope-speedscope engine: unknown request type 'timeline-nothing'");
  EXPECT_EQ(
      message(R"({"type":"timeline-bars","timeline":1,"lanes":[0],"start":0,"end":1,"width":1})"),
      "scope-speedscope engine: the timeline was closed (a newer file or options replaced it)");
  sh.ask({{"type", "timeline-open"}, {"options", {{"ranks", {0}}}}});
  EXPECT_EQ(
      message(R"({"type":"timeline-bars","timeline":1,"lanes":[-1],"start":0,"end":1,"width":1})"),
      "scope-speedscope engine: 'lane' must be a whole number from 0");
  EXPECT_EQ(
      message(R"({"type":"timeline-bars","timeline":1,"lanes":[0],"start":"0","end":1,"width":1})"),
      "scope-speedscope engine: 'start' must be a number");
  const json h = sh.ask_text(R"({"type":"timeline-open","options":{"ranks":[7]}})").header;
  EXPECT_EQ(h["kind"], "ValueError");
  EXPECT_EQ(h["code"], "invalid_rank");
  // The failed open closed the timeline before it.
  EXPECT_EQ(
      message(R"({"type":"timeline-fit","timeline":2,"start":0,"end":1,"maxCalls":1})"),
      "scope-speedscope engine: the timeline was closed (a newer file or options replaced it)");
}

TEST(EngineWire, columns_and_numbers_json_cannot_spell_round_trip) {
  WireAnswer out;
  const std::vector<double> d = {1.5, -2, NAN};
  const std::vector<float> f = {0.25f};
  const std::vector<uint32_t> u = {7, 8, 9};
  json header = {{"d", out.column(d)},
                 {"f", out.column(f)},
                 {"u", out.column(u)},
                 {"inf", wire_number(-INFINITY)}};
  const std::vector<uint8_t> bytes = out.finish(header);
  EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 4), "SSE1");
  const json h = wire_header(bytes);
  EXPECT_EQ(h["inf"], json({{"$number", "-Infinity"}}));
  EXPECT_EQ(h["f"]["offset"].get<std::size_t>() % 8, 0u);
  EXPECT_EQ(h["u"]["offset"].get<std::size_t>() % 8, 0u);
  const std::vector<double> back = wire_column(bytes, h["d"]);
  EXPECT_EQ(back[0], 1.5);
  EXPECT_TRUE(std::isnan(back[2]));
  EXPECT_EQ(wire_column(bytes, h["u"]), (std::vector<double>{7, 8, 9}));
  EXPECT_EQ(wire_column(bytes, h["f"]), (std::vector<double>{0.25}));
}

TEST(Engine, the_requests_about_a_file_inspect_overview_check_convert) {
  Shell sh;
  sh.files["file"] = fixture("ranks_imbalance_s3.h5");
  const Asked info = sh.ask({{"type", "inspect"}});
  ASSERT_EQ(info.header["type"], "result") << info.header.dump();
  EXPECT_EQ(info.header["info"]["numRanks"], 4);
  EXPECT_EQ(info.header["info"]["calls"], 60);
  EXPECT_EQ(info.header["info"]["regions"][0]["name"], "step");
  EXPECT_EQ(info.header["info"]["ranks"][3]["calls"], 15);
  EXPECT_EQ(sh.reads.back().depth, ReadDepth::index);  // no call's times

  const Asked ov =
      sh.ask({{"type", "overview"}, {"options", {{"ranks", "all"}, {"maxEvents", 10}}}});
  const scope_speedscope::Run run = read_run(sh.files["file"]);
  const json expected = engine::overview_json(
      overview_run(run, {0, 1, 2, 3}, std::nullopt, std::nullopt, 200), uint64_t{10});
  EXPECT_EQ(ov.header["overview"], expected);

  const Asked checked =
      sh.ask({{"type", "check"}, {"include", {"so(lve", "step"}}, {"exclude", json()}});
  ASSERT_EQ(checked.header["problems"].size(), 1u);
  EXPECT_EQ(checked.header["problems"][0]["field"], "include");
  EXPECT_EQ(checked.header["problems"][0]["line"], 0);
  EXPECT_EQ(checked.header["problems"][0]["message"], *check_pattern("so(lve"));

  CollectTarget out;
  sh.output = &out;
  sh.files["file0"] = sh.files["file"];
  const Asked converted = sh.ask(
      {{"type", "convert"}, {"count", 1}, {"options", {{"ranks", {2}}, {"minDuration", "1ns"}}}});
  ASSERT_EQ(converted.header["type"], "result") << converted.header.dump();
  ExportOptions o;
  o.ranks = std::vector<int64_t>{2};
  set_min_duration(o.narrowing, "1ns", "minDuration", false);
  o.verbose = false;
  CollectTarget direct_out;
  export_speedscope({read_run(sh.files["file"])}, "profile.speedscope.json", o, direct_out);
  ASSERT_EQ(out.docs.size(), 1u);
  EXPECT_EQ(out.docs[0].text, direct_out.docs[0].text);
  EXPECT_EQ(converted.header["files"], json::array({"profile.speedscope.json"}));
  const Asked none = sh.ask({{"type", "convert"}, {"count", 0}});
  EXPECT_EQ(none.header["message"],
            "scope-speedscope engine: 'count' must be from 1 to 4096 files");
}

}  // namespace
}  // namespace scope_speedscope::test
