// timeline: opening a selection as columns (see timeline.hpp). The steps:
// select as the export does; then rank after rank, in the order listed,
// reconstruct its calls, lay out one block of columns per lane and fill it,
// and drop the reconstruction (so one rank's is held at a time beside the
// columns); then number the frames in order of first appearance, index
// where the frame changes, summarise the chunks and describe the lanes.
//
// While filling, a call's frame is its region and its start counts from the
// run's first start; the frames are renumbered (when their order differs
// from the regions') and the starts moved to the timeline's origin (when it
// is not the run's first start) in one pass at the end.
//
// Opened from a run it may consume, the columns are the run's own start and
// end columns: when the selected ranks' events lie one rank after another
// in the run's columns, in the order the ranks are listed, and the selection
// is most of them, each rank's calls are gathered in timeline order and
// written back over the run's columns at the next free place, which is
// never past that rank's own events; so no second pair of columns is ever
// allocated (the peak is the file's columns plus one rank's reconstruction,
// 16 bytes a call and the summaries).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <future>
#include <map>
#include <utility>

#include "model/run.hpp"
#include "reconstruct/profiles.hpp"
#include "reconstruct/streams.hpp"
#include "select/selection.hpp"
#include "text/messages.hpp"
#include "timeline/builder.hpp"
#include "timeline/timeline.hpp"
#include "write/document_plan.hpp"

