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
#include <memory>
#include <optional>
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
  GroupedOpen open(std::move(index), order, options, group_calls);
  while (!open.step(read, options.progress)) {
  }
  return open.finish(options.progress);
}

// What a grouped open holds between its steps. The builder lays out into
// `tl` and reads the index: both stay where they are (the state is never
// moved, only the pointer to it).
struct Timeline::Builder::Groups {
  Groups(Run&& idx, const TimelineOptions& opts, uint64_t calls_a_group)
      : index(std::move(idx)), b(tl, index), options(opts), group_calls(calls_a_group) {
    options.progress = nullptr;  // each step reports to its own request
  }
  Run index;
  Timeline tl;
  Builder b;
  TimelineOptions options;
  uint64_t group_calls;
  std::optional<int64_t> first_start;
  std::vector<int64_t> ranks;
  std::vector<uint32_t> regions;
  std::vector<std::size_t> listed_at;  // listed[j]'s first place in `ranks`
  std::vector<uint64_t> per_rank;      // listed[j]'s calls
  uint64_t total = 0, laid_out = 0;
  std::size_t checked = 0;  // ranks[0 .. checked) were required
  std::size_t next = 0;     // listed[next] is the next rank to read
  std::map<int64_t, std::vector<LaneOf>> done;
};

// The selection from the index, as build() makes it from a run (the same
// errors in the same order), and the columns sized once.
void Timeline::Builder::begin_groups(Groups& g, const RunOrder& order) {
  Run& index = g.index;
  if (order.region_keys.size() != index.regions.size() || !order.first_start_ns) {
    throw Error(Msg::internal,
                {{"detail", "scope-speedscope: a grouped open given another file's region order"}});
  }
  index.region_order_keys = order.region_keys;
  index.file_first_start_ns = order.first_start_ns;
  g.first_start = order.first_start_ns;
  g.ranks = view_ranks(index, g.options.ranks, g.options.every_rank);
  g.regions = order_regions(index, selected_regions(index, g.options.include, g.options.exclude));
  Builder& b = g.b;
  b.describe_selection(index, g.regions, g.ranks, g.options);
  b.run_first = *order.first_start_ns;
  b.frame_of_region.assign(index.regions.size(), -1);
  b.region_calls.assign(index.regions.size(), 0);
  b.region_total.assign(index.regions.size(), 0);
  b.region_self.assign(index.regions.size(), 0);
  for (std::size_t k = 0; k < g.ranks.size(); ++k) {
    if (std::find(b.listed.begin(), b.listed.end(), g.ranks[k]) != b.listed.end()) continue;
    b.listed.push_back(g.ranks[k]);
    g.listed_at.push_back(k);
    g.per_rank.push_back(calls_of(index, g.regions, g.ranks[k]));
    g.total += g.per_rank.back();
  }
  b.packing = true;
  g.tl.call_.reserve(g.total);
  g.tl.start_off_.reserve(g.total);
  g.tl.start_base_.reserve(g.total / detail::kStartGroup + 1);
}

// The next group of listed ranks (about group_calls calls, one rank at
// least) read and laid out, rank after rank as listed: the ranks listed up
// to each are required before it is reconstructed, as build() does.
// Returns whether every listed rank is in.
bool Timeline::Builder::step_groups(Groups& g, const ReadRanks& read, const Progress& progress) {
  Builder& b = g.b;
  std::size_t k = g.next;
  uint64_t calls = 0;
  std::vector<int64_t> group;
  for (; k < b.listed.size() && (k == g.next || calls + g.per_rank[k] <= g.group_calls); ++k) {
    calls += g.per_rank[k];
    if (b.listed[k] >= 0 && b.listed[k] < g.index.num_ranks) group.push_back(b.listed[k]);
  }
  std::sort(group.begin(), group.end());
  if (!group.empty()) {
    const Run part = read(group);
    b.calls_run = &part;
    for (; g.next < k; ++g.next) {
      for (; g.checked <= g.listed_at[g.next]; ++g.checked)
        require_rank(g.index, g.ranks[g.checked], g.checked);
      const int64_t rank = b.listed[g.next];
      g.done[rank] =
          b.add_rank(rank, build_call_arrays(part, g.regions, rank, CallStorage::indexed), nullptr);
      b.pack_staged(false);
      g.laid_out += g.per_rank[g.next];
      if (progress) progress("reconstruct", g.next + 1, b.listed.size());
    }
    b.calls_run = &g.index;
  }
  for (; g.next < k; ++g.next) {  // not in the run: refused when reached
    for (; g.checked <= g.listed_at[g.next]; ++g.checked)
      require_rank(g.index, g.ranks[g.checked], g.checked);
  }
  return g.next == b.listed.size();
}

// Once every listed rank is in: the lanes in the order listed, the columns
// trimmed, and the timeline indexed and described.
Timeline Timeline::Builder::finish_groups(Groups& g, const Progress& progress) {
  Builder& b = g.b;
  for (; g.checked < g.ranks.size(); ++g.checked)
    require_rank(g.index, g.ranks[g.checked], g.checked);
  for (int64_t rank : g.ranks) {
    const std::vector<LaneOf>& of_rank = g.done[rank];
    b.lanes.insert(b.lanes.end(), of_rank.begin(), of_rank.end());
  }
  if (b.lanes.empty()) throw Error(Msg::no_calls_recorded).on_field("ranks");
  b.pack_staged(true);
  g.tl.call_.shrink_to_fit();
  g.tl.start_off_.shrink_to_fit();
  b.take_columns(nullptr);
  b.drop_listed_from_unread();
  TimelineOptions options = g.options;
  options.progress = progress;
  b.index_and_describe(g.first_start, options);
  return std::move(g.tl);
}

// GroupedOpen's state: the builder's (a name timeline.hpp can declare).
struct GroupedOpenState : Timeline::Builder::Groups {
  using Groups::Groups;
};

namespace {
// Runs `work`, blaming the file for what fails in it (as the export blames).
template <class Work>
auto blaming(const std::string& path, Work&& work) {
  try {
    return work();
  } catch (Error& e) {
    if (e.kind() != ErrorKind::io) e.in_file(path);
    throw;
  }
}
}  // namespace

GroupedOpen::GroupedOpen(Run index, const RunOrder& order, const TimelineOptions& options,
                         uint64_t group_calls) {
  const std::string path = index.path;
  blaming(path, [&] {
    s_ = std::make_unique<GroupedOpenState>(std::move(index), options, group_calls);
    Timeline::Builder::begin_groups(*s_, order);
    return 0;
  });
}
GroupedOpen::~GroupedOpen() = default;

bool GroupedOpen::step(const ReadRanks& read, const Progress& progress) {
  return blaming(s_->index.path,
                 [&] { return Timeline::Builder::step_groups(*s_, read, progress); });
}

Timeline GroupedOpen::finish(const Progress& progress) {
  Timeline tl =
      blaming(s_->index.path, [&] { return Timeline::Builder::finish_groups(*s_, progress); });
  s_.reset();
  return tl;
}

uint64_t GroupedOpen::calls_done() const { return s_ ? s_->laid_out : 0; }
uint64_t GroupedOpen::calls() const { return s_ ? s_->total : 0; }

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
    tl.start_off_.resize_for_overwrite(first + m);  // pack_group writes them
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
