// read, schema 1: one group per rank, one group per region with its own
// start_times / end_times (spec 1.3). A region name holding '/' was stored as
// nested groups; it is read back as the joined path (CONTRACT.md).
//
// The walk below regions/ is iterative and linear in the number of links:
// every group is opened from its parent's open handle (never by a path from
// the rank group, which HDF5 would traverse again each time), and a group
// reached a second time through hard links is refused, so a cycle cannot
// make it run forever. Only hard and soft links are followed (an external
// link would open another file).
#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <memory>
#include <set>
#include <unordered_map>

#include "read/h5_detail.hpp"

namespace scope_speedscope::h5 {
namespace {

bool is_rank_group_name(const std::string& name) {
  if (name.size() <= 4 || name.compare(0, 4, "rank") != 0) return false;
  return std::all_of(name.begin() + 4, name.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
}

struct RegionGroup {
  std::string name;   // joined path below regions/
  H5O_token_t token;  // the region group, opened again by token to read it
};

// Opens an object by its token: no path to traverse again.
Handle open_by_token(const File& f, const H5O_token_t& token, const std::string& what) {
  Handle object(H5Oopen_by_token(f.file.get(), token), H5Oclose);
  if (!object.valid()) f.fail("cannot open group '" + what + "': " + error_stack_message());
  return object;
}

using Token = std::array<unsigned char, sizeof(H5O_token_t)>;

// Region groups below `regions`, depth first in link-name order: a group with
// start_times or end_times is a region; one without them but with subgroups
// holds regions whose names continue with '/'.
std::vector<RegionGroup> region_groups(const File& f, hid_t rank_group,
                                       const std::string& rank_name) {
  std::vector<RegionGroup> found;
  // Names are rebuilt from a tree of components only for the regions found.
  struct Node {
    std::size_t parent;  // index in nodes; SIZE_MAX for a child of regions/
    std::string component;
  };
  std::vector<Node> nodes;
  auto full_name = [&](std::size_t node) {
    std::vector<const std::string*> parts;
    for (std::size_t n = node; n != SIZE_MAX; n = nodes[n].parent)
      parts.push_back(&nodes[n].component);
    std::string name;
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
      if (it != parts.rbegin()) name += '/';
      name += **it;
    }
    return name;
  };
  // One frame per group on the way down: its children in name order. Only
  // the innermost group stays open (HDF5 holds memory for each open group);
  // a frame returned to is opened again by its token.
  struct Frame {
    Handle group;
    H5O_token_t token;
    std::size_t node;  // SIZE_MAX for regions/ itself
    std::vector<std::string> children;
    std::size_t next = 0;
  };
  std::set<Token> expanded;  // groups already walked into
  auto first_visit = [&](const H5O_token_t& token) {
    Token key;
    std::memcpy(key.data(), &token, key.size());
    return expanded.insert(key).second;
  };
  std::vector<Frame> stack;
  {
    Handle regions = open_group(f, rank_group, "regions");
    H5O_info2_t info;
    if (H5Oget_info3(regions.get(), &info, H5O_INFO_BASIC) < 0) {
      f.fail("cannot read group '" + rank_name + "/regions': " + error_stack_message());
    }
    first_visit(info.token);
    std::vector<std::string> children = child_names(f, regions.get(), /*followed_only=*/true);
    stack.push_back(Frame{std::move(regions), info.token, SIZE_MAX, std::move(children)});
  }
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next == top.children.size()) {
      stack.pop_back();
      continue;
    }
    if (!top.group.valid()) {
      top.group = open_by_token(f, top.token, rank_name + "/regions/" + full_name(top.node));
    }
    const std::string& child = top.children[top.next++];
    H5O_info2_t info;
    if (H5Oget_info_by_name3(top.group.get(), child.c_str(), &info, H5O_INFO_BASIC, H5P_DEFAULT) <
        0) {
      H5Eclear2(H5E_DEFAULT);  // a dangling soft link: not a region
      continue;
    }
    if (info.type != H5O_TYPE_GROUP) continue;
    Handle group = open_group(f, top.group.get(), child);
    nodes.push_back(Node{top.node, child});
    const std::size_t node = nodes.size() - 1;
    if (link_exists(group.get(), "start_times") || link_exists(group.get(), "end_times")) {
      found.push_back(RegionGroup{full_name(node), info.token});
      continue;
    }
    if (!first_visit(info.token)) {
      f.fail(Msg::group_reached_twice, {{"group", rank_name + "/regions/" + full_name(node)}});
    }
    std::vector<std::string> children = child_names(f, group.get(), /*followed_only=*/true);
    top.group.reset();
    stack.push_back(Frame{std::move(group), info.token, node, std::move(children)});
  }
  return found;
}

void append_column(Column<int64_t>& dest, const std::vector<int64_t>& values) {
  dest.append(values.data(), values.data() + values.size());
}

}  // namespace

void read_schema1(File& f, Run& run) {
  const hid_t root = f.file.get();
  std::vector<std::pair<int64_t, std::string>> rank_groups;
  for (const std::string& name : child_names(f, root, /*followed_only=*/true)) {
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
    if (is_group(group.get(), "regions")) p.regions = region_groups(f, group.get(), name);
    pending.push_back(std::move(p));
  }
  for (const Pending& p : pending) {
    for (const RegionGroup& rg : p.regions) {
      const std::string where = p.group + "/regions/" + rg.name;
      Handle group = open_by_token(f, rg.token, where);
      Handle ds = open_dataset(f, group.get(), "start_times");
      f.events_total += 2 * dataset_length(f, ds.get(), where + "/start_times");
    }
  }

  std::unordered_map<std::string, std::size_t> region_index;
  for (const Pending& p : pending) {
    for (const RegionGroup& rg : p.regions) {
      const std::string where = p.group + "/regions/" + rg.name;
      Handle group = open_by_token(f, rg.token, where);
      std::vector<int64_t> starts =
          read_int64_column(f, group.get(), "start_times", true, where + "/start_times");
      std::vector<int64_t> ends =
          read_int64_column(f, group.get(), "end_times", true, where + "/end_times");
      if (ends.size() != starts.size()) {
        f.fail("region '" + rg.name + "' of " + p.group + " has " + std::to_string(starts.size()) +
               " start times but " + std::to_string(ends.size()) + " end times");
      }
      const uint64_t offset = run.start_ns.size();
      const uint64_t count = starts.size();
      append_column(run.start_ns, starts);
      append_column(run.end_ns, ends);

      const auto [it, added] = region_index.emplace(rg.name, run.regions.size());
      if (added) run.regions.push_back(Region{rg.name, {}});
      // map[name][rank] = slice. Rank groups come in rank order, so a second
      // group of the same rank ("rank1", "rank01") can only meet the last entry.
      Region& region = run.regions[it->second];
      RankSlice slice{p.rank, offset, count};
      if (f.sources) slice.source = read_group_source(f, group.get(), where, run);
      if (!region.ranks.empty() && region.ranks.back().rank == p.rank) {
        region.ranks.back() = slice;
      } else {
        region.ranks.push_back(slice);
      }
    }
  }
}

}  // namespace scope_speedscope::h5
