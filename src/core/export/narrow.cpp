// narrow: min-duration and time-window, the overview of a selection and the
// suggested narrowing. See narrow.hpp for the rule.
#include "export/narrow.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "text/messages.hpp"
#include "export/export.hpp"
#include "write/speedscope_writer.hpp"

namespace scope_speedscope {

// ---- text <-> nanoseconds -----------------------------------------------------------

namespace {

// value = digits * 10^exp10 ns; digits without leading zeros ("" is zero).
struct Decimal {
  std::string digits;
  long exp10 = 0;
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::optional<Decimal> parse_decimal(std::string_view text) {
  std::size_t i = 0;
  Decimal d;
  std::string digits;
  long frac_digits = 0;
  bool any = false;
  while (i < text.size() && is_digit(text[i])) {
    digits += text[i++];
    any = true;
  }
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && is_digit(text[i])) {
      digits += text[i++];
      ++frac_digits;
      any = true;
    }
  }
  if (!any) return std::nullopt;
  long exponent = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
    if (i == text.size() || !is_digit(text[i])) return std::nullopt;
    while (i < text.size() && is_digit(text[i])) {
      if (exponent < 100000) exponent = exponent * 10 + (text[i] - '0');
      ++i;
    }
    if (negative) exponent = -exponent;
  }
  const std::string_view unit = text.substr(i);
  long unit_exp;
  if (unit.empty() || unit == "s") {
    unit_exp = 9;
  } else if (unit == "ms") {
    unit_exp = 6;
  } else if (unit == "us" || unit == "\xc2\xb5s" || unit == "\xce\xbcs") {  // us, µs (micro sign), μs (mu)
    unit_exp = 3;
  } else if (unit == "ns") {
    unit_exp = 0;
  } else {
    return std::nullopt;
  }
  const auto first = digits.find_first_not_of('0');
  d.digits = first == std::string::npos ? "" : digits.substr(first);
  d.exp10 = exponent - frac_digits + unit_exp;
  return d;
}

int64_t to_ns(const Decimal& d, bool round_up) {
  if (d.digits.empty()) return 0;
  const long n = static_cast<long>(d.digits.size());
  std::string whole;
  bool fraction = false;
  if (d.exp10 >= 0) {
    if (n + d.exp10 > 19) return INT64_MAX;
    whole = d.digits + std::string(static_cast<std::size_t>(d.exp10), '0');
  } else {
    const long drop = -d.exp10;
    if (drop >= n) {
      whole = "0";
      fraction = true;  // digits are not all zero
    } else {
      whole = d.digits.substr(0, static_cast<std::size_t>(n - drop));
      fraction = d.digits.find_first_not_of('0', static_cast<std::size_t>(n - drop)) != std::string::npos;
    }
    if (whole.size() > 19) return INT64_MAX;
  }
  uint64_t v = 0;
  for (char c : whole) v = v * 10 + static_cast<uint64_t>(c - '0');
  if (v > static_cast<uint64_t>(INT64_MAX)) return INT64_MAX;
  int64_t ns = static_cast<int64_t>(v);
  if (fraction && round_up && ns < INT64_MAX) ++ns;
  return ns;
}

// digits (an integer, no sign) / 10^scale as a decimal without trailing zeros.
std::string decimal_text(std::string digits, int scale) {
  if (scale <= 0) return digits + std::string(static_cast<std::size_t>(-scale), '0');
  if (digits.size() <= static_cast<std::size_t>(scale)) {
    digits = std::string(static_cast<std::size_t>(scale) + 1 - digits.size(), '0') + digits;
  }
  std::string out = digits.substr(0, digits.size() - scale) + "." + digits.substr(digits.size() - scale);
  while (out.back() == '0') out.pop_back();
  if (out.back() == '.') out.pop_back();
  return out;
}

// `digits` ns (no leading zeros) with the largest unit it reaches.
std::string duration_text(const std::string& digits) {
  if (digits.empty()) return "0ns";
  const std::size_t n = digits.size();
  if (n >= 10) return decimal_text(digits, 9) + "s";
  if (n >= 7) return decimal_text(digits, 6) + "ms";
  if (n >= 4) return decimal_text(digits, 3) + "us";
  return digits + "ns";
}

[[noreturn]] void bad_value(Msg id, const std::string& option, const std::string& text,
                            const char* field, bool usage) {
  throw Error(id, usage ? ErrorKind::usage : ErrorKind::value, {{"option", option}, {"text", text}})
      .on_field(field);
}

}  // namespace

