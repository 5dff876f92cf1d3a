// timeline: opening a selection as columns (see timeline.hpp). The steps:
// select and reconstruct as the export does; take the document's frames and
// origin; size one block of columns per distinct (rank, lane); fill them
// rank by rank (dropping each rank's reconstruction once its lanes are in);
// index where the frame changes; describe the lanes.
//
// Opened from a run it may consume, the start and end columns are the run's
// own: when the selected ranks' events lie one rank after another in the
// run's columns and the selection is most of them, each rank's calls are
// gathered in timeline order and written back over the run's columns at
// the next free place, which is never past that rank's own events; so no
// second pair of columns is ever allocated (the peak is the file's columns
// plus the frames and one rank's reconstruction, not both sets of columns).
#include <algorithm>
#include <map>
#include <utility>

#include "model/run.hpp"
#include "reconstruct/profiles.hpp"
#include "select/selection.hpp"
#include "text/messages.hpp"
#include "timeline/timeline.hpp"
#include "write/document_plan.hpp"

namespace scope_speedscope {

struct Timeline::Builder {
  // `consumed`: the run itself when its event columns may be taken over.
  static Timeline build(const Run& run, Run* consumed, const TimelineOptions& options);

 private:
  Builder(Timeline& tl, SelectedProfiles& selected) : tl(tl), selected(selected) {}
  void take_frames_and_origin(const Run& run);
  void size_blocks(const Run& run, const std::vector<uint32_t>& regions, bool consume);
  bool ranks_in_column_order(const Run& run, const std::vector<uint32_t>& regions,
                             std::vector<uint64_t>& first_event) const;
  void fill_blocks(Run* run, const TimelineOptions& options);
  void fill_block(std::size_t blk, int64_t* S, int64_t* E, uint64_t base);
  void clamp_frame_totals();
  void index_frame_changes();
  void summarize_chunks();
  void describe_lanes();
  void describe_selection(const Run& run, const std::vector<uint32_t>& regions,
                          const std::vector<int64_t>& ranks, const TimelineOptions& options);