namespace scope_speedscope {

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

template <class Open>
Timeline blaming_the_file(const std::string& path, Open&& open) {
  try {
    return open();
  } catch (Error& e) {
    if (e.kind() != ErrorKind::io) e.in_file(path);  // as the export blames
    throw;
  }
}

// How the next rank's reconstruction runs: on a thread of its own when the
// build has threads (natively), else when its result is asked for.
#ifdef SCOPE_SPEEDSCOPE_THREADS
constexpr std::launch kAhead = std::launch::async;
#else
constexpr std::launch kAhead = std::launch::deferred;
#endif

// t - origin, wrapping as int64 differences do.
int64_t minus(int64_t t, uint64_t origin) {
  return static_cast<int64_t>(static_cast<uint64_t>(t) - origin);
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
  Timeline tl;
  Builder b(tl, run);
  // What reads every rank's starts comes first: the columns may be written over.
  b.describe_selection(run, regions, ranks, options);
  const std::optional<int64_t> run_first = run_origin_ns(run);
  b.run_first = run_first.value_or(0);
  const std::vector<int64_t> order = b.plan_in_place(regions, ranks, consumed != nullptr);
  b.frame_of_region.assign(run.regions.size(), -1);
  b.region_calls.assign(run.regions.size(), 0);
  b.region_total.assign(run.regions.size(), 0);
  b.region_self.assign(run.regions.size(), 0);
  // The ranks as reconstruct_profiles goes, as listed (the same errors
  // first). Built in that order too, unless the columns are taken over from
  // a run holding them in another order: then every rank is reconstructed
  // once to find its errors first, and the ranks are built in the order of
  // their events (what taking the columns over needs).
  const bool checked_first = order != b.listed;
  if (checked_first) {
    for (std::size_t k = 0; k < ranks.size(); ++k) {
      require_rank(run, ranks[k], k);
      if (std::find(ranks.begin(), ranks.begin() + static_cast<std::ptrdiff_t>(k), ranks[k]) ==
          ranks.begin() + static_cast<std::ptrdiff_t>(k))
        build_call_arrays(run, regions, ranks[k], CallStorage::indexed);
    }
  }
  // Rank j of `order` is reconstructed (after checking the ranks listed up
  // to it) while rank j - 1 is laid out: the reconstruction reads only its
  // rank's events, and laying out writes only where the ranks before it
  // were (see the top of this file), so the two never touch the same
  // events. An error comes out in the order the ranks are listed.
  std::vector<std::size_t> listed_at(order.size());  // order[j]'s first place in `ranks`
  for (std::size_t j = 0; j < order.size(); ++j) {
    listed_at[j] =
        static_cast<std::size_t>(std::find(ranks.begin(), ranks.end(), order[j]) - ranks.begin());
  }
  std::size_t checked = 0;  // ranks[0 .. checked) were required
  auto reconstruct = [&](std::size_t j) {
    if (!checked_first) {
      for (; checked <= listed_at[j]; ++checked) require_rank(run, ranks[checked], checked);
    }
    return build_call_arrays(run, regions, order[j], CallStorage::indexed);
  };
  std::map<int64_t, std::vector<LaneOf>> done;
  std::future<RankCalls> next;
  if (!order.empty()) next = std::async(kAhead, reconstruct, 0);
  for (std::size_t j = 0; j < order.size(); ++j) {
    const RankCalls calls = next.get();
    if (j + 1 < order.size()) next = std::async(kAhead, reconstruct, j + 1);
    done[order[j]] = b.add_rank(order[j], calls, consumed);
    if (options.progress) options.progress("reconstruct", j + 1, order.size());
  }
  for (; !checked_first && checked < ranks.size(); ++checked) {
    require_rank(run, ranks[checked], checked);
  }
  if (consumed != nullptr) consumed->lane = {};  // the reconstruction no longer reads it
  // A rank listed again shows the same blocks.
  for (int64_t rank : ranks) {
    const std::vector<LaneOf>& of_rank = done[rank];
    b.lanes.insert(b.lanes.end(), of_rank.begin(), of_rank.end());
  }
  if (b.lanes.empty()) throw Error(Msg::no_calls_recorded).on_field("ranks");
  b.take_columns(consumed);
  b.index_and_describe(run_first, options);
  return tl;
}

// Once every lane is laid out: the origin, the frames, the starts packed,
// the summaries and the frame changes, and the lanes described.
void Timeline::Builder::index_and_describe(const std::optional<int64_t>& run_first_start,
                                           const TimelineOptions& options) {
  tl.origin_in_run_ns_ =
      minus(first_start, static_cast<uint64_t>(run_first_start.value_or(first_start)));
  number_frames_and_move_origin();
  pack_starts();
  summarize_chunks();
  index_frame_changes();
  describe_lanes();
  if (options.progress) options.progress("index", 1, 1);
}

// The columns are the run's own (see the top of this file) when the ranks'
// events lie one rank after another in the run's columns (each rank's rows
// of the selected regions within a span of its own, the spans disjoint) and
// the selection is at least 7/8 of the run's events (what the columns hold
// beyond it is kept: at most 16 B a call / 7). Returns the order the ranks
// are built in: the order of their events then, else as first listed.
std::vector<int64_t> Timeline::Builder::plan_in_place(const std::vector<uint32_t>& regions,
                                                      const std::vector<int64_t>& ranks,
                                                      bool consume) {
  std::map<int64_t, std::pair<uint64_t, uint64_t>> span;  // rank -> [first, end) of its events
  for (int64_t r : ranks) {
    if (span.emplace(r, std::make_pair(UINT64_MAX, uint64_t{0})).second) listed.push_back(r);
  }
  uint64_t total = 0;
  for (uint32_t region : regions) {
    for (const RankSlice& slice : run.regions[region].ranks) {
      auto it = span.find(slice.rank);
      if (it == span.end() || slice.count == 0) continue;
      auto& [lo, hi] = it->second;
      lo = std::min(lo, slice.offset);
      hi = std::max(hi, slice.offset + slice.count);
      total += slice.count;
    }
  }
  std::vector<int64_t> order = listed;
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return span[a].first < span[b].first; });
  in_place = consume && total * 8 >= run.start_ns.size() * 7;
  uint64_t last = 0;
  for (int64_t r : order) {
    const auto [lo, hi] = span[r];
    if (hi == 0) continue;  // no calls
    if (lo < last) in_place = false;
    last = hi;
  }
  if (!in_place) {  // columns of their own, sized once
    tl.built_start_.reserve(total);
    tl.call_.reserve(total);
  }
  return in_place ? order : listed;
}

