// reconstruct: the spec's algorithm step by step (sections 3.1 to 3.6), what
// build_call_arrays falls back to when the calls do not nest: it blames the
// pair scope-profiler blames. Quadratic nowhere, but it holds every call.
#include <numeric>
#include <string>

#include "model/time.hpp"
#include "reconstruct/calls.hpp"
#include "reconstruct/rows.hpp"
#include "text/messages.hpp"
#include "text/unicode.hpp"

namespace scope_speedscope::detail {
namespace {

int128 doubled(int64_t t) { return int128{t} * 2; }
int128 doubled_end(int64_t start, int64_t end) {
  return doubled(end) + (end == start ? 1 : 0);  // the zero-length rule
}

// The concatenated columns of the rank's rows (spec 3.1).
struct Columns {
  std::vector<int64_t> start, end, lane;
};

Columns concatenate(const Run& run, const Rows& g) {
  Columns c;
  c.start.resize(g.size);
  c.end.resize(g.size);
  if (g.any_lane) c.lane.resize(g.size);
  for (const auto& row : g.rows) {
    for (uint64_t j = 0; j < row.count; ++j) {
      c.start[row.first_k + j] = run.start_ns[row.offset + j];
      c.end[row.first_k + j] = run.end_ns[row.offset + j];
      if (g.any_lane) c.lane[row.first_k + j] = run.lane[row.offset + j];
    }
  }
  return c;
}

void check_ends_after_starts(const Columns& c) {
  for (std::size_t k = 0; k < c.start.size(); ++k) {
    if (c.end[k] < c.start[k]) throw Error(Msg::ends_before_starts);
  }
}

std::string describe(const Run& run, const Rows& g, uint64_t k, int64_t start, int64_t end) {
  const auto& row = g.row_of(k);
  return python_str_repr(run.regions[row.region].name) + " call " +
         std::to_string(k - row.first_k) + " [" + std::to_string(start) + ", " +
         std::to_string(end) + "] ns";
}

// Each lane's call ids (positions in `order`), lanes ascending.
std::vector<std::vector<uint64_t>> split_lanes(const Columns& c, const std::vector<uint64_t>& order,
                                               std::vector<int64_t>& lane_values) {
  lane_values = c.lane.empty() ? std::vector<int64_t>{-1} : c.lane;
  std::sort(lane_values.begin(), lane_values.end());
  lane_values.erase(std::unique(lane_values.begin(), lane_values.end()), lane_values.end());
  std::vector<std::vector<uint64_t>> members(lane_values.size());
  for (uint64_t id = 0; id < order.size(); ++id) {
    const std::size_t li =
        c.lane.empty()
            ? 0
            : static_cast<std::size_t>(
                  std::lower_bound(lane_values.begin(), lane_values.end(), c.lane[order[id]]) -
                  lane_values.begin());
    members[li].push_back(id);
  }
  return members;
}

// Depth (spec 3.4): k - the number of (doubled) ends <= the (doubled) start.
void count_depths(const Columns& c, const std::vector<uint64_t>& order,
                  const std::vector<uint64_t>& ids, std::vector<int64_t>& depth) {
  const std::size_t m = ids.size();
  std::vector<int128> ends(m);
  for (std::size_t j = 0; j < m; ++j)
    ends[j] = doubled_end(c.start[order[ids[j]]], c.end[order[ids[j]]]);
  std::sort(ends.begin(), ends.end());
  int64_t min_depth = 0;
  for (std::size_t j = 0; j < m; ++j) {
    const int128 s2 = doubled(c.start[order[ids[j]]]);
    const auto closed = std::upper_bound(ends.begin(), ends.end(), s2) - ends.begin();
    depth[ids[j]] = static_cast<int64_t>(j) - closed;
    min_depth = std::min(min_depth, depth[ids[j]]);
  }
  if (m > 0 && min_depth < 0) throw Error(Msg::not_properly_nested);
}

// Parent (spec 3.5): the latest earlier call of the lane at depth - 1.
void find_parents(const std::vector<uint64_t>& ids, const std::vector<int64_t>& depth,
                  std::vector<int64_t>& parent) {
  std::vector<int64_t> last_at_depth;
  for (uint64_t id : ids) {
    const int64_t d = depth[id];
    if (d > 0 && static_cast<std::size_t>(d - 1) < last_at_depth.size()) {
      parent[id] = last_at_depth[static_cast<std::size_t>(d - 1)];
    }
    if (last_at_depth.size() <= static_cast<std::size_t>(d)) last_at_depth.resize(d + 1, -1);
    last_at_depth[static_cast<std::size_t>(d)] = static_cast<int64_t>(id);
  }
}

// Proof of nesting (spec 3.6): the first call that outlives its parent.
void prove_nesting(const Run& run, const Rows& g, const Columns& c,
                   const std::vector<uint64_t>& order, const std::vector<int64_t>& parent) {
  for (uint64_t id = 0; id < order.size(); ++id) {
    if (parent[id] < 0) continue;
    const uint64_t k = order[id];
    const uint64_t pk = order[static_cast<uint64_t>(parent[id])];
    if (c.end[pk] < c.end[k]) {
      throw Error(Msg::calls_overlap, {{"child", describe(run, g, k, c.start[k], c.end[k])},
                                       {"parent", describe(run, g, pk, c.start[pk], c.end[pk])}});
    }
  }
}

}  // namespace

RankCalls build_call_arrays_literal(const Run& run, const std::vector<uint32_t>& regions,
                                    int64_t rank) {
  RankCalls out;
  out.rank = rank;
  const Rows g = gather_rows(run, regions, rank);
  if (g.size == 0) return out;
  const Columns c = concatenate(run, g);
  check_ends_after_starts(c);

  // Call order: start ascending, end descending, stable.
  std::vector<uint64_t> order(g.size);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](uint64_t a, uint64_t b) {
    if (c.start[a] != c.start[b]) return c.start[a] < c.start[b];
    return c.end[a] > c.end[b];
  });
  std::vector<int64_t> lane_values;
  const auto members = split_lanes(c, order, lane_values);
  std::vector<int64_t> depth(g.size), parent(g.size, -1);
  for (const auto& ids : members) count_depths(c, order, ids, depth);
  for (const auto& ids : members) find_parents(ids, depth, parent);
  prove_nesting(run, g, c, order, parent);

  out.calls.reserve(g.size);
  for (std::size_t li = 0; li < members.size(); ++li) {
    if (members[li].empty()) continue;
    const std::size_t begin = out.calls.size();
    for (uint64_t id : members[li]) {
      const uint64_t k = order[id];
      out.calls.push_back(
          Call{c.start[k], c.end[k], g.row_of(k).region, static_cast<uint32_t>(depth[id])});
    }
    out.lanes.push_back(Lane{lane_values[li], begin, out.calls.size()});
  }
  return out;
}

}  // namespace scope_speedscope::detail