  Timeline& tl;
  SelectedProfiles& selected;
  std::vector<int64_t> frame_of_region;         // the document's frame of each region
  std::vector<std::size_t> first_profile;       // block -> a profile showing it
  std::vector<std::vector<uint64_t>> counts;    // block -> calls at each depth
  bool in_place = false;                        // the columns are the run's (see above)
  uint64_t longest_at = 0;                      // the longest call's place in the columns
  std::vector<int128> frame_total, frame_self;  // per frame, summed as the blocks fill
};

namespace {

// Calls at each depth of one profile.
std::vector<uint64_t> depth_counts(const NamedCalls& nc) {
  if (nc.stream != nullptr && nc.stream->summary().valid) return nc.stream->summary().depth_counts;
  std::vector<uint64_t> counts;
  for_each_block(nc, [&](const Call* b, const Call* e) {
    for (const Call* c = b; c != e; ++c) {
      if (c->depth >= counts.size()) counts.resize(c->depth + 1, 0);
      ++counts[c->depth];
    }
  });
  return counts;
}

}  // namespace

namespace {

template <class Open>
Timeline blaming_the_file(const std::string& path, Open&& open) {
  try {
    return open();
  } catch (Error& e) {
    if (e.kind() != ErrorKind::io) e.in_file(path);  // as the export blames
    throw;
  }
}

}  // namespace

Timeline open_timeline(const Run& run, const TimelineOptions& options) {
  return blaming_the_file(run.path,
                          [&] { return Timeline::Builder::build(run, nullptr, options); });
}

Timeline open_timeline(Run&& run, const TimelineOptions& options) {
  return blaming_the_file(run.path, [&] { return Timeline::Builder::build(run, &run, options); });
}

Timeline Timeline::Builder::build(const Run& run, Run* consumed, const TimelineOptions& options) {
  // The selection, as export_speedscope makes it (the same errors in the same order).
  const std::vector<int64_t> ranks = view_ranks(run, options.ranks, options.every_rank);
  const std::vector<uint32_t> regions =
      order_regions(run, selected_regions(run, options.include, options.exclude));
  SelectedProfiles selected =
      reconstruct_profiles(run, regions, ranks, CallStorage::indexed, [&](std::size_t k) {
        if (options.progress) options.progress("reconstruct", k + 1, ranks.size());
      });
  if (selected.empty()) throw Error(Msg::no_calls_recorded).on_field("ranks");
  Timeline tl;
  Builder b(tl, selected);
  b.describe_selection(run, regions, ranks, options);
  b.take_frames_and_origin(run);
  if (consumed != nullptr) consumed->lane = {};  // the reconstruction no longer reads it
  b.size_blocks(run, regions, consumed != nullptr);
  b.fill_blocks(consumed, options);
  b.clamp_frame_totals();
  b.index_frame_changes();
  b.summarize_chunks();
  b.describe_lanes();
  return tl;
}

void Timeline::Builder::take_frames_and_origin(const Run& run) {
  const detail::DocumentPlan plan = detail::plan_document(run.regions.size(), selected.named());
  for (uint32_t region : plan.frame_regions) {
    tl.frames_.push_back(run.regions[region].name);
    if (!run.sources_read) continue;
    const SourceLocation* source = region_source(run, run.regions[region]);
    tl.frame_sources_.push_back(source != nullptr ? *source : SourceLocation{});
  }
  tl.frame_regions_ = plan.frame_regions;
  frame_of_region = plan.frame_of_region;
  bool any = false;
  for (const auto& bounds : plan.bounds) {
    if (bounds.any && (!any || bounds.first_start_ns < tl.origin_ns_))
      tl.origin_ns_ = bounds.first_start_ns;
    any = any || bounds.any;
  }
  const int64_t origin = tl.origin_ns_;
  // The run's first start is <= every start, so this does not overflow.
  tl.origin_in_run_ns_ = static_cast<int64_t>(
      static_cast<uint64_t>(origin) - static_cast<uint64_t>(run_origin_ns(run).value_or(origin)));
}

// Whether the selected ranks' events lie one rank after another in the
// run's columns (each rank's rows of the selected regions within a span of
// its own, the spans disjoint): then `first_event` holds, per block, the
// first event of its rank, the order the blocks are laid out in.
bool Timeline::Builder::ranks_in_column_order(const Run& run, const std::vector<uint32_t>& regions,
                                              std::vector<uint64_t>& first_event) const {
  std::map<int64_t, std::pair<uint64_t, uint64_t>> span;  // rank -> [first, end) of its events
  for (std::size_t p : first_profile)
    span.emplace(selected.profiles()[p].rank, std::make_pair(UINT64_MAX, uint64_t{0}));
  for (uint32_t region : regions) {
    for (const RankSlice& slice : run.regions[region].ranks) {
      auto it = span.find(slice.rank);
      if (it == span.end() || slice.count == 0) continue;
      auto& [lo, hi] = it->second;
      lo = std::min(lo, slice.offset);
      hi = std::max(hi, slice.offset + slice.count);
    }
  }
  std::vector<std::pair<uint64_t, uint64_t>> spans;
  for (const auto& [rank, s] : span) spans.push_back(s);
  std::sort(spans.begin(), spans.end());
  for (std::size_t k = 1; k < spans.size(); ++k) {
    if (spans[k].first < spans[k - 1].second) return false;
  }
  for (std::size_t p : first_profile)
    first_event.push_back(span[selected.profiles()[p].rank].first);
  return true;
}

// One block of columns per distinct (rank, lane) (a rank listed twice shows
// the same block twice); columns sized from the calls at each depth. The
// blocks are laid out rank after rank in the order the ranks are listed,
// or, for columns taken over from the run, in the order of the ranks'
// events there (see the top of this file).
void Timeline::Builder::size_blocks(const Run& run, const std::vector<uint32_t>& regions,
                                    bool consume) {
  const auto& profiles = selected.profiles();
  std::map<std::pair<int64_t, std::size_t>, std::size_t> block_of;
  std::vector<std::size_t> block_of_profile;
  uint64_t total = 0;
  for (std::size_t p = 0; p < profiles.size(); ++p) {
    const auto key = std::make_pair(profiles[p].rank, profiles[p].lane);
    auto found = block_of.find(key);
    if (found == block_of.end()) {
      found = block_of.emplace(key, first_profile.size()).first;
      first_profile.push_back(p);
      counts.push_back(depth_counts(profiles[p].calls));
      for (uint64_t c : counts.back()) total += c;
    }
    block_of_profile.push_back(found->second);
  }
  // Taken over when the selection is at least 7/8 of the run's events
  // (what the columns hold beyond it is kept: at most 16 B a call / 7).
  std::vector<uint64_t> first_event;
  const uint64_t events = run.start_ns.size();
  in_place = consume && total * 8 >= events * 7 && ranks_in_column_order(run, regions, first_event);
  std::vector<std::size_t> order(first_profile.size());  // layout position -> block as found
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  if (in_place) {
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return first_event[a] < first_event[b]; });
  }
  std::vector<std::size_t> position(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) position[order[k]] = k;
  for (std::size_t blk : block_of_profile) tl.lane_block_.push_back(position[blk]);
  std::vector<std::size_t> first_in_order;
  std::vector<std::vector<uint64_t>> counts_in_order;
  for (std::size_t blk : order) {
    first_in_order.push_back(first_profile[blk]);
    counts_in_order.push_back(std::move(counts[blk]));
  }
  first_profile = std::move(first_in_order);
  counts = std::move(counts_in_order);

  std::size_t depth_slots = 0;
  for (const auto& c : counts) depth_slots += c.size() + 1;
  if (!in_place) {
    tl.start_.resize(total);
    tl.end_.resize(total);
  }
  tl.frame_.resize(total);
  tl.nested_.assign((total + 63) / 64, 0);
  tl.depth_begin_.reserve(depth_slots);
  tl.change_begin_.reserve(depth_slots);
  tl.blocks_.reserve(counts.size());
  uint64_t at = 0;
  for (const auto& c : counts) {
    tl.blocks_.push_back(Block{tl.depth_begin_.size(), static_cast<uint32_t>(c.size())});
    for (uint64_t n : c) {
      tl.depth_begin_.push_back(at);
      at += n;
    }
    tl.depth_begin_.push_back(at);
  }
}