std::optional<int64_t> parse_time_ns(std::string_view text, bool round_up) {
  const auto d = parse_decimal(text);
  if (!d) return std::nullopt;
  return to_ns(*d, round_up);
}

std::string seconds_text(double seconds) {
  if (!std::isfinite(seconds) || std::signbit(seconds)) return "";
  return python_float_repr(seconds);  // shortest round-trip digits: "0.002", "1e-07"
}

std::string format_duration_ns(int64_t ns) {
  if (ns < 0) return "-" + duration_text(std::to_string(0 - static_cast<uint64_t>(ns)));
  return duration_text(ns == 0 ? std::string() : std::to_string(ns));
}

std::string format_seconds_ns(int64_t ns) {
  if (ns < 0) return "-" + decimal_text(std::to_string(0 - static_cast<uint64_t>(ns)), 9);
  return decimal_text(std::to_string(ns), 9);
}

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
  if (lo && hi && *hi <= *lo) bad_value(Msg::time_window_backwards, option, text, "timeWindow", usage);
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

std::optional<int64_t> run_origin_ns(const Run& run) {
  std::optional<int64_t> origin;
  for (const Region& region : run.regions) {
    for (const RankSlice& slice : region.ranks) {
      if (slice.count == 0) continue;
      int64_t m = run.start_ns[slice.offset];
      for (uint64_t e = slice.offset + 1; e < slice.offset + slice.count; ++e) {
        m = std::min(m, run.start_ns[e]);
      }
      if (!origin || m < *origin) origin = m;
    }
  }
  return origin;
}