// One block of columns per lane of the rank (its calls grouped by depth,
// each depth in time order), filled from its reconstruction. Taking the
// run's columns over, the rank's calls are gathered apart and then written
// over the run's columns where its first block begins.
std::vector<Timeline::Builder::LaneOf> Timeline::Builder::add_rank(int64_t rank,
                                                                   const RankCalls& rc,
                                                                   Run* consumed) {
  std::vector<LaneOf> out;
  const uint64_t base = at;
  for (std::size_t l = 0; l < rc.lanes.size(); ++l) {
    const Lane& lane = rc.lanes[l];
    NamedCalls named = lane_profile(*calls_run, rc, l);
    std::vector<uint32_t> seen = see_profile(named);
    const std::vector<uint64_t> counts = depth_counts(named);
    const Block b{tl.depth_begin_.size(), static_cast<uint32_t>(counts.size())};
    for (uint64_t n : counts) {
      tl.depth_begin_.push_back(at);
      at += n;
    }
    tl.depth_begin_.push_back(at);
    tl.blocks_.push_back(b);
    if (in_place) {
      starts.resize(at - base);
      calls.resize(at - base);
      fill_block(named, b, starts.data(), base, calls.data(), base);
    } else if (packing) {  // fill_block writes every call of the block
      staged.resize(at - staged_at);
      tl.call_.resize_for_overwrite(at);
      fill_block(named, b, staged.data(), staged_at, tl.call_.data(), 0);
    } else {
      tl.built_start_.resize_for_overwrite(at);
      tl.call_.resize_for_overwrite(at);
      fill_block(named, b, tl.built_start_.data(), 0, tl.call_.data(), 0);
    }
    out.push_back(
        LaneOf{std::move(named.name), rank, lane.lane, tl.blocks_.size() - 1, std::move(seen)});
  }
  if (in_place && at > base) {  // never past this rank's own events (see the top of this file)
    std::copy(starts.begin(), starts.end(),
              consumed->start_ns.begin() + static_cast<std::ptrdiff_t>(base));
    std::copy(calls.begin(), calls.end(),
              consumed->end_ns.begin() + static_cast<std::ptrdiff_t>(base));
  }
  return out;
}

// What the document's plan takes of a profile, one profile at a time: its
// regions in order of first appearance (returned: the frames number them,
// profile after profile), and its first call (the origin is the earliest).
std::vector<uint32_t> Timeline::Builder::see_profile(const NamedCalls& nc) {
  detail::DocumentPlan one = detail::plan_document(run.regions.size(), {nc});
  const detail::DocumentPlan::Bounds& b = one.bounds.front();
  if (b.any && (!any || b.first_start_ns < first_start)) first_start = b.first_start_ns;
  any = any || b.any;
  return std::move(one.frame_regions);
}

// Start (from the run's first start), duration and region of each call, at
// its depth, and whether a call of its region encloses it: the calls come
// in pre-order, so a call's ancestors are the path down to it. S and P
// (detail::pack_call) receive the calls from positions `s_base` and
// `p_base` on.
void Timeline::Builder::fill_block(const NamedCalls& nc, const Block& b, int64_t* S,
                                   uint64_t s_base, int64_t* P, uint64_t p_base) {
  std::vector<uint64_t> cursor(
      tl.depth_begin_.begin() + static_cast<std::ptrdiff_t>(b.first_depth),
      tl.depth_begin_.begin() + static_cast<std::ptrdiff_t>(b.first_depth + b.depths));
  const auto origin = static_cast<uint64_t>(run_first);
  std::vector<uint32_t> path;                                // regions of the path, by depth
  std::vector<uint32_t> on_path(frame_of_region.size(), 0);  // calls of each region on it
  for_each_block(nc, [&](const Call* first, const Call* last) {
    for (const Call* c = first; c != last; ++c) {
      const uint32_t d = c->depth;
      const uint64_t pos = cursor[d]++;
      const uint32_t r = c->region;
      const int64_t start = minus(c->start_ns, origin), end = minus(c->end_ns, origin);
      const uint64_t length = static_cast<uint64_t>(end) - static_cast<uint64_t>(start);
      while (path.size() > d) {
        --on_path[path.back()];
        path.pop_back();
      }
      const bool nested = on_path[r]++ > 0;
      S[pos - s_base] = start;
      if (length < detail::kLongCall) {  // start + length gives the end back, wrapping
        P[pos - p_base] =
            detail::pack_call(static_cast<uint32_t>(length), static_cast<int32_t>(r), nested);
      } else {
        P[pos - p_base] = detail::pack_call(detail::kLongCall, static_cast<int32_t>(r), nested);
        longs.emplace_back(pos, end);
      }
      const int128 duration = int128{c->end_ns} - c->start_ns;
      ++region_calls[r];
      region_total[r] += duration;
      region_self[r] += duration;
      if (!path.empty()) region_self[path.back()] -= duration;
      path.push_back(r);
    }
  });
}