// Block by block, rank after rank; a rank's reconstruction is dropped once
// its lanes are in (so one rank's is held at a time beside the columns).
// Taking the run's columns over, a rank's calls are gathered apart and then
// written over the run's columns where its blocks begin.
void Timeline::Builder::fill_blocks(Run* run, const TimelineOptions& options) {
  const auto& profiles = selected.profiles();
  std::vector<int64_t> starts, ends;  // one rank's, taking the run's columns over
  std::size_t rank_first = 0;         // its first block
  for (std::size_t blk = 0; blk < tl.blocks_.size(); ++blk) {
    const int64_t rank = profiles[first_profile[blk]].rank;
    const uint64_t base = tl.depth_begin_[tl.blocks_[rank_first].first_depth];
    const Block& b = tl.blocks_[blk];
    if (in_place) {
      const uint64_t end = tl.depth_begin_[b.first_depth + b.depths];
      starts.resize(end - base);
      ends.resize(end - base);
      fill_block(blk, starts.data(), ends.data(), base);
    } else {
      fill_block(blk, tl.start_.data(), tl.end_.data(), 0);
    }
    if (options.progress) options.progress("index", blk + 1, tl.blocks_.size());
    const bool more = blk + 1 < tl.blocks_.size() && profiles[first_profile[blk + 1]].rank == rank;
    if (more) continue;
    selected.release_rank(rank);
    if (in_place) {  // never past this rank's own events (see the top of this file)
      std::copy(starts.begin(), starts.end(),
                run->start_ns.begin() + static_cast<std::ptrdiff_t>(base));
      std::copy(ends.begin(), ends.end(), run->end_ns.begin() + static_cast<std::ptrdiff_t>(base));
    }
    rank_first = blk + 1;
  }
  if (in_place) {
    const std::size_t total = tl.frame_.size();
    tl.start_ = std::move(run->start_ns);
    tl.end_ = std::move(run->end_ns);
    tl.start_.resize(total);
    tl.end_.resize(total);
    run->start_ns = {};
    run->end_ns = {};
  }
}

