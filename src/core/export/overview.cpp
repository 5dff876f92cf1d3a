// export: what a selection holds over time and by duration, and the
// narrowing that fits a budget (see overview.hpp).
#include "export/overview.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include "model/time.hpp"
#include "select/selection.hpp"
#include "text/messages.hpp"
#include "text/time_text.hpp"

namespace scope_speedscope {

uint64_t Overview::calls_in_window(std::size_t a, std::size_t b) const {
  uint64_t ended = 0, later = 0;
  for (std::size_t i = 0; i < a && i < ends.size(); ++i) ended += ends[i];
  for (std::size_t i = b; i < starts.size(); ++i) later += starts[i];
  return calls - ended - later;
}

uint64_t Overview::calls_at_least(int j) const {
  uint64_t n = 0;
  for (std::size_t b = static_cast<std::size_t>(j) + 1; b < duration_counts.size(); ++b)
    n += duration_counts[b];
  return n;
}

namespace {

// The smallest 1-2-5 step >= v.
int64_t nice_step(int64_t v) {
  int64_t p = 1;
  while (true) {
    for (int64_t m : {1, 2, 5}) {
      if (m * p >= v) return m * p;
    }
    if (p > INT64_MAX / 10) return INT64_MAX;
    p *= 10;
  }
}

int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

}  // namespace

namespace {

// The selection's regions, its ranks checked first (an empty selection is
// no error here: the overview then holds no calls).
std::vector<uint32_t> overview_regions(const Run& run, const std::vector<int64_t>& ranks,
                                       const Patterns& include, const Patterns& exclude) {
  try {
    for (std::size_t i = 0; i < ranks.size(); ++i) require_rank(run, ranks[i], i);
    return filter_regions(run, include, exclude, nullptr);
  } catch (Error& e) {
    e.in_file(run.path);
    throw;
  }
}

// Bins of a 1-2-5 width, aligned on multiples of it, covering
// [first_start, last_end): at most `bins` of them. Sets the overview's first
// edge and width; returns how many.
std::size_t place_bins(Overview& o, std::size_t bins) {
  if (bins == 0) bins = 1;
  const int64_t span = o.last_end_ns - o.first_start_ns;  // >= 1
  int64_t width = nice_step(
      std::max<int64_t>(1, (span + static_cast<int64_t>(bins) - 1) / static_cast<int64_t>(bins)));
  std::size_t count = 0;
  while (true) {
    o.first_edge_ns = floor_div(o.first_start_ns, width) * width;
    const int64_t covered = o.last_end_ns - o.first_edge_ns;
    count = static_cast<std::size_t>((covered + width - 1) / width);
    if (count <= bins || width == INT64_MAX) break;
    width = nice_step(width + 1);
  }
  o.bin_width_ns = width;
  return count;
}

// The duration bin of a call lasting `dur` ns (0: shorter than 1 ns).
std::size_t duration_bin(const std::vector<int64_t>& thresholds, uint64_t dur) {
  return static_cast<std::size_t>(
      std::upper_bound(thresholds.begin(), thresholds.end(), dur,
                       [](uint64_t v, int64_t t) { return v < static_cast<uint64_t>(t); }) -
      thresholds.begin());
}

}  // namespace

namespace {

// Pass 1's findings set: the calls' first start `lo` and last covered end
// `hi` (absolute), relative to the origin, and the bins placed; returns
// how many. The overview's calls are counted already (at least one).
std::size_t open_bins(Overview& o, int64_t lo, int64_t hi, std::size_t bins) {
  // The origin is <= every start; saturate far ends.
  o.first_start_ns = saturating_sub(lo, o.origin_ns);
  o.last_end_ns = saturating_sub(hi, o.origin_ns);
  const std::size_t count = place_bins(o, bins);
  o.starts.assign(count, 0);
  o.ends.assign(count, 0);
  o.duration_counts.assign(kDurationEdges + 1, 0);
  return count;
}

std::vector<int64_t> duration_thresholds() {
  std::vector<int64_t> thresholds(kDurationEdges);
  for (int j = 0; j < kDurationEdges; ++j) thresholds[j] = duration_edge_ns(j);
  return thresholds;
}

// Pass 2, one call [s, en) (absolute ns): its time bins and duration.
inline void bin_call(Overview& o, const std::vector<int64_t>& thresholds, int64_t s, int64_t en) {
  const auto last = static_cast<int64_t>(o.starts.size()) - 1;
  auto bin_of = [&](int64_t t) {
    const int64_t b = (saturating_sub(t, o.origin_ns) - o.first_edge_ns) / o.bin_width_ns;
    return static_cast<std::size_t>(std::min<int64_t>(b, last));
  };
  const bool lasts = en > s;
  ++o.starts[bin_of(s)];
  ++o.ends[bin_of(lasts ? en - 1 : s)];  // the last instant it covers
  ++o.duration_counts[lasts ? duration_bin(thresholds,
                                           static_cast<uint64_t>(en) - static_cast<uint64_t>(s))
                            : 0];
}

void close_bins(Overview& o) {
  while (o.duration_counts.size() > 1 && o.duration_counts.back() == 0)
    o.duration_counts.pop_back();
}

// The overview of the calls `each(fn)` gives (fn(start, end), absolute ns),
// whose run's first call is `origin`: two passes.
template <class Each>
Overview overview_of(int64_t origin, std::size_t bins, Each&& each) {
  Overview o;
  o.origin_ns = origin;
  // Pass 1: count, first start, last covered end.
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  each([&](int64_t s, int64_t e) {
    lo = std::min(lo, s);
    hi = std::max(hi, covered_end(s, e));
    ++o.calls;
  });
  if (o.calls == 0) return o;
  open_bins(o, lo, hi, bins);
  const std::vector<int64_t> thresholds = duration_thresholds();
  // Pass 2: time bins and durations.
  each([&](int64_t s, int64_t en) { bin_call(o, thresholds, s, en); });
  close_bins(o);
  return o;
}

}  // namespace

Overview overview_run(const Run& run, const std::vector<int64_t>& ranks, const Patterns& include,
                      const Patterns& exclude, std::size_t bins) {
  const std::vector<uint32_t> regions = overview_regions(run, ranks, include, exclude);
  return overview_of(run_origin_ns(run).value_or(0), bins, [&](auto&& fn) {
    for_each_selected_event(run, regions, ranks, [&](uint64_t e) {
      fn(run.start_ns[e], run.end_ns[e]);
      return true;
    });
  });
}

namespace {

// A timeline time (ns from its origin) as the file's (absolute ns).
int64_t absolute(const Timeline& tl, int64_t t) {
  return static_cast<int64_t>(static_cast<uint64_t>(t) + static_cast<uint64_t>(tl.origin_ns()));
}

}  // namespace

TimelineOverview::TimelineOverview(const Timeline& tl, std::size_t bins)
    : tl_(tl), thresholds_(duration_thresholds()) {
  overview_.origin_ns = static_cast<int64_t>(static_cast<uint64_t>(tl.origin_ns()) -
                                             static_cast<uint64_t>(tl.origin_in_run_ns()));
  // Pass 1 from each depth's ends: within a depth of a lane the calls do
  // not overlap, so their starts and covered ends ascend.
  std::set<std::pair<int64_t, int64_t>> seen;  // (rank, lane): a rank listed twice counts once
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (std::size_t l = 0; l < tl.lanes().size(); ++l) {
    const Timeline::LaneInfo& info = tl.lanes()[l];
    if (!seen.emplace(info.rank, info.lane_id).second) continue;
    for (uint32_t d = 0; d <= info.max_depth; ++d) {
      const Timeline::DepthView v = tl.depth_view(l, d);
      if (v.calls == 0) continue;
      depths_.emplace_back(l, d);
      overview_.calls += v.calls;
      lo = std::min(lo, absolute(tl, v.start(0)));
      const std::size_t last = v.calls - 1;
      hi = std::max(hi, covered_end(absolute(tl, v.start(last)), absolute(tl, v.end(last))));
    }
  }
  if (overview_.calls > 0) open_bins(overview_, lo, hi, bins);
}

bool TimelineOverview::step(uint64_t calls) {
  while (calls > 0 && at_depth_ < depths_.size()) {
    const Timeline::DepthView v =
        tl_.depth_view(depths_[at_depth_].first, depths_[at_depth_].second);
    const std::size_t stop =
        at_call_ + static_cast<std::size_t>(std::min<uint64_t>(calls, v.calls - at_call_));
    for (std::size_t i = at_call_; i < stop; ++i)
      bin_call(overview_, thresholds_, absolute(tl_, v.start(i)), absolute(tl_, v.end(i)));
    calls -= stop - at_call_;
    done_ += stop - at_call_;
    at_call_ = stop;
    if (at_call_ == v.calls) {
      ++at_depth_;
      at_call_ = 0;
    }
  }
  if (at_depth_ < depths_.size()) return false;
  if (!closed_) close_bins(overview_);
  closed_ = true;
  return true;
}

Overview overview_timeline(const Timeline& tl, std::size_t bins) {
  TimelineOverview job(tl, bins);
  job.step(UINT64_MAX);
  return job.overview();
}

Suggestion suggest_narrowing(const Overview& o, uint64_t max_events) {
  Suggestion s;
  s.calls = o.calls;
  s.max_calls = max_events / 2;
  s.fits = o.calls <= s.max_calls;
  if (s.fits) return s;
  // min-duration: kept(j) falls as j grows.
  uint64_t kept = o.calls;
  for (int j = 0; j < kDurationEdges; ++j) {
    kept -= o.duration_counts.size() > static_cast<std::size_t>(j) ? o.duration_counts[j] : 0;
    if (kept == 0) break;
    if (kept <= s.max_calls) {
      s.has_min_duration = true;
      s.min_duration_edge = j;
      s.min_duration_text = duration_edge_text(j);
      s.min_duration_calls = kept;
      break;
    }
  }
  // window: for each first bin a, the furthest end b that fits (b only grows
  // with a, since later windows hold fewer of the calls before them).
  const std::size_t n = o.starts.size();
  std::vector<uint64_t> ended(n + 1, 0),
      later(n + 1, 0);  // ended[a]: ends in bins < a; later[b]: starts in bins >= b
  for (std::size_t i = 0; i < n; ++i) ended[i + 1] = ended[i] + o.ends[i];
  for (std::size_t i = n; i-- > 0;) later[i] = later[i + 1] + o.starts[i];
  std::size_t b = 0;
  for (std::size_t a = 0; a < n; ++a) {
    if (b < a + 1) b = a + 1;
    auto in = [&](std::size_t end) { return o.calls - ended[a] - later[end]; };
    if (in(b) > s.max_calls) continue;
    while (b < n && in(b + 1) <= s.max_calls) ++b;
    const uint64_t calls = in(b);
    if (calls == 0) continue;
    if (!s.has_window || b - a > s.window_end_bin - s.window_first_bin) {
      s.has_window = true;
      s.window_first_bin = a;
      s.window_end_bin = b;
      s.window_calls = calls;
    }
  }
  if (s.has_window) {
    s.window_start_ns = o.first_edge_ns + static_cast<int64_t>(s.window_first_bin) * o.bin_width_ns;
    s.window_end_ns = o.first_edge_ns + static_cast<int64_t>(s.window_end_bin) * o.bin_width_ns;
    s.window_text = format_seconds_ns(s.window_start_ns) + ":" + format_seconds_ns(s.window_end_ns);
  }
  if (s.has_min_duration && (!s.has_window || s.min_duration_calls >= s.window_calls)) {
    s.preferred = Suggestion::Pick::min_duration;
  } else if (s.has_window) {
    s.preferred = Suggestion::Pick::window;
  }
  return s;
}

}  // namespace scope_speedscope