// The columns, taken over from the run or filled in place, and the long
// calls' table.
void Timeline::Builder::take_columns(Run* consumed) {
  if (in_place) {
    tl.built_start_ = std::move(consumed->start_ns);
    tl.call_ = std::move(consumed->end_ns);
    tl.built_start_.resize(at);
    tl.call_.resize(at);
    tl.call_.shrink_to_fit();  // the events it did not take, given back
    consumed->start_ns = {};
    consumed->end_ns = {};
  }
  starts = {};
  calls = {};
  std::sort(longs.begin(), longs.end());
  tl.longs_.at.reserve(longs.size());
  tl.longs_.end.reserve(longs.size());
  for (const auto& [pos, end] : longs) {
    tl.longs_.at.push_back(pos);
    tl.longs_.end.push_back(end);
  }
  longs = {};
}

// The frames: names, sources and sums, in order of first appearance; each
// call's region made its frame and its start counted from the origin, in
// one pass over the columns when either differs.
void Timeline::Builder::number_frames_and_move_origin() {
  for (const LaneOf& lane : lanes) {
    for (uint32_t region : lane.regions) {
      if (frame_of_region[region] >= 0) continue;
      frame_of_region[region] = static_cast<int64_t>(tl.frame_regions_.size());
      tl.frame_regions_.push_back(region);
    }
  }
  for (uint32_t region : tl.frame_regions_) {
    tl.frames_.push_back(run.regions[region].name);
    if (!run.sources_read) continue;
    const SourceLocation* source = region_source(run, run.regions[region]);
    tl.frame_sources_.push_back(source != nullptr ? *source : SourceLocation{});
  }
  constexpr int128 lo = INT64_MIN, hi = INT64_MAX;
  auto clamp = [&](int128 v) { return static_cast<int64_t>(v < lo ? lo : v > hi ? hi : v); };
  tl.frame_totals_.resize(tl.frames_.size());
  bool renumber = false;
  for (std::size_t f = 0; f < tl.frame_regions_.size(); ++f) {
    const uint32_t r = tl.frame_regions_[f];
    renumber = renumber || r != f;
    tl.frame_totals_[f].calls = region_calls[r];
    tl.frame_totals_[f].total_ns = clamp(region_total[r]);
    tl.frame_totals_[f].self_ns = clamp(region_self[r]);
  }
  tl.origin_ns_ = any ? first_start : 0;
  const uint64_t shift = static_cast<uint64_t>(tl.origin_ns_) - static_cast<uint64_t>(run_first);
  if (shift != 0) {
    if (packing) {
      shift_packed_starts(shift);
    } else {
      for (uint64_t i = 0; i < at; ++i) tl.built_start_[i] = minus(tl.built_start_[i], shift);
    }
    for (int64_t& end : tl.longs_.end) end = minus(end, shift);
  }
  if (renumber) {
    for (uint64_t i = 0; i < at; ++i) {
      const auto word = static_cast<uint64_t>(tl.call_[i]);
      const auto frame = static_cast<int32_t>(frame_of_region[detail::frame_of_word(tl.call_[i])]);
      tl.call_[i] =
          detail::pack_call(static_cast<uint32_t>(word), frame, (word & detail::kNestedBit) != 0);
    }
  }
}