namespace {
int64_t saturating_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return b > 0 ? INT64_MAX : INT64_MIN;
  return r;
}
}  // namespace

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
    // The covered time ends at end, or start + 1 for a call that does not last.
    const bool lasts = end > start;
    if (lasts ? end <= lo : start < lo) return false;
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
  Run out;
  out.path = run.path;
  out.label = run.label;
  out.schema_version = run.schema_version;
  out.storage_layout = run.storage_layout;
  out.num_ranks = run.num_ranks;
  out.threads = run.threads;
  out.tasks = run.tasks;
  out.lane_column = run.lane_column;
  out.regions.resize(run.regions.size());
  for (std::size_t r = 0; r < run.regions.size(); ++r) out.regions[r].name = run.regions[r].name;

  const Clip clip = clip_of(narrowing, narrowing.window ? run_origin_ns(run) : std::nullopt);
  // Count first: the copy is allocated once, at its size.
  uint64_t kept = 0;
  for (uint32_t r : regions) {
    for (const RankSlice& slice : run.regions[r].ranks) {
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

uint64_t selection_calls(const Run& run, const std::vector<uint32_t>& regions,
                         const std::vector<int64_t>& ranks) {
  const std::set<int64_t> wanted(ranks.begin(), ranks.end());
  uint64_t n = 0;
  for (uint32_t r : regions) {
    for (const RankSlice& slice : run.regions[r].ranks) {
      if (wanted.count(slice.rank) != 0) n += slice.count;
    }
  }
  return n;
}

// ---- overview ----------------------------------------------------------------------------

namespace {
constexpr int kR10[10] = {100, 125, 160, 200, 250, 315, 400, 500, 630, 800};  // x 1/100

// R10[j % 10] * 10^(j / 10) as the digits of that many hundredths of a ns.
std::string edge_hundredths(int j) {
  return std::to_string(kR10[j % 10]) + std::string(static_cast<std::size_t>(j / 10), '0');
}
}  // namespace

int64_t duration_edge_ns(int j) {
  Decimal d;
  d.digits = edge_hundredths(j);
  d.exp10 = -2;
  return to_ns(d, true);
}

std::string duration_edge_text(int j) {
  // Hundredths of a ns, shown in the largest unit the value reaches.
  const std::string h = edge_hundredths(j);
  const std::size_t whole_ns_digits = h.size() - 2;
  if (whole_ns_digits >= 10) return decimal_text(h, 11) + "s";
  if (whole_ns_digits >= 7) return decimal_text(h, 8) + "ms";
  if (whole_ns_digits >= 4) return decimal_text(h, 5) + "us";
  return decimal_text(h, 2) + "ns";
}

double duration_edge_seconds(int j) {
  return static_cast<double>(kR10[j % 10]) * std::pow(10.0, j / 10) / 1e11;
}

uint64_t Overview::calls_in_window(std::size_t a, std::size_t b) const {
  uint64_t ended = 0, later = 0;
  for (std::size_t i = 0; i < a && i < ends.size(); ++i) ended += ends[i];
  for (std::size_t i = b; i < starts.size(); ++i) later += starts[i];
  return calls - ended - later;
}

uint64_t Overview::calls_at_least(int j) const {
  uint64_t n = 0;
  for (std::size_t b = static_cast<std::size_t>(j) + 1; b < duration_counts.size(); ++b) n += duration_counts[b];
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

Overview overview_run(const Run& run, const std::vector<int64_t>& ranks,
                      const std::optional<std::vector<std::string>>& include,
                      const std::optional<std::vector<std::string>>& exclude, std::size_t bins) {
  std::vector<uint32_t> regions;
  try {
    for (std::size_t i = 0; i < ranks.size(); ++i) require_rank(run, ranks[i], i);
    regions = filter_regions(run, include, exclude, nullptr);
  } catch (Error& e) {
    e.in_file(run.path);
    throw;
  }
  const std::set<int64_t> wanted(ranks.begin(), ranks.end());
  std::vector<RankSlice> slices;
  for (uint32_t r : regions) {
    for (const RankSlice& slice : run.regions[r].ranks) {
      if (wanted.count(slice.rank) != 0 && slice.count > 0) slices.push_back(slice);
    }
  }
  Overview o;
  const auto origin = run_origin_ns(run);
  o.origin_ns = origin.value_or(0);
  // Pass 1: count, first start, last covered end.
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (const RankSlice& slice : slices) {
    for (uint64_t e = slice.offset; e < slice.offset + slice.count; ++e) {
      const int64_t s = run.start_ns[e];
      const int64_t covered = run.end_ns[e] > s ? run.end_ns[e] : saturating_add(s, 1);
      lo = std::min(lo, s);
      hi = std::max(hi, covered);
    }
    o.calls += slice.count;
  }
  if (o.calls == 0) return o;
  // Relative to the origin (the origin is <= every start; saturate far ends).
  auto rel = [&](int64_t t) {
    int64_t r;
    if (__builtin_sub_overflow(t, o.origin_ns, &r)) return INT64_MAX;
    return r;
  };
  o.first_start_ns = rel(lo);
  o.last_end_ns = rel(hi);
  if (bins == 0) bins = 1;
  // Bins of a 1-2-5 width, aligned on multiples of it, covering
  // [first_start, last_end): at most `bins` of them.
  const int64_t span = o.last_end_ns - o.first_start_ns;  // >= 1
  int64_t width = nice_step(std::max<int64_t>(1, (span + static_cast<int64_t>(bins) - 1) / static_cast<int64_t>(bins)));
  std::size_t count = 0;
  while (true) {
    o.first_edge_ns = floor_div(o.first_start_ns, width) * width;
    const int64_t covered = o.last_end_ns - o.first_edge_ns;
    count = static_cast<std::size_t>((covered + width - 1) / width);
    if (count <= bins || width == INT64_MAX) break;
    width = nice_step(width + 1);
  }
  o.bin_width_ns = width;
  o.starts.assign(count, 0);
  o.ends.assign(count, 0);
  std::vector<int64_t> thresholds(kDurationEdges);
  for (int j = 0; j < kDurationEdges; ++j) thresholds[j] = duration_edge_ns(j);
  o.duration_counts.assign(kDurationEdges + 1, 0);
  auto bin_of = [&](int64_t t) {
    const int64_t b = (rel(t) - o.first_edge_ns) / width;
    return static_cast<std::size_t>(std::min<int64_t>(b, static_cast<int64_t>(count) - 1));
  };
  // Pass 2: time bins and durations.
  for (const RankSlice& slice : slices) {
    for (uint64_t e = slice.offset; e < slice.offset + slice.count; ++e) {
      const int64_t s = run.start_ns[e], en = run.end_ns[e];
      const bool lasts = en > s;
      ++o.starts[bin_of(s)];
      ++o.ends[bin_of(lasts ? en - 1 : s)];
      std::size_t d = 0;
      if (lasts) {
        const uint64_t dur = static_cast<uint64_t>(en) - static_cast<uint64_t>(s);
        d = static_cast<std::size_t>(
            std::upper_bound(thresholds.begin(), thresholds.end(), dur,
                             [](uint64_t v, int64_t t) { return v < static_cast<uint64_t>(t); }) -
            thresholds.begin());
      }
      ++o.duration_counts[d];
    }
  }
  while (o.duration_counts.size() > 1 && o.duration_counts.back() == 0) o.duration_counts.pop_back();
  return o;
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
  std::vector<uint64_t> ended(n + 1, 0), later(n + 1, 0);  // ended[a]: ends in bins < a; later[b]: starts in bins >= b
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