// Start, end (from the origin) and frame of each call, at its depth, and
// whether a call of its frame encloses it: the calls come in pre-order, so
// a call's ancestors are the path down to it.
// S and E receive the calls from position `base` of the columns on.
void Timeline::Builder::fill_block(std::size_t blk, int64_t* S, int64_t* E, uint64_t base) {
  const Block& b = tl.blocks_[blk];
  const NamedCalls& nc = selected.profiles()[first_profile[blk]].calls;
  std::vector<uint64_t> cursor(
      tl.depth_begin_.begin() + static_cast<std::ptrdiff_t>(b.first_depth),
      tl.depth_begin_.begin() + static_cast<std::ptrdiff_t>(b.first_depth + b.depths));
  const auto origin = static_cast<uint64_t>(tl.origin_ns_);
  auto rel = [origin](int64_t t) {
    return static_cast<int64_t>(static_cast<uint64_t>(t) - origin);
  };
  const std::vector<int64_t>& frame_of = frame_of_region;
  int32_t* F = tl.frame_.data();
  frame_total.resize(tl.frames_.size(), 0);
  frame_self.resize(tl.frames_.size(), 0);
  tl.frame_totals_.resize(tl.frames_.size());
  std::vector<int32_t> path;                            // frames of the path, by depth
  std::vector<uint32_t> on_path(tl.frames_.size(), 0);  // calls of each frame on it
  for_each_block(nc, [&](const Call* first, const Call* last) {
    for (const Call* c = first; c != last; ++c) {
      const uint32_t d = c->depth;
      const uint64_t pos = cursor[d]++;
      const auto f = static_cast<int32_t>(frame_of[c->region]);
      S[pos - base] = rel(c->start_ns);
      E[pos - base] = rel(c->end_ns);
      F[pos] = f;
      while (path.size() > d) {
        --on_path[path.back()];
        path.pop_back();
      }
      const int128 duration = int128{c->end_ns} - c->start_ns;
      ++tl.frame_totals_[f].calls;
      frame_total[f] += duration;
      frame_self[f] += duration;
      if (!path.empty()) frame_self[path.back()] -= duration;
      if (on_path[f]++ > 0) tl.nested_[pos >> 6] |= uint64_t{1} << (pos & 63);
      path.push_back(f);
    }
  });
}