// One group of m (<= kStartGroup) whole starts packed into `off`: returns
// its base, the least start, or kWideGroup when the starts span 2^32 ns or
// more (their offsets then number them in the table of whole starts).
int64_t Timeline::Builder::pack_group(const int64_t* whole, std::size_t m, uint32_t* off) {
  const int64_t lo = *std::min_element(whole, whole + m);
  const int64_t hi = *std::max_element(whole, whole + m);
  const bool wide = lo == detail::kWideGroup ||
                    static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) > UINT32_MAX;
  if (wide) {
    for (std::size_t i = 0; i < m; ++i) {
      off[i] = static_cast<uint32_t>(tl.wide_start_.size());
      tl.wide_start_.push_back(whole[i]);
    }
    return detail::kWideGroup;
  }
  for (std::size_t i = 0; i < m; ++i) {
    off[i] = static_cast<uint32_t>(static_cast<uint64_t>(whole[i]) - static_cast<uint64_t>(lo));
  }
  return lo;
}

// The starts made 32 bits from their group's least start (see
// timeline.hpp), written over the first half of the whole starts' memory,
// group after group (a group's 32-bit starts end before its whole starts
// begin, and it is read before it is written), which then gives its second
// half back: the calls take 12 bytes, never more than 16 on the way.
// Packed as the ranks were laid out (in groups), only the table of whole
// starts is trimmed.
void Timeline::Builder::pack_starts() {
  if (packing) {
    tl.wide_start_.shrink_to_fit();
    tl.start_base_.shrink_to_fit();
    return;
  }
  constexpr std::size_t G = detail::kStartGroup;
  const std::size_t n = tl.built_start_.size();
  tl.start_base_.assign((n + G - 1) / G, 0);
  auto* bytes = reinterpret_cast<unsigned char*>(tl.built_start_.data());
  int64_t whole[G];
  uint32_t off[G];
  for (std::size_t g = 0; g * G < n; ++g) {
    const std::size_t first = g * G, m = std::min(G, n - first);
    std::memcpy(whole, bytes + first * sizeof(int64_t), m * sizeof(int64_t));
    tl.start_base_[g] = pack_group(whole, m, off);
    std::memcpy(bytes + first * sizeof(uint32_t), off, m * sizeof(uint32_t));
  }
  tl.wide_start_.shrink_to_fit();
  const std::size_t held = tl.built_start_.capacity() * sizeof(int64_t);
  void* memory = tl.built_start_.release();
  if (n == 0) {
    std::free(memory);
    return;
  }
  void* shrunk = std::realloc(memory, n * sizeof(uint32_t));
  tl.start_off_ = shrunk != nullptr ? Column<uint32_t>::adopt(shrunk, n, n * sizeof(uint32_t))
                                    : Column<uint32_t>::adopt(memory, n, held);
}

