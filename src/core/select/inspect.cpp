#include "select/inspect.hpp"

#include <map>

#include "export/export.hpp"

namespace scope_speedscope {

Inspection inspect_run(const Run& run) {
  Inspection out;
  out.label = run.label;
  out.display_label = run.display_label();
  out.schema_version = run.schema_version;
  out.storage_layout = run.storage_layout;
  out.num_ranks = run.num_ranks;
  out.calls = 0;
  std::map<int64_t, std::map<int64_t, uint64_t>> lanes;  // rank -> lane -> calls
  for (const Region& region : run.regions) {
    Inspection::RegionInfo info{region.name, 0, {}};
    for (const RankSlice& slice : region.ranks) {
      info.calls += slice.count;
      info.ranks.push_back(slice.rank);
      if (slice.count == 0) continue;
      auto& per_lane = lanes[slice.rank];
      if (!run.lane_column) {
        per_lane[-1] += slice.count;
        continue;
      }
      for (uint64_t e = slice.offset; e < slice.offset + slice.count; ++e) ++per_lane[run.lane[e]];
    }
    out.calls += info.calls;
    out.regions.push_back(std::move(info));
  }
  for (const auto& [rank, per_lane] : lanes) {
    Inspection::RankInfo info{rank, 0, {}};
    for (const auto& [lane, calls] : per_lane) {
      info.calls += calls;
      info.lanes.push_back({lane, lane == -1 ? std::string() : run.lane_label(lane, rank),
                            profile_name(run, rank, lane), calls});
    }
    out.ranks.push_back(std::move(info));
  }
  return out;
}

}  // namespace scope_speedscope