// Per kChunk calls of each depth: the sum of their durations, and per frame
// present (in frame order) its calls and the covered time of those a call
// of the frame does not enclose.
void Timeline::Builder::summarize_chunks() {
  const std::size_t slots = tl.depth_begin_.size();
  std::vector<uint32_t> calls(tl.frames_.size(), 0);
  std::vector<int64_t> covered(tl.frames_.size(), 0), total(tl.frames_.size(), 0);
  std::vector<uint64_t> self(tl.frames_.size(), 0);
  std::vector<int32_t> touched;
  // Which slots have a depth below them in their block (their children's).
  std::vector<char> has_kids(slots, 0);
  for (const Block& b : tl.blocks_) {
    for (uint32_t d = 0; d + 1 < b.depths; ++d) has_kids[b.first_depth + d] = 1;
  }
  auto duration = [&](uint64_t i) {
    return static_cast<uint64_t>(tl.end_[i]) - static_cast<uint64_t>(tl.start_[i]);
  };
  tl.summary_begin_.push_back(0);
  for (std::size_t k = 0; k < slots; ++k) {
    tl.chunk_begin_.push_back(tl.summary_begin_.size() - 1);
    // A block's last slot marks its end (the next block's start): no calls.
    const uint64_t begin = tl.depth_begin_[k];
    const uint64_t stop = k + 1 < slots ? tl.depth_begin_[k + 1] : begin;
    // Each call's children (self_of's: the calls one depth down starting
    // from its start to its covered end), their durations summed as the
    // window [lo, hi) slides down the next slot.
    const uint64_t kids_begin = has_kids[k] ? tl.depth_begin_[k + 1] : 0;
    const uint64_t kids_stop = has_kids[k] ? tl.depth_begin_[k + 2] : 0;
    uint64_t lo = kids_begin, hi = kids_begin, kids_sum = 0;
    for (uint64_t at = begin; at < stop; at += kChunk) {
      const uint64_t end = std::min<uint64_t>(stop, at + kChunk);
      for (uint64_t i = at; i < end; ++i) {
        const int32_t f = tl.frame_[i];
        if (calls[f]++ == 0) touched.push_back(f);
        if (!tl.nested(i)) covered[f] += std::max<int64_t>(0, tl.end_[i] - tl.start_[i]);
        total[f] = saturating_add(total[f], std::max<int64_t>(0, tl.end_[i] - tl.start_[i]));
        uint64_t own = duration(i);
        if (has_kids[k]) {
          const int64_t from = tl.start_[i], until = covered_end(tl.start_[i], tl.end_[i]);
          while (hi < kids_stop && tl.start_[hi] < until) kids_sum += duration(hi++);
          while (lo < hi && tl.start_[lo] < from) kids_sum -= duration(lo++);
          own -= kids_sum;
        }
        self[f] += own;
      }
      uint64_t durations = 0;  // wrapping, as int64 differences do
      for (uint64_t i = at; i < end; ++i) {
        const uint64_t d = duration(i);
        durations += d;
        if (d > duration(longest_at)) longest_at = i;
      }
      tl.chunk_duration_.push_back(static_cast<int64_t>(durations));
      std::sort(touched.begin(), touched.end());
      for (int32_t f : touched) {
        tl.summary_frame_.push_back(f);
        tl.summary_calls_.push_back(calls[f]);
        tl.summary_covered_.push_back(covered[f]);
        tl.summary_total_.push_back(total[f]);
        tl.summary_self_.push_back(static_cast<int64_t>(self[f]));
        calls[f] = 0;
        covered[f] = 0;
        total[f] = 0;
        self[f] = 0;
      }
      touched.clear();
      tl.summary_begin_.push_back(tl.summary_frame_.size());
    }
  }
  tl.chunk_begin_.push_back(tl.summary_begin_.size() - 1);
}

// The frames' sums, in int64 (saturating).
void Timeline::Builder::clamp_frame_totals() {
  constexpr int128 lo = INT64_MIN, hi = INT64_MAX;
  auto clamp = [&](int128 v) { return static_cast<int64_t>(v < lo ? lo : v > hi ? hi : v); };
  for (std::size_t f = 0; f < frame_total.size(); ++f) {
    tl.frame_totals_[f].total_ns = clamp(frame_total[f]);
    tl.frame_totals_[f].self_ns = clamp(frame_self[f]);
  }
}

