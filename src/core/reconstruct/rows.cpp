// reconstruct: a rank's rows and lanes (see rows.hpp).
#include "reconstruct/rows.hpp"

#include <unordered_set>

namespace scope_speedscope::detail {

Rows gather_rows(const Run& run, const std::vector<uint32_t>& regions, int64_t rank) {
  Rows g;
  for (uint32_t region : regions) {
    for (const RankSlice& slice : run.regions[region].ranks) {
      if (slice.rank != rank) continue;
      require_held(slice);
      if (slice.count > 0) g.rows.push_back({region, g.size, slice.offset, slice.count});
      g.size += slice.count;
      g.any_lane = g.any_lane || run.lane_column;
      break;
    }
  }
  return g;
}

bool row_in_order(const Run& run, const Rows::Row& row) {
  for (uint64_t e = row.offset + 1; e < row.offset + row.count; ++e) {
    const int64_t s0 = run.start_ns[e - 1], s1 = run.start_ns[e];
    if (!(s0 < s1 || (s0 == s1 && run.end_ns[e - 1] >= run.end_ns[e]))) return false;
  }
  return true;
}

std::vector<int64_t> distinct_lanes(const Run& run, const Rows& rows) {
  std::vector<int64_t> lanes;
  if (!rows.any_lane) return {-1};
  // No copy of the lane column: the values met, in a small sorted vector
  // while there are few of them, then in a hash set.
  std::unordered_set<int64_t> many;
  auto see = [&](int64_t v) {
    if (!many.empty()) {
      many.insert(v);
      return;
    }
    const auto at = std::lower_bound(lanes.begin(), lanes.end(), v);
    if (at != lanes.end() && *at == v) return;
    lanes.insert(at, v);
    if (lanes.size() > 64) many.insert(lanes.begin(), lanes.end());
  };
  for (const auto& row : rows.rows) {
    for (uint64_t e = row.offset; e < row.offset + row.count; ++e) see(run.lane[e]);
  }
  if (!many.empty()) {
    lanes.assign(many.begin(), many.end());
    std::sort(lanes.begin(), lanes.end());
  }
  return lanes;
}

}  // namespace scope_speedscope::detail
