// export: the `imbalance` command's report (see imbalance_report.hpp).
#include "export/imbalance_report.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <utility>

#include "export/source_text.hpp"
#include "model/time.hpp"
#include "text/table.hpp"
#include "text/time_text.hpp"
#include "timeline/timeline.hpp"
#include "write/speedscope_writer.hpp"

namespace scope_speedscope {

namespace {

constexpr int64_t kOpenStart = std::numeric_limits<int64_t>::min();
constexpr int64_t kOpenEnd = std::numeric_limits<int64_t>::max();

// The source of a frame, when the timeline holds it and it is known.
const SourceLocation* frame_source(const Timeline& tl, int32_t frame) {
  const auto& sources = tl.frame_sources();
  if (frame < 0 || static_cast<std::size_t>(frame) >= sources.size()) return nullptr;
  const SourceLocation& s = sources[static_cast<std::size_t>(frame)];
  return s.known() ? &s : nullptr;
}

std::string table(const Timeline& tl, const std::vector<Timeline::RegionImbalance>& rows,
                  const std::string& heading, bool source) {
  std::size_t name_width = 6;
  for (const auto& r : rows) name_width = std::max(name_width, tl.frames()[r.frame].size());
  name_width = std::min<std::size_t>(name_width, 48);
  std::string out = heading + "\n";
  if (rows.empty()) return out + "no calls in the window\n";
  out += padded("region", name_width, false) +
         "  ranks        min     median       mean        max" + "  imbalance  slowest rank" +
         (source ? "  source\n" : "\n");
  for (const auto& r : rows) {
    char percent[32];
    std::snprintf(percent, sizeof percent, "%.1f %%", r.imbalance * 100);
    out += padded(tl.frames()[r.frame], name_width, false) + "  " +
           padded(std::to_string(r.ranks), 5, true) + "  " +
           padded(format_duration_short(static_cast<double>(r.min_ns)), 9, true) + "  " +
           padded(format_duration_short(r.median_ns), 9, true) + "  " +
           padded(format_duration_short(r.mean_ns), 9, true) + "  " +
           padded(format_duration_short(static_cast<double>(r.max_ns)), 9, true) + "  " +
           padded(percent, 9, true) + "  " + padded(std::to_string(r.slowest_rank), 12, true) +
           (source ? "  " + source_cell(frame_source(tl, r.frame)) : std::string()) + "\n";
  }
  return out;
}

std::string json(const std::string& path, const Timeline& tl, const Narrowing& n,
                 const std::vector<Timeline::RegionImbalance>& rows, bool source) {
  std::string out = "{\"file\": ";
  append_json_string(out, path);
  out += ", \"ranks\": [";
  const std::vector<int64_t> ranks = tl.ranks();
  for (std::size_t i = 0; i < ranks.size(); ++i) out += (i ? ", " : "") + std::to_string(ranks[i]);
  out += "], \"value\": \"covered\", \"window\": ";
  if (n.window) {
    auto end_text = [](const std::optional<int64_t>& v) {
      return v ? std::to_string(*v) : std::string("null");
    };
    out += "{\"start\": " + end_text(n.window_start_ns) +
           ", \"end\": " + end_text(n.window_end_ns) + "}";
  } else {
    out += "null";
  }
  out += ", \"regions\": [";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    out += i ? ", {\"frame\": " : "{\"frame\": ";
    out += std::to_string(r.frame) + ", \"name\": ";
    append_json_string(out, tl.frames()[r.frame]);
    out += ", \"ranks\": " + std::to_string(r.ranks) + ", \"min\": " + std::to_string(r.min_ns) +
           ", \"median\": " + python_float_repr(r.median_ns) +
           ", \"mean\": " + python_float_repr(r.mean_ns) +
           ", \"max\": " + std::to_string(r.max_ns) +
           ", \"imbalance\": " + python_float_repr(r.imbalance) +
           ", \"slowestRank\": " + std::to_string(r.slowest_rank);
    if (source) append_source_json(out, frame_source(tl, r.frame));
    out += "}";
  }
  return out + "]}\n";
}

}  // namespace

std::string imbalance_report(Run&& run, const ImbalanceReportOptions& options) {
  const std::string path = run.path;
  TimelineOptions topts;
  topts.ranks = chosen_ranks(run, options.ranks, false, /*every_by_default=*/true);
  topts.include = options.include;
  topts.exclude = options.exclude;
  const Timeline tl = open_timeline(std::move(run), topts);  // takes its columns over
  const Narrowing& n = options.narrowing;
  // The window in the timeline's terms (ns from its origin).
  const int64_t origin = tl.origin_in_run_ns();
  int64_t start = kOpenStart, end = kOpenEnd;
  if (n.window && n.window_start_ns) start = saturating_sub(*n.window_start_ns, origin);
  if (n.window && n.window_end_ns) end = saturating_sub(*n.window_end_ns, origin);
  std::vector<Timeline::RegionImbalance> rows;
  if (end > start) rows = tl.imbalance(start, end);
  if (options.json) return json(path, tl, n, rows, options.source);
  const std::size_t count = tl.ranks().size();
  std::string heading = path + ": " + std::to_string(count) + (count == 1 ? " rank" : " ranks") +
                        " (" + ranks_text(tl.ranks()) + "), ";
  heading += n.window ? "time window " + n.window_text + " (seconds from the run's first call)"
                      : std::string("the whole run");
  heading += "; covered time per rank (the union of a region's calls)";
  return table(tl, rows, heading, options.source);
}

}  // namespace scope_speedscope