// Where the frame changes within each depth (counted, then written: no slack).
void Timeline::Builder::index_frame_changes() {
  std::size_t changes = 0;
  for (std::size_t k = 0; k + 1 < tl.depth_begin_.size(); ++k) {
    for (uint64_t i = tl.depth_begin_[k] + 1; i < tl.depth_begin_[k + 1]; ++i) {
      changes += tl.frame_[i] != tl.frame_[i - 1];
    }
  }
  tl.changes_.resize(changes);
  std::size_t filled = 0;
  for (const Block& b : tl.blocks_) {
    for (uint32_t d = 0; d < b.depths; ++d) {
      const std::size_t k = b.first_depth + d;
      tl.change_begin_.push_back(filled);
      const uint64_t begin = tl.depth_begin_[k];
      for (uint64_t i = begin + 1; i < tl.depth_begin_[k + 1]; ++i) {
        if (tl.frame_[i] != tl.frame_[i - 1])
          tl.changes_[filled++] = static_cast<uint32_t>(i - begin);
      }
    }
    tl.change_begin_.push_back(filled);
  }
}

// The lanes: the document's profiles.
void Timeline::Builder::describe_lanes() {
  const auto& profiles = selected.profiles();
  tl.lanes_.reserve(profiles.size());
  for (std::size_t p = 0; p < profiles.size(); ++p) {
    const Block& b = tl.blocks_[tl.lane_block_[p]];
    LaneInfo info;
    info.name = profiles[p].calls.name;
    const uint64_t first = tl.depth_begin_[b.first_depth];
    info.calls = tl.depth_begin_[b.first_depth + b.depths] - first;
    info.max_depth = b.depths - 1;
    info.start_ns = tl.start_[first];
    info.end_ns = tl.end_[tl.depth_begin_[b.first_depth + 1] - 1];  // the last root's end
    info.rank = profiles[p].rank;
    info.lane_id = profiles[p].lane_id;
    const uint64_t end = tl.depth_begin_[b.first_depth + b.depths];
    if (longest_at >= first && longest_at < end) {  // the lane showing the longest call
      uint32_t d = 0;
      while (tl.depth_begin_[b.first_depth + d + 1] <= longest_at) ++d;
      tl.longest_ =
          CallAt{p, d, static_cast<std::size_t>(longest_at - tl.depth_begin_[b.first_depth + d])};
      longest_at = UINT64_MAX;  // found
    }
    tl.lanes_.push_back(std::move(info));
  }
}

// What was opened, for giving its calls back as a run (export/): the
// options and the run without its calls, keeping what the file's export
// takes from every rank (each region's order key; the file's first start is
// the origin's, see timeline_calls_as_run), and whether every rank with
// calls of the selected regions is in.
void Timeline::Builder::describe_selection(const Run& run, const std::vector<uint32_t>& regions,
                                           const std::vector<int64_t>& ranks,
                                           const TimelineOptions& options) {
  tl.selection_.ranks = ranks;
  tl.selection_.include = options.include;
  tl.selection_.exclude = options.exclude;
  auto described = std::make_shared<Run>();
  described->path = run.path;
  described->label = run.label;
  described->schema_version = run.schema_version;
  described->storage_layout = run.storage_layout;
  described->num_ranks = run.num_ranks;
  described->threads = run.threads;
  described->tasks = run.tasks;
  described->lane_column = run.lane_column;
  described->lane_index = run.lane_index;
  described->sources_read = run.sources_read;
  for (const Region& region : run.regions) {
    described->regions.push_back(Region{region.name, {}});
    if (const SourceLocation* source = region_source(run, region)) {
      described->regions.back().source = static_cast<uint32_t>(described->sources.size());
      described->sources.push_back(*source);
    }
  }
  described->region_order_keys = region_order_keys(run);
  tl.described_ = std::move(described);
  tl.unread_ranks_ = scope_speedscope::unread_ranks(run);
  std::vector<int64_t> in = ranks;
  std::sort(in.begin(), in.end());
  tl.holds_every_rank_ = true;
  for (uint32_t region : regions) {
    for (const RankSlice& slice : run.regions[region].ranks) {
      if (slice.count > 0 && !std::binary_search(in.begin(), in.end(), slice.rank))
        tl.holds_every_rank_ = false;
    }
  }
}

}  // namespace scope_speedscope
