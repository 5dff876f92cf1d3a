// compare: two runs region by region (see compare.hpp).
#include "compare/compare.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "model/time.hpp"
#include "reconstruct/profiles.hpp"
#include "text/messages.hpp"

namespace scope_speedscope {

namespace {

int64_t clamped(int128 v) {
  constexpr int128 lo = std::numeric_limits<int64_t>::min();
  constexpr int128 hi = std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(v < lo ? lo : v > hi ? hi : v);
}

struct Sums {
  uint64_t calls = 0;
  int128 total = 0, self = 0;
};

// A profile's calls in pre-order: each adds its duration to its region's
// total and self, and takes it from its parent's self.
void add_profile(const NamedCalls& profile, std::vector<Sums>& sums) {
  std::vector<uint32_t> path;  // regions of the open calls, by depth
  for_each_block(profile, [&](const Call* first, const Call* last) {
    for (const Call* c = first; c != last; ++c) {
      const int128 d = int128{c->end_ns} - c->start_ns;
      path.resize(c->depth);
      Sums& s = sums[c->region];
      ++s.calls;
      s.total += d;
      s.self += d;
      if (c->depth > 0) sums[path.back()].self -= d;
      path.push_back(c->region);
    }
  });
}

}  // namespace

std::vector<RegionTotals> region_totals(const Run& run, const CompareOptions& options) {
  const std::vector<int64_t> ranks = chosen_ranks(run, options.ranks, options.all_ranks);
  std::vector<int64_t> distinct;  // each rank once, in the order given (errors in that order)
  for (int64_t r : ranks)
    if (std::find(distinct.begin(), distinct.end(), r) == distinct.end()) distinct.push_back(r);
  const std::vector<uint32_t> regions =
      order_regions(run, filter_regions(run, options.include, options.exclude, nullptr));
  std::vector<Sums> sums(run.regions.size());
  try {
    const SelectedProfiles selected =
        reconstruct_profiles(run, regions, distinct, CallStorage::streamed);
    for (const auto& p : selected.profiles()) add_profile(p.calls, sums);
  } catch (Error& e) {
    if (e.kind() != ErrorKind::io) e.in_file(run.path);
    throw;
  }
  std::vector<RegionTotals> out(run.regions.size());
  for (std::size_t r = 0; r < sums.size(); ++r) {
    out[r] = RegionTotals{sums[r].calls, clamped(sums[r].total), clamped(sums[r].self)};
  }
  return out;
}

std::vector<RegionDelta> compare_totals(const NamedTotals& a, const NamedTotals& b) {
  std::map<std::string, RegionDelta> rows;
  for (const auto& [name, t] : a)
    if (t.calls > 0) rows[name].a = t;
  for (const auto& [name, t] : b)
    if (t.calls > 0) rows[name].b = t;
  std::vector<RegionDelta> out;
  out.reserve(rows.size());
  for (auto& [name, row] : rows) {
    row.name = name;
    row.delta_total_ns = saturating_sub(row.b.total_ns, row.a.total_ns);
    row.delta_self_ns = saturating_sub(row.b.self_ns, row.a.self_ns);
    auto pct = [](int64_t from, int64_t to) -> std::optional<double> {
      if (from == 0) return std::nullopt;
      return 100.0 * static_cast<double>(int128{to} - from) / static_cast<double>(from);
    };
    row.delta_self_pct = pct(row.a.self_ns, row.b.self_ns);
    row.delta_total_pct = pct(row.a.total_ns, row.b.total_ns);
    out.push_back(std::move(row));
  }
  std::stable_sort(out.begin(), out.end(), [](const RegionDelta& x, const RegionDelta& y) {
    return x.delta_self_ns > y.delta_self_ns;  // names ascending among equals (map order)
  });
  return out;
}

std::vector<RegionDelta> compare_regions(const Run& a, const Run& b,
                                         const CompareOptions& options) {
  if (filter_regions(a, options.include, options.exclude, nullptr).empty() &&
      filter_regions(b, options.include, options.exclude, nullptr).empty()) {
    const char* emptied_by = "";
    filter_regions(a, options.include, options.exclude, &emptied_by);
    throw Error(Msg::no_regions_matched).on_field(emptied_by);
  }
  auto named = [&](const Run& run) {
    const std::vector<RegionTotals> totals = region_totals(run, options);
    NamedTotals out;
    for (std::size_t r = 0; r < totals.size(); ++r)
      out.emplace_back(run.regions[r].name, totals[r]);
    return out;
  };
  const NamedTotals ta = named(a);
  return compare_totals(ta, named(b));
}

}  // namespace scope_speedscope
