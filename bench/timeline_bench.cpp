// The timeline's native benchmark: opening a run (read + reconstruct +
// columns) against reading and reconstructing alone (what the export does
// before writing), the median of bars at a width of 2,000 over the whole run
// and over windows of 1/1000 of it, and memory held and peak a call; with
// several ranks, imbalance and alignedCalls (of the region with the fewest
// calls: `step` in make_ranks.py's job) over the whole
// run and over windows of 1/1000 of it.
// Prints one JSON object. bench/timeline.mjs runs it beside the wasm.
//
// usage: timeline-bench FILE [RANKS] [ranks-only]
//   RANKS: "0", "0,1,2" or "all" (default 0); ranks-only: open, then imbalance
//   and alignedCalls alone (no reading rounds, no bars).
#include <sys/resource.h>
#include <cstdlib>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "export/export.hpp"
#include "read/h5_reader.hpp"
#include "reconstruct/calls.hpp"
#include "text/messages.hpp"
#include "timeline/aligned_grid.hpp"
#include "timeline/timeline.hpp"

namespace ss = scope_speedscope;

namespace {

double now_s() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

// A line of /proc/self/status in bytes ("VmRSS", "VmHWM").
double status_bytes(const char* key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const std::string prefix = std::string(key) + ":";
  while (std::getline(in, line)) {
    if (line.compare(0, prefix.size(), prefix) == 0) {
      std::istringstream s(line.substr(prefix.size()));
      double kb = 0;
      s >> kb;
      return kb * 1024;
    }
  }
  return 0;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

struct RankTimes {
  double imbalance_whole_ms = 0, imbalance_window_ms = 0;
  double aligned_whole_ms = 0, aligned_window_ms = 0;
  double aligned_first_ms = 0;  // a fresh answer: its memory not yet touched
  std::size_t aligned_whole_entries = 0;
  // What the page asks of the same frame over the whole run: the heatmap's
  // grid at 1,600 columns and each rank's mean lateness.
  double grid_whole_ms = 0, lateness_whole_ms = 0;
  // The first grid of the frame: its steps' medians made (and kept); then
  // the other regions' made ahead, as the engine does on opening ranks.
  double grid_first_ms = 0, prepare_ms = 0;
};

// Medians of imbalance and alignedCalls, over the whole run and over random
// windows of 1/1000 of it (alignedCalls of the frame with the fewest calls).
RankTimes rank_times(const ss::Timeline& tl) {
  RankTimes out;
  int64_t end = 0;
  for (const auto& l : tl.lanes()) end = std::max(end, l.end_ns + 1);
  const auto regions = tl.regions(0, end);
  int32_t frame = 0;
  uint64_t fewest = UINT64_MAX;
  for (const auto& r : regions) {
    if (r.calls < fewest) fewest = r.calls, frame = r.frame;
  }
  auto timed = [](auto&& fn) {
    const double t = now_s();
    fn();
    return (now_s() - t) * 1e3;
  };
  std::vector<double> iw, ia, ww, wa, gw, lw;
  out.grid_first_ms = timed([&] { ss::aligned_grid(tl, frame, 0, end, 1600); });
  out.prepare_ms = timed([&] { tl.prepare_aligned(uint64_t{64} << 20); });
  out.aligned_first_ms =
      timed([&] { out.aligned_whole_entries = tl.aligned_calls(frame, 0, end).size(); });
  ss::Timeline::AlignedCalls answer;  // asked into again and again, as the bindings do
  for (int i = 0; i < 11; ++i) {
    iw.push_back(timed([&] { tl.imbalance(0, end); }));
    ia.push_back(timed([&] { tl.aligned_calls(frame, 0, end, answer); }));
    gw.push_back(timed([&] { ss::aligned_grid(tl, frame, 0, end, 1600); }));
    lw.push_back(timed([&] { ss::mean_lateness(tl, frame, 0, end); }));
  }
  out.grid_whole_ms = median(gw);
  out.lateness_whole_ms = median(lw);
  std::mt19937_64 rng(7);
  const int64_t span = std::max<int64_t>(end / 1000, 1);
  for (int i = 0; i < 51; ++i) {
    const int64_t from = static_cast<int64_t>(rng() % static_cast<uint64_t>(end - span + 1));
    ww.push_back(timed([&] { tl.imbalance(from, from + span); }));
    wa.push_back(timed([&] { tl.aligned_calls(frame, from, from + span, answer); }));
  }
  out.imbalance_whole_ms = median(iw);
  out.aligned_whole_ms = median(ia);
  out.imbalance_window_ms = median(ww);
  out.aligned_window_ms = median(wa);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  // As the native CLI: a file may take the machine's memory.
  scope_speedscope::set_memory_per_file(scope_speedscope::machine_memory());
  if (std::getenv("SCOPE_BENCH_DECODE_ONE") == nullptr)
    scope_speedscope::set_decode_threads(scope_speedscope::machine_threads());
  if (argc < 2) {
    std::fprintf(stderr, "usage: timeline-bench FILE [RANKS] [ranks-only]\n");
    return 2;
  }
  const std::string file = argv[1];
  std::vector<int64_t> ranks;
  const bool all_ranks = argc > 2 && std::string_view(argv[2]) == "all";
  if (!all_ranks) {
    std::stringstream s(argc > 2 ? argv[2] : "0");
    std::string item;
    while (std::getline(s, item, ',')) ranks.push_back(std::stoll(item));
  }
  // Opening reads only the ranks asked for, as the page does
  // (SCOPE_BENCH_WHOLE_READ=1: every rank's calls, as before).
  ss::ReadPlan plan;
  if (!all_ranks && std::getenv("SCOPE_BENCH_WHOLE_READ") == nullptr) plan.ranks = ranks;
  try {
    // Opening: read, then the timeline; the run is dropped as a caller would.
    const double rss_before = status_bytes("VmRSS");
    double t = now_s();
    std::optional<ss::Timeline> opened;
    double read_done = 0, reconstruct_done = 0;
    {
      ss::Run run = ss::read_run(file, {}, {}, plan);
      read_done = now_s();
      if (all_ranks) ranks = ss::run_ranks(run);
      ss::TimelineOptions options;
      options.ranks = ranks;
      options.progress = [&](std::string_view phase, uint64_t done, uint64_t total) {
        if (phase == "reconstruct" && done == total) reconstruct_done = now_s();
      };
      opened.emplace(ss::open_timeline(std::move(run), options));
    }
    const double open_s = now_s() - t;
    const double open_read_s = read_done - t;
    const double open_columns_s = now_s() - reconstruct_done;
    const double peak = status_bytes("VmHWM") - rss_before;
    const ss::Timeline& tl = *opened;
    uint64_t calls = 0;
    for (const auto& l : tl.lanes()) calls += l.calls;
    const double held = static_cast<double>(tl.memory_bytes());
    if (argc > 3 && std::string_view(argv[3]) == "ranks-only") {
      const RankTimes rt = rank_times(tl);
      std::printf(
          "{\"calls\": %llu, \"open_s\": %.4f, \"open_read_s\": %.4f, \"imbalance_whole_ms\": "
          "%.3f, "
          "\"imbalance_window_ms\": %.3f, \"aligned_whole_ms\": %.3f, \"aligned_first_ms\": "
          "%.3f, \"aligned_window_ms\": %.3f, \"aligned_whole_entries\": %zu, "
          "\"grid_first_ms\": %.3f, \"prepare_ms\": %.3f, \"grid_whole_ms\": %.3f, "
          "\"lateness_whole_ms\": %.3f, "
          "\"open_peak_bytes_a_call\": %.2f, \"held_bytes_a_call\": %.2f}\n",
          static_cast<unsigned long long>(calls), open_s, open_read_s, rt.imbalance_whole_ms,
          rt.imbalance_window_ms, rt.aligned_whole_ms, rt.aligned_first_ms, rt.aligned_window_ms,
          rt.aligned_whole_entries, rt.grid_first_ms, rt.prepare_ms, rt.grid_whole_ms,
          rt.lateness_whole_ms, peak / static_cast<double>(calls),
          held / static_cast<double>(calls));
      return 0;
    }

    // Reading and reconstructing alone (the export's work before writing),
    // then each again, alternating: the best of three of each (the machine
    // is shared; page cache and allocator warm for both).
    double reconstruct_s = 1e30;
    double best_open_s = open_s;
    for (int round = 0; round < 3; ++round) {
      if (round > 0) {
        t = now_s();
        ss::TimelineOptions options;
        options.ranks = ranks;
        ss::Timeline again = ss::open_timeline(ss::read_run(file, {}, {}, plan), options);
        best_open_s = std::min(best_open_s, now_s() - t);
      }
      t = now_s();
      const ss::Run run = ss::read_run(file);
      const std::vector<uint32_t> regions = ss::get_regions(run, std::nullopt, std::nullopt);
      std::vector<int64_t> distinct = ranks;
      std::sort(distinct.begin(), distinct.end());
      distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
      uint64_t n = 0;
      for (int64_t rank : distinct) {
        n += ss::build_call_arrays(run, regions, rank, ss::CallStorage::streamed).size();
      }
      reconstruct_s = std::min(reconstruct_s, now_s() - t);
      if (n == 0) std::fprintf(stderr, "no calls\n");
    }

    // bars on the lane with the most calls.
    std::size_t lane = 0;
    for (std::size_t l = 0; l < tl.lanes().size(); ++l) {
      if (tl.lanes()[l].calls > tl.lanes()[lane].calls) lane = l;
    }
    const int64_t a = tl.lanes()[lane].start_ns, z = tl.lanes()[lane].end_ns + 1;
    ss::Timeline::Bars bars;
    std::vector<double> whole, window;
    std::size_t whole_items = 0, window_items = 0;
    for (int i = 0; i < 41; ++i) {
      t = now_s();
      tl.bars(lane, a, z, 2000, bars);
      whole.push_back((now_s() - t) * 1e3);
      whole_items = bars.size();
    }
    std::mt19937_64 rng(5);
    const int64_t span = std::max<int64_t>((z - a) / 1000, 1);
    for (int i = 0; i < 201; ++i) {
      const int64_t from =
          a + static_cast<int64_t>(rng() % static_cast<uint64_t>(z - a - span + 1));
      t = now_s();
      tl.bars(lane, from, from + span, 2000, bars);
      window.push_back((now_s() - t) * 1e3);
      window_items += bars.size();
    }
    const RankTimes rt = rank_times(tl);
    std::printf(
        "{\"calls\": %llu, \"lanes\": %zu, \"open_s\": %.4f, \"open_read_s\": %.4f, "
        "\"open_columns_s\": %.4f, \"read_reconstruct_s\": %.4f, "
        "\"bars_whole_ms\": %.4f, \"bars_whole_items\": %zu, \"bars_window_ms\": %.4f, "
        "\"bars_window_items\": %.1f, \"held_bytes_per_call\": %.2f, \"peak_bytes_per_call\": "
        "%.2f, \"imbalance_whole_ms\": %.3f, \"imbalance_window_ms\": %.3f, "
        "\"aligned_whole_ms\": %.3f, \"aligned_first_ms\": %.3f, \"aligned_window_ms\": %.3f, "
        "\"aligned_whole_entries\": %zu}\n",
        static_cast<unsigned long long>(calls), tl.lanes().size(), best_open_s, open_read_s,
        open_columns_s, reconstruct_s, median(whole), whole_items, median(window),
        static_cast<double>(window_items) / 201.0, held / static_cast<double>(calls),
        peak / static_cast<double>(calls), rt.imbalance_whole_ms, rt.imbalance_window_ms,
        rt.aligned_whole_ms, rt.aligned_first_ms, rt.aligned_window_ms, rt.aligned_whole_entries);
  } catch (const ss::Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
