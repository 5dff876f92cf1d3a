// timeline: opening a file's selection a group of ranks at a time (see
// timeline.hpp, open_timeline_in_groups). The same steps as build.cpp, in
// the same order, so the timeline and its errors are the same: the
// selection from the file's index (its region order and origin given, as
// an earlier open of every rank's first starts found them), then rank
// after rank as listed, each group of ranks read when its first rank is
// reached. The columns are the timeline's own, sized once; each rank's
// starts are staged whole and packed into 32 bits as soon as a group of
// kStartGroup positions is complete, so the open holds the timeline's 12
// bytes a call, one group's run and one rank's reconstruction.
#include <algorithm>
#include <map>
#include <utility>

#include "reconstruct/profiles.hpp"
#include "select/selection.hpp"
#include "text/messages.hpp"
#include "timeline/builder.hpp"
#include "timeline/timeline.hpp"

namespace scope_speedscope {

namespace {

// The calls `rank` holds of `regions`, by the index.
uint64_t calls_of(const Run& index, const std::vector<uint32_t>& regions, int64_t rank) {
  uint64_t n = 0;
  for (uint32_t region : regions) {
    for (const RankSlice& slice : index.regions[region].ranks) {
      if (slice.rank == rank) n += slice.count;
    }
  }
  return n;
}

// t - shift, wrapping as int64 differences do.
int64_t minus(int64_t t, uint64_t shift) {
  return static_cast<int64_t>(static_cast<uint64_t>(t) - shift);
}

}  // namespace

Timeline open_timeline_in_groups(Run index, const ReadRanks& read, const RunOrder& order,
                                 const TimelineOptions& options, uint64_t group_calls) {
  try {
    return Timeline::Builder::build_in_groups(index, read, order, options, group_calls);
  } catch (Error& e) {
    if (e.kind() != ErrorKind::io) e.in_file(index.path);  // as the export blames
    throw;
  }
}

Timeline Timeline::Builder::build_in_groups(Run& index, const ReadRanks& read,
                                            const RunOrder& order, const TimelineOptions& options,
                                            uint64_t group_calls) {
  if (order.region_keys.size() != index.regions.size() || !order.first_start_ns) {
    throw Error(Msg::internal,
                {{"detail", "scope-speedscope: a grouped open given another file's region order"}});
  }
  index.region_order_keys = order.region_keys;
  index.file_first_start_ns = order.first_start_ns;
  const std::vector<int64_t> ranks = view_ranks(index, options.ranks, options.every_rank);
  const std::vector<uint32_t> regions =
      order_regions(index, selected_regions(index, options.include, options.exclude));
  Timeline tl;
  Builder b(tl, index);
  b.describe_selection(index, regions, ranks, options);
  b.run_first = *order.first_start_ns;
  b.frame_of_region.assign(index.regions.size(), -1);
  b.region_calls.assign(index.regions.size(), 0);
  b.region_total.assign(index.regions.size(), 0);
  b.region_self.assign(index.regions.size(), 0);
  std::vector<std::size_t> listed_at;  // listed[j]'s first place in `ranks`
  for (std::size_t k = 0; k < ranks.size(); ++k) {
    if (std::find(b.listed.begin(), b.listed.end(), ranks[k]) != b.listed.end()) continue;
    b.listed.push_back(ranks[k]);
    listed_at.push_back(k);
  }
  std::vector<uint64_t> per_rank;
  uint64_t total = 0;
  for (int64_t rank : b.listed) {
    per_rank.push_back(calls_of(index, regions, rank));
    total += per_rank.back();
  }
  b.packing = true;
  tl.call_.reserve(total);
  tl.start_off_.reserve(total);
  tl.start_base_.reserve(total / detail::kStartGroup + 1);
  // Rank after rank as listed, the same errors in the same order as
  // build(): the ranks listed up to each are required before it is
  // reconstructed.
  std::size_t checked = 0;
  std::map<int64_t, std::vector<LaneOf>> done;
  for (std::size_t j = 0; j < b.listed.size();) {
    std::size_t k = j;
    uint64_t calls = 0;
    std::vector<int64_t> group;
    for (; k < b.listed.size() && (k == j || calls + per_rank[k] <= group_calls); ++k) {
      calls += per_rank[k];
      if (b.listed[k] >= 0 && b.listed[k] < index.num_ranks) group.push_back(b.listed[k]);
    }
    std::sort(group.begin(), group.end());
    const Run part = read(group);
    b.calls_run = &part;
    for (; j < k; ++j) {
      for (; checked <= listed_at[j]; ++checked) require_rank(index, ranks[checked], checked);
      const RankCalls rc = build_call_arrays(part, regions, b.listed[j], CallStorage::indexed);
      done[b.listed[j]] = b.add_rank(b.listed[j], rc, nullptr);
      b.pack_staged(false);
      if (options.progress) options.progress("reconstruct", j + 1, b.listed.size());
    }
    b.calls_run = &index;
  }
  for (; checked < ranks.size(); ++checked) require_rank(index, ranks[checked], checked);
  for (int64_t rank : ranks) {
    const std::vector<LaneOf>& of_rank = done[rank];
    b.lanes.insert(b.lanes.end(), of_rank.begin(), of_rank.end());
  }
  if (b.lanes.empty()) throw Error(Msg::no_calls_recorded).on_field("ranks");
  b.pack_staged(true);
  tl.call_.shrink_to_fit();
  tl.start_off_.shrink_to_fit();
  b.take_columns(nullptr);
  b.drop_listed_from_unread();
  b.index_and_describe(order.first_start_ns, options);
  return tl;
}

// Every listed rank was read: the ranks the timeline did not read are the
// others (describe_selection found the index's, which holds none).
void Timeline::Builder::drop_listed_from_unread() {
  std::vector<int64_t> unread;
  std::vector<uint64_t> unread_calls;
  for (std::size_t i = 0; i < tl.unread_ranks_.size(); ++i) {
    if (std::find(listed.begin(), listed.end(), tl.unread_ranks_[i]) != listed.end()) continue;
    unread.push_back(tl.unread_ranks_[i]);
    unread_calls.push_back(tl.unread_calls_[i]);
  }
  tl.unread_ranks_ = std::move(unread);
  tl.unread_calls_ = std::move(unread_calls);
}

// The staged starts of every complete group of kStartGroup positions (with
// `all`, of the last one too) packed into the start column.
void Timeline::Builder::pack_staged(bool all) {
  constexpr std::size_t G = detail::kStartGroup;
  const std::size_t n = staged.size();
  std::size_t k = 0;
  while (k + G <= n || (all && k < n)) {
    const std::size_t m = std::min(G, n - k);
    const std::size_t first = tl.start_off_.size();
    tl.start_off_.resize(first + m);
    tl.start_base_.push_back(pack_group(staged.data() + k, m, tl.start_off_.data() + first));
    k += m;
  }
  staged.erase(staged.begin(), staged.begin() + static_cast<std::ptrdiff_t>(k));
  staged_at += k;
}

// Every packed start moved by -shift (wrapping): a group's base, and each
// whole start. A base that becomes kWideGroup, the mark of a wide group,
// makes its group wide.
void Timeline::Builder::shift_packed_starts(uint64_t shift) {
  constexpr std::size_t G = detail::kStartGroup;
  for (int64_t& start : tl.wide_start_) start = minus(start, shift);
  const std::size_t n = tl.start_off_.size();
  for (std::size_t g = 0; g < tl.start_base_.size(); ++g) {
    int64_t& base = tl.start_base_[g];
    if (base == detail::kWideGroup) continue;
    base = minus(base, shift);
    if (base != detail::kWideGroup) continue;
    for (std::size_t i = g * G; i < std::min(n, (g + 1) * G); ++i) {
      const auto start = static_cast<int64_t>(static_cast<uint64_t>(base) + tl.start_off_[i]);
      tl.start_off_.data()[i] = static_cast<uint32_t>(tl.wide_start_.size());
      tl.wide_start_.push_back(start);
    }
  }
}

}  // namespace scope_speedscope
