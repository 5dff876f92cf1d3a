// export: min-duration and time-window (see narrow.hpp for the rule).
#include "export/narrow.hpp"

#include <algorithm>
#include <cmath>

#include "model/time.hpp"
#include "select/selection.hpp"
#include "text/messages.hpp"

namespace scope_speedscope {

namespace {

[[noreturn]] void bad_value(Msg id, const std::string& option, const std::string& text,
                            const char* field, bool usage) {
  throw Error(id, usage ? ErrorKind::usage : ErrorKind::value, {{"option", option}, {"text", text}})
      .on_field(field);
}

}  // namespace

void set_min_duration(Narrowing& n, std::string_view text, const std::string& option, bool usage) {
  const auto ns = parse_time_ns(text, true);
  if (!ns) bad_value(Msg::invalid_duration, option, std::string(text), "minDuration", usage);
  n.min_duration_ns = *ns;
  n.min_duration_text = std::string(text);
}

void set_time_window(Narrowing& n, std::string_view start, std::string_view end,
                     const std::string& option, bool usage) {
  const std::string text = std::string(start) + ":" + std::string(end);
  std::optional<int64_t> lo, hi;
  if (!start.empty() && !(lo = parse_time_ns(start, false))) {
    bad_value(Msg::invalid_time_window, option, text, "timeWindow", usage);
  }
  if (!end.empty() && !(hi = parse_time_ns(end, true))) {
    bad_value(Msg::invalid_time_window, option, text, "timeWindow", usage);
  }
  if (lo && hi && *hi <= *lo)
    bad_value(Msg::time_window_backwards, option, text, "timeWindow", usage);
  n.window = lo.has_value() || hi.has_value();
  n.window_start_ns = lo;
  n.window_end_ns = hi;
  n.window_text = n.window ? text : "";
}

void set_time_window(Narrowing& n, std::string_view text, const std::string& option, bool usage) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos || text.find(':', colon + 1) != std::string_view::npos) {
    bad_value(Msg::invalid_time_window, option, std::string(text), "timeWindow", usage);
  }
  set_time_window(n, text.substr(0, colon), text.substr(colon + 1), option, usage);
}

// ---- the rule ------------------------------------------------------------------------

bool Clip::keep(int64_t start, int64_t end) const {
  if (min_duration) {
    // end - start >= min_ns, without overflow (a call ending before it starts is shorter).
    if (end < start) return false;
    if (static_cast<uint64_t>(end) - static_cast<uint64_t>(start) < static_cast<uint64_t>(min_ns)) {
      return false;
    }
  }
  if (window) {
    if (start >= hi) return false;
    if (covered_end(start, end) <= lo) return false;
  }
  return true;
}

Clip clip_of(const Narrowing& n, std::optional<int64_t> origin_ns) {
  Clip c;
  if (n.min_duration_ns) {
    c.min_duration = true;
    c.min_ns = *n.min_duration_ns;
  }
  if (n.window) {
    c.window = true;
    const int64_t origin = origin_ns.value_or(0);
    if (n.window_start_ns) c.lo = saturating_add(origin, *n.window_start_ns);
    if (n.window_end_ns) c.hi = saturating_add(origin, *n.window_end_ns);
  }
  return c;
}

Run narrow_run(const Run& run, const std::vector<uint32_t>& regions, const Narrowing& narrowing) {
  Run out = run_header(run);
  out.threads = run.threads;
  out.tasks = run.tasks;
  out.lane_column = run.lane_column;
  out.regions.resize(run.regions.size());
  for (std::size_t r = 0; r < run.regions.size(); ++r) {
    out.regions[r].name = run.regions[r].name;
    out.regions[r].source = run.regions[r].source;
  }
  out.sources = run.sources;
  out.sources_read = run.sources_read;

  const Clip clip = clip_of(narrowing, narrowing.window ? run_origin_ns(run) : std::nullopt);
  // Count first: the copy is allocated once, at its size.
  uint64_t kept = 0;
  for (uint32_t r : regions) {
    for (const RankSlice& slice : run.regions[r].ranks) {
      require_held(slice);
      for (uint64_t e = slice.offset; e < slice.offset + slice.count; ++e) {
        kept += clip.keep(run.start_ns[e], run.end_ns[e]) ? 1 : 0;
      }
    }
  }
  out.start_ns.reserve(kept);
  out.end_ns.reserve(kept);
  if (run.lane_column) out.lane.reserve(kept);
  for (uint32_t r : regions) {
    for (const RankSlice& slice : run.regions[r].ranks) {
      RankSlice copy{slice.rank, out.start_ns.size(), 0};
      copy.source = slice.source;
      for (uint64_t e = slice.offset; e < slice.offset + slice.count; ++e) {
        const int64_t s = run.start_ns[e], en = run.end_ns[e];
        if (!clip.keep(s, en)) continue;
        out.start_ns.push_back(clip.clip_start(s));
        out.end_ns.push_back(clip.clip_end(en));
        if (run.lane_column) out.lane.push_back(run.lane[e]);
      }
      copy.count = out.start_ns.size() - copy.offset;
      if (copy.count > 0) out.regions[r].ranks.push_back(copy);
    }
  }
  return out;
}

}  // namespace scope_speedscope
