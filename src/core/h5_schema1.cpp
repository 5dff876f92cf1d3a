// read, schema 1: one group per rank, one group per region with its own
// start_times / end_times (spec 1.3). A region name holding '/' was stored as
// nested groups; it is read back as the joined path (CONTRACT.md).
#include <algorithm>
#include <cctype>

#include "h5_detail.hpp"

namespace scope_speedscope::h5 {
namespace {

bool is_rank_group_name(const std::string& name) {
  if (name.size() <= 4 || name.compare(0, 4, "rank") != 0) return false;
  return std::all_of(name.begin() + 4, name.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
}

struct RegionGroup {
  std::string name;  // joined path below regions/
  std::string path;  // HDF5 path from the rank group
};

// Region groups below `regions`, depth first in link-name order: a group with
// start_times or end_times is a region; one without them but with subgroups
// holds regions whose names continue with '/'.
std::vector<RegionGroup> region_groups(const File& f, hid_t rank_group) {
  std::vector<RegionGroup> found;
  struct Pending {
    std::string name;
    std::string path;
  };
  std::vector<Pending> stack;
  {
    Handle regions = open_group(f, rank_group, "regions");
    const auto names = child_names(f, regions.get());
    for (auto it = names.rbegin(); it != names.rend(); ++it) stack.push_back({*it, "regions/" + *it});
  }
  while (!stack.empty()) {
    Pending item = std::move(stack.back());
    stack.pop_back();
    if (!is_group(rank_group, item.path)) continue;
    if (link_exists(rank_group, item.path + "/start_times") ||
        link_exists(rank_group, item.path + "/end_times")) {
      found.push_back({item.name, item.path});
      continue;
    }
    Handle group = open_group(f, rank_group, item.path);
    const auto names = child_names(f, group.get());
    for (auto it = names.rbegin(); it != names.rend(); ++it) {
      stack.push_back({item.name + "/" + *it, item.path + "/" + *it});
    }
  }
  return found;
}

void append_column(std::vector<int64_t>& dest, std::vector<int64_t>&& values) {
  if (dest.empty()) {
    dest = std::move(values);
  } else {
    dest.insert(dest.end(), values.begin(), values.end());
  }
}

}  // namespace

void read_schema1(File& f, Run& run) {
  const hid_t root = f.file.get();
  std::vector<std::pair<int64_t, std::string>> rank_groups;
  for (const std::string& name : child_names(f, root)) {
    if (!is_rank_group_name(name) || !is_group(root, name)) continue;
    const std::string digits = name.substr(4);
    int64_t rank = 0;
    for (char c : digits) {
      rank = rank * 10 + (c - '0');
      if (rank > (int64_t{1} << 40)) f.fail("rank group '" + name + "' has an impossible rank");
    }
    rank_groups.emplace_back(rank, name);
  }
  std::stable_sort(rank_groups.begin(), rank_groups.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });

  // First pass: what to read, for progress.
  struct Pending {
    int64_t rank;
    std::string group;
    std::vector<RegionGroup> regions;
  };
  std::vector<Pending> pending;
  for (const auto& [rank, name] : rank_groups) {
    ++run.num_ranks;  // every rank group counts, with or without regions (spec 2.1)
    Handle group = open_group(f, root, name);
    Pending p{rank, name, {}};
    if (is_group(group.get(), "regions")) p.regions = region_groups(f, group.get());
    pending.push_back(std::move(p));
  }
  for (const Pending& p : pending) {
    Handle group = open_group(f, root, p.group);
    for (const RegionGroup& rg : p.regions) {
      Handle ds = open_dataset(f, group.get(), rg.path + "/start_times");
      f.events_total += 2 * dataset_length(f, ds.get(), rg.path + "/start_times");
    }
  }

  for (const Pending& p : pending) {
    Handle group = open_group(f, root, p.group);
    for (const RegionGroup& rg : p.regions) {
      std::vector<int64_t> starts = read_int64_column(f, group.get(), rg.path + "/start_times", true);
      std::vector<int64_t> ends = read_int64_column(f, group.get(), rg.path + "/end_times", true);
      if (ends.size() != starts.size()) {
        f.fail("region '" + rg.name + "' of " + p.group + " has " + std::to_string(starts.size()) +
               " start times but " + std::to_string(ends.size()) + " end times");
      }
      const uint64_t offset = run.start_ns.size();
      const uint64_t count = starts.size();
      append_column(run.start_ns, std::move(starts));
      append_column(run.end_ns, std::move(ends));

      auto it = std::find_if(run.regions.begin(), run.regions.end(),
                             [&](const Region& r) { return r.name == rg.name; });
      if (it == run.regions.end()) {
        run.regions.push_back(Region{rg.name, {}});
        it = std::prev(run.regions.end());
      }
      auto slice = std::find_if(it->ranks.begin(), it->ranks.end(),
                                [&](const RankSlice& s) { return s.rank == p.rank; });
      if (slice != it->ranks.end()) {
        slice->offset = offset;
        slice->count = count;
      } else {
        it->ranks.push_back(RankSlice{p.rank, offset, count});
      }
    }
  }
}

}  // namespace scope_speedscope::h5
