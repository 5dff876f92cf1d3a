// What a run holds, for a person choosing what to export: label, schema,
// ranks with their lanes (labelled as the profiles will be named), regions
// with call counts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/run.hpp"

namespace scope_speedscope {

struct Inspection {
  struct LaneInfo {
    int64_t lane;
    std::string label;         // "" for a rank without lanes
    std::string profile_name;  // "rank 0" or "rank 0 - MainThread"
    uint64_t calls;
  };
  struct RankInfo {
    int64_t rank;
    uint64_t calls;
    std::vector<LaneInfo> lanes;  // ascending lane, as the export orders them
  };
  struct RegionInfo {
    std::string name;
    uint64_t calls;              // over all ranks
    std::vector<int64_t> ranks;  // ranks with a row for this region
  };
  std::string label;          // metadata label ("" when none)
  std::string display_label;  // what names the document
  int64_t schema_version;
  std::string storage_layout;
  int64_t num_ranks;  // valid ranks are 0 .. num_ranks - 1
  uint64_t calls;
  std::vector<RankInfo> ranks;      // ranks that recorded calls, ascending
  std::vector<RegionInfo> regions;  // file order
};

Inspection inspect_run(const Run& run);

}  // namespace scope_speedscope