// The chunk columns sized once (kChunk calls of a depth a chunk).
void Timeline::Builder::reserve_chunks() {
  const std::size_t slots = tl.depth_begin_.size();
  uint64_t chunks = 0;
  for (std::size_t k = 0; k + 1 < slots; ++k) {
    chunks += (tl.depth_begin_[k + 1] - tl.depth_begin_[k] + kChunk - 1) / kChunk;
  }
  tl.chunk_begin_.reserve(slots + 1);
  tl.chunk_duration_.reserve(chunks);
  tl.summary_begin_.reserve(chunks + 1);
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
    const auto d = static_cast<uint32_t>(static_cast<uint64_t>(tl.call_[i]));
    return d != detail::kLongCall
               ? uint64_t{d}
               : static_cast<uint64_t>(tl.longs_.end_of(i)) - static_cast<uint64_t>(tl.start_at(i));
  };
  reserve_chunks();
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
        const int32_t f = tl.frame_at(i);
        if (calls[f]++ == 0) touched.push_back(f);
        const int64_t end_i = tl.end_at(i);
        if (!tl.nested(i)) covered[f] += std::max<int64_t>(0, end_i - tl.start_at(i));
        total[f] = saturating_add(total[f], std::max<int64_t>(0, end_i - tl.start_at(i)));
        uint64_t own = duration(i);
        if (has_kids[k]) {
          const int64_t from = tl.start_at(i), until = covered_end(tl.start_at(i), end_i);
          while (hi < kids_stop && tl.start_at(hi) < until) kids_sum += duration(hi++);
          while (lo < hi && tl.start_at(lo) < from) kids_sum -= duration(lo++);
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
  // Their length was not known before: no slack kept.
  tl.summary_frame_.shrink_to_fit();
  tl.summary_calls_.shrink_to_fit();
  tl.summary_covered_.shrink_to_fit();
  tl.summary_total_.shrink_to_fit();
  tl.summary_self_.shrink_to_fit();
}

// Where the frame changes within each depth, chunk by chunk (counted, then
// written: no slack); after summarize_chunks (its chunks).
void Timeline::Builder::index_frame_changes() {
  const std::size_t slots = tl.depth_begin_.size();
  std::size_t changes = 0;
  for (std::size_t k = 0; k + 1 < slots; ++k) {
    for (uint64_t i = tl.depth_begin_[k] + 1; i < tl.depth_begin_[k + 1]; ++i) {
      changes += tl.frame_at(i) != tl.frame_at(i - 1);
    }
  }
  tl.change_low_.resize(changes);
  tl.chunk_change_.assign(tl.chunk_begin_.back() + 1, 0);
  uint64_t filled = 0;
  for (std::size_t k = 0; k + 1 < slots; ++k) {
    const uint64_t begin = tl.depth_begin_[k], n = tl.depth_begin_[k + 1] - begin;
    for (uint64_t j = 0; j * kChunk < n; ++j) {
      tl.chunk_change_[tl.chunk_begin_[k] + j] = filled;
      const uint64_t stop = std::min<uint64_t>(n, (j + 1) * kChunk);
      for (uint64_t i = std::max<uint64_t>(1, j * kChunk); i < stop; ++i) {
        if (tl.frame_at(begin + i) != tl.frame_at(begin + i - 1)) {
          tl.change_low_[filled++] = static_cast<uint8_t>(i % kChunk);
        }
      }
    }
  }
  tl.chunk_change_.back() = filled;
}

// The lanes: the document's profiles.
void Timeline::Builder::describe_lanes() {
  tl.lanes_.reserve(lanes.size());
  for (std::size_t p = 0; p < lanes.size(); ++p) {
    const LaneOf& lane = lanes[p];
    tl.lane_block_.push_back(lane.block);
    const Block& b = tl.blocks_[lane.block];
    LaneInfo info;
    info.name = lane.name;
    const uint64_t first = tl.depth_begin_[b.first_depth];
    info.calls = tl.depth_begin_[b.first_depth + b.depths] - first;
    info.max_depth = b.depths - 1;
    info.start_ns = tl.start_at(first);
    info.end_ns = tl.end_at(tl.depth_begin_[b.first_depth + 1] - 1);  // the last root's end
    info.rank = lane.rank;
    info.lane_id = lane.lane_id;
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
  auto described = std::make_shared<Run>(run_header(run));
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
  tl.unread_calls_.assign(tl.unread_ranks_.size(), 0);
  for (const Region& region : run.regions) {
    for (const RankSlice& slice : region.ranks) {
      if (slice.held) continue;
      const auto it =
          std::lower_bound(tl.unread_ranks_.begin(), tl.unread_ranks_.end(), slice.rank);
      if (it != tl.unread_ranks_.end() && *it == slice.rank)
        tl.unread_calls_[static_cast<std::size_t>(it - tl.unread_ranks_.begin())] += slice.count;
    }
  }
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
