// timeline: the run's calls as columns per lane and depth, and the three
// queries a viewer asks (bars, stack at a time, regions over a window).
#include "timeline/timeline.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "reconstruct/calls.hpp"
#include "text/messages.hpp"
#include "write/document_plan.hpp"
#include "reconstruct/profiles.hpp"
#include "select/selection.hpp"
#include "export/narrow.hpp"

namespace scope_speedscope {

namespace {

using Wide = __int128;

// The first index in [a, b) where pred is false (pred holds on a prefix).
template <class Pred>
std::size_t partition_index(std::size_t a, std::size_t b, Pred pred) {
  while (a < b) {
    const std::size_t mid = a + (b - a) / 2;
    if (pred(mid)) {
      a = mid + 1;
    } else {
      b = mid;
    }
  }
  return a;
}

// The same, searching from `a` outwards in growing steps: O(log distance).
template <class Pred>
std::size_t gallop_index(std::size_t a, std::size_t b, Pred pred) {
  std::size_t lo = a, probe = a, step = 1;
  while (probe < b && pred(probe)) {
    lo = probe + 1;
    probe = a + step;
    step <<= 1;
  }
  return partition_index(lo, std::min(probe, b), pred);
}

// The same, searching outwards from a guess in [a, b]: O(log of the
// guess's error), so a good guess touches one or two cache lines.
template <class Pred>
std::size_t gallop_from(std::size_t a, std::size_t b, std::size_t guess, Pred pred) {
  if (guess <= a) return gallop_index(a, b, pred);
  if (guess > b) guess = b;
  if (guess < b && pred(guess)) return gallop_index(guess + 1, b, pred);
  // The answer is at or before the guess: gallop back from it.
  std::size_t hi = guess, step = 1;
  while (true) {
    const std::size_t probe = hi - a > step ? hi - step : a;
    if (pred(probe)) return partition_index(probe + 1, hi, pred);
    hi = probe;
    if (probe == a) return a;
    step <<= 1;
  }
}

// The end of the time a call covers: a call that does not last covers the
// nanosecond at its start.
inline int64_t cover_end(int64_t s, int64_t e) { return e > s ? e : s + 1; }

[[noreturn]] void bad_argument(const std::string& detail) {
  throw Error(Msg::bad_argument, {{"detail", detail}});
}

void check_window(const char* what, int64_t start, int64_t end) {
  if (end <= start) {
    bad_argument(std::string(what) + ": end (" + std::to_string(end) + ") must be after start (" +
                 std::to_string(start) + ")");
  }
}

}  // namespace

void Timeline::Bars::clear() {
  start.clear();
  end.clear();
  depth.clear();
  frame.clear();
  count.clear();
}

Timeline::Slice Timeline::slice(const Block& b, uint32_t depth) const {
  const std::size_t k = b.first_depth + depth;
  const uint64_t at = depth_begin_[k];
  const uint64_t c = change_begin_[k];
  return Slice{start_.data() + at,        end_.data() + at,
               frame_.data() + at,        changes_.data() + c,
               static_cast<std::size_t>(depth_begin_[k + 1] - at),
               static_cast<std::size_t>(change_begin_[k + 1] - c)};
}

void Timeline::check_lane(std::size_t lane) const {
  if (lane >= lanes_.size()) {
    bad_argument("lane " + std::to_string(lane) + " is out of range (the timeline has " +
                 std::to_string(lanes_.size()) + " lanes)");
  }
}

Timeline::DepthView Timeline::depth_view(std::size_t lane, uint32_t depth) const {
  check_lane(lane);
  const Block& b = blocks_[lane_block_[lane]];
  if (depth >= b.depths) return DepthView{nullptr, nullptr, nullptr, nullptr, 0};
  const std::size_t k = b.first_depth + depth;
  const uint64_t at = depth_begin_[k];
  return DepthView{start_.data() + at, end_.data() + at, self_.data() + at, frame_.data() + at,
                   static_cast<std::size_t>(depth_begin_[k + 1] - at)};
}

std::size_t Timeline::memory_bytes() const {
  std::size_t n = start_.capacity() * 8 + end_.capacity() * 8 + self_.capacity() * 8 +
                  frame_.capacity() * 4 + depth_begin_.capacity() * 8 + changes_.capacity() * 4 +
                  change_begin_.capacity() * 8 + blocks_.capacity() * sizeof(Block) +
                  lane_block_.capacity() * sizeof(std::size_t) +
                  lanes_.capacity() * sizeof(LaneInfo) + frames_.capacity() * sizeof(std::string);
  for (const LaneInfo& l : lanes_) n += l.name.capacity();
  for (const std::string& f : frames_) n += f.capacity();
  return n;
}

// ---- bars ----------------------------------------------------------------------

void Timeline::bars(std::size_t lane, int64_t start, int64_t end, uint32_t width, Bars& out) const {
  check_lane(lane);
  check_window("bars", start, end);
  if (width < 1 || width > kTimelineMaxWidth) {
    bad_argument("bars: width " + std::to_string(width) + " is outside 1 to " +
                 std::to_string(kTimelineMaxWidth));
  }
  out.clear();
  const Block& b = blocks_[lane_block_[lane]];
  // A pixel is span / W ns. For whole numbers of ns x: x >= a pixel <=> x >=
  // ceil(span / W), and x < a pixel <=> x < ceil(span / W): one division per
  // query, then plain 64-bit comparisons.
  const Wide span = Wide{end} - Wide{start};
  const Wide px_wide = (span + width - 1) / width;
  const uint64_t px = static_cast<uint64_t>(px_wide);  // <= 2^63
  auto emit = [&](int64_t s, int64_t e, uint32_t depth, int32_t frame, uint64_t count) {
    out.start.push_back(s);
    out.end.push_back(e);
    out.depth.push_back(depth);
    out.frame.push_back(frame);
    out.count.push_back(static_cast<uint32_t>(count));
  };
  for (uint32_t d = 0; d < b.depths; ++d) {
    const Slice sl = slice(b, d);
    const int64_t* S = sl.s;
    const int64_t* E = sl.e;
    // Overlapping calls: covered end after the window's start, start before its end.
    const std::size_t lo =
        partition_index(0, sl.n, [&](std::size_t i) { return cover_end(S[i], E[i]) <= start; });
    const std::size_t hi = partition_index(lo, sl.n, [&](std::size_t i) { return S[i] < end; });
    if (lo >= hi) break;  // nothing deeper overlaps either
    auto lasts_a_pixel = [&](std::size_t i) {
      return static_cast<uint64_t>(E[i]) - static_cast<uint64_t>(S[i]) >= px;
    };
    // The frame changes after the current block's first call, found by a
    // cursor that only moves forward.
    const uint32_t* const changes_end = sl.changes + sl.changes_n;
    const uint32_t* change =
        std::lower_bound(sl.changes, changes_end, static_cast<uint32_t>(lo + 1));
    std::size_t advance = 1;  // calls the last jump went over: the next guess
    std::size_t i = lo;
    while (i < hi) {
      if (lasts_a_pixel(i)) {
        emit(S[i], E[i], d, sl.f[i], 1);
        ++i;
        continue;
      }
      // A block from i: absorb the following calls while they are shorter
      // than a pixel and start less than a pixel after the block's end.
      // Every call starting within a pixel of the end before the last such
      // one lies inside that pixel (so is short); only the last may be long.
      std::size_t last = i;
      int64_t block_end = E[i];
      while (last + 1 < hi) {
        // Starts before block_end + px (saturating: nothing is that late).
        const Wide reach = Wide{block_end} + px_wide;
        const bool all_near = reach > Wide{INT64_MAX};
        const int64_t limit = all_near ? INT64_MAX : static_cast<int64_t>(reach);
        auto near = [&](std::size_t k) { return all_near || S[k] < limit; };
        const std::size_t j = gallop_from(last + 1, hi, last + advance, near);  // first too far
        if (j == last + 1) break;                                              // a gap of a pixel
        advance = j - last;
        const std::size_t k = j - 1;  // the last near one
        if (lasts_a_pixel(k)) {
          last = k - 1;  // the block ends before it
          block_end = E[last];
          break;
        }
        last = k;
        block_end = E[k];
      }
      int32_t frame = sl.f[i];
      if (last > i) {  // one frame only when no change falls in (i, last]
        const auto first = static_cast<uint32_t>(i + 1);
        change = sl.changes + gallop_index(static_cast<std::size_t>(change - sl.changes), sl.changes_n,
                                           [&](std::size_t c) { return sl.changes[c] < first; });
        if (change != changes_end && *change <= last) frame = -1;
      }
      emit(S[i], E[last], d, frame, last - i + 1);
      i = last + 1;
    }
  }
}

// ---- stack at a time ---------------------------------------------------------------

std::vector<Timeline::StackEntry> Timeline::stack_at(std::size_t lane, int64_t time) const {
  check_lane(lane);
  const Block& b = blocks_[lane_block_[lane]];
  std::vector<StackEntry> out;
  for (uint32_t d = 0; d < b.depths; ++d) {
    const Slice sl = slice(b, d);
    const std::size_t after = partition_index(0, sl.n, [&](std::size_t i) { return sl.s[i] <= time; });
    if (after == 0) break;
    const std::size_t i = after - 1;
    if (cover_end(sl.s[i], sl.e[i]) <= time) break;
    const std::size_t at = static_cast<std::size_t>(sl.s - start_.data()) + i;
    out.push_back(StackEntry{sl.f[i], sl.s[i], sl.e[i], d, self_[at]});
  }
  return out;
}

// ---- regions over a window ---------------------------------------------------------

std::vector<Timeline::RegionTotal> Timeline::regions(int64_t start, int64_t end,
                                                     const std::vector<std::size_t>& lanes) const {
  check_window("regions", start, end);
  std::vector<std::size_t> chosen = lanes;
  for (std::size_t lane : chosen) check_lane(lane);
  if (chosen.empty()) {
    for (std::size_t l = 0; l < lanes_.size(); ++l) chosen.push_back(l);
  }
  std::sort(chosen.begin(), chosen.end());
  chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());

  const std::size_t F = frames_.size();
  std::vector<uint64_t> calls(F, 0);
  std::vector<int64_t> total(F, 0), self(F, 0);
  std::vector<uint32_t> open(F, 0);  // calls of the frame open on the walk's path
  auto clip = [&](int64_t s, int64_t e) {
    const int64_t a = std::max(s, start), z = std::min(e, end);
    return z > a ? z - a : int64_t{0};
  };
  struct Open {
    int32_t frame;
    int64_t clip;
    int64_t children;  // clipped lengths of its direct children
    int64_t limit;     // a call at the next depth starting before this is its child
  };
  std::vector<Open> path;
  std::vector<Slice> slices;
  std::vector<std::size_t> cur, stop;
  for (std::size_t lane : chosen) {
    const Block& b = blocks_[lane_block_[lane]];
    slices.clear();
    cur.clear();
    stop.clear();
    for (uint32_t d = 0; d < b.depths; ++d) {
      const Slice sl = slice(b, d);
      const std::size_t lo =
          partition_index(0, sl.n, [&](std::size_t i) { return cover_end(sl.s[i], sl.e[i]) <= start; });
      const std::size_t hi = partition_index(lo, sl.n, [&](std::size_t i) { return sl.s[i] < end; });
      if (lo >= hi) break;
      slices.push_back(sl);
      cur.push_back(lo);
      stop.push_back(hi);
    }
    // Depth-first over the overlapping calls, in call order: the next call
    // at the depth below the path's end is its child when it starts before
    // that call's covered end.
    path.clear();
    while (true) {
      const std::size_t d = path.size();
      if (d < slices.size() && cur[d] < stop[d]) {
        const Slice& sl = slices[d];
        const std::size_t i = cur[d];
        if (d == 0 || sl.s[i] < path.back().limit) {
          const int32_t f = sl.f[i];
          const int64_t c = clip(sl.s[i], sl.e[i]);
          ++calls[f];
          if (open[f]++ == 0) total[f] += c;  // outermost of its frame: counted once
          path.push_back(Open{f, c, 0, cover_end(sl.s[i], sl.e[i])});
          ++cur[d];
          continue;
        }
      }
      if (path.empty()) break;
      const Open o = path.back();
      path.pop_back();
      self[o.frame] += o.clip - o.children;
      --open[o.frame];
      if (!path.empty()) path.back().children += o.clip;
    }
  }
  std::vector<RegionTotal> out;
  for (std::size_t f = 0; f < F; ++f) {
    if (calls[f] > 0) out.push_back(RegionTotal{static_cast<int32_t>(f), calls[f], total[f], self[f]});
  }
  return out;
}

// ---- opening -----------------------------------------------------------------------

Timeline open_timeline(const Run& run, const TimelineOptions& options) {
  try {
    return Timeline::build(run, options);
  } catch (Error& e) {
    if (e.kind() != ErrorKind::io) e.in_file(run.path);  // as the export blames
    throw;
  }
}

Timeline Timeline::build(const Run& run, const TimelineOptions& options) {
  // The selection, as export_speedscope makes it (the same errors in the same order).
  const std::vector<int64_t> ranks = requested_ranks(options.ranks);
  const std::vector<uint32_t> regions =
      order_regions(run, selected_regions(run, options.include, options.exclude));
  SelectedProfiles selected =
      reconstruct_profiles(run, regions, ranks, CallStorage::indexed, [&](std::size_t k) {
        if (options.progress) options.progress("reconstruct", k + 1, ranks.size());
      });
  if (selected.empty()) throw Error(Msg::no_calls_recorded).on_field("ranks");
  const auto& profiles = selected.profiles();

  // Frames and origin: the document's.
  const detail::DocumentPlan plan = detail::plan_document(run.regions.size(), selected.named());
  Timeline tl;
  for (uint32_t region : plan.frame_regions) tl.frames_.push_back(run.regions[region].name);
  bool any = false;
  for (const auto& b : plan.bounds) {
    if (b.any && (!any || b.first_start_ns < tl.origin_ns_)) tl.origin_ns_ = b.first_start_ns;
    any = any || b.any;
  }
  const int64_t origin = tl.origin_ns_;
  // The run's first start is <= every start, so this does not overflow.
  tl.origin_in_run_ns_ = static_cast<int64_t>(static_cast<uint64_t>(origin) -
                                              static_cast<uint64_t>(run_origin_ns(run).value_or(origin)));
  auto rel = [origin](int64_t t) {
    return static_cast<int64_t>(static_cast<uint64_t>(t) - static_cast<uint64_t>(origin));
  };

  // One block of columns per distinct (rank, lane); its size per depth first.
  std::map<std::pair<int64_t, std::size_t>, std::size_t> block_of;
  std::vector<std::size_t> first_profile;  // block -> a profile showing it
  std::vector<std::vector<uint64_t>> depth_counts;
  uint64_t total = 0;
  for (std::size_t p = 0; p < profiles.size(); ++p) {
    const auto key = std::make_pair(profiles[p].rank, profiles[p].lane);
    auto found = block_of.find(key);
    if (found == block_of.end()) {
      found = block_of.emplace(key, first_profile.size()).first;
      first_profile.push_back(p);
      const NamedCalls& nc = profiles[p].calls;
      std::vector<uint64_t> counts;
      if (nc.stream != nullptr && nc.stream->summary().valid) {
        counts = nc.stream->summary().depth_counts;
      } else {
        for_each_block(nc, [&](const Call* b, const Call* e) {
          for (const Call* c = b; c != e; ++c) {
            if (c->depth >= counts.size()) counts.resize(c->depth + 1, 0);
            ++counts[c->depth];
          }
        });
      }
      for (uint64_t c : counts) total += c;
      depth_counts.push_back(std::move(counts));
    }
    tl.lane_block_.push_back(found->second);
  }
  std::size_t depth_slots = 0;
  for (const auto& counts : depth_counts) depth_slots += counts.size() + 1;
  tl.start_.resize(total);
  tl.end_.resize(total);
  tl.self_.resize(total);
  tl.frame_.resize(total);
  tl.depth_begin_.reserve(depth_slots);
  tl.change_begin_.reserve(depth_slots);
  tl.blocks_.reserve(depth_counts.size());
  uint64_t at = 0;
  for (const auto& counts : depth_counts) {
    tl.blocks_.push_back(Block{tl.depth_begin_.size(), static_cast<uint32_t>(counts.size())});
    for (uint64_t c : counts) {
      tl.depth_begin_.push_back(at);
      at += c;
    }
    tl.depth_begin_.push_back(at);
  }

  // Fill block by block, in the ranks' order; a rank's calls are dropped
  // once its lanes are in (so the reconstruction of one rank is held at a time
  // on top of the columns).
  std::vector<uint64_t> cursor;
  std::vector<uint64_t> open_at;  // the latest call at each depth (its position)
  for (std::size_t blk = 0; blk < tl.blocks_.size(); ++blk) {
    const Block& b = tl.blocks_[blk];
    const NamedCalls& nc = profiles[first_profile[blk]].calls;
    cursor.assign(tl.depth_begin_.begin() + static_cast<std::ptrdiff_t>(b.first_depth),
                  tl.depth_begin_.begin() + static_cast<std::ptrdiff_t>(b.first_depth + b.depths));
    open_at.assign(b.depths, 0);
    int64_t* S = tl.start_.data();
    int64_t* E = tl.end_.data();
    int64_t* self = tl.self_.data();
    int32_t* F = tl.frame_.data();
    const int64_t* frame_of = plan.frame_of_region.data();
    for_each_block(nc, [&](const Call* first, const Call* last) {
      for (const Call* c = first; c != last; ++c) {
        const uint32_t d = c->depth;
        const uint64_t pos = cursor[d]++;
        const int64_t duration = c->end_ns - c->start_ns;
        S[pos] = rel(c->start_ns);
        E[pos] = rel(c->end_ns);
        self[pos] = duration;
        F[pos] = static_cast<int32_t>(frame_of[c->region]);
        if (d > 0) self[open_at[d - 1]] -= duration;  // its parent: the latest call above
        open_at[d] = pos;
      }
    });
    if (options.progress) options.progress("index", blk + 1, tl.blocks_.size());
    // The last block of a rank: its reconstruction is no longer needed.
    const int64_t rank = profiles[first_profile[blk]].rank;
    bool more = false;
    for (std::size_t later = blk + 1; later < tl.blocks_.size() && !more; ++later) {
      more = profiles[first_profile[later]].rank == rank;
    }
    if (!more) selected.release_rank(rank);
  }

  // Where the frame changes within each depth (counted, then written: no slack).
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
        if (tl.frame_[i] != tl.frame_[i - 1]) tl.changes_[filled++] = static_cast<uint32_t>(i - begin);
      }
    }
    tl.change_begin_.push_back(filled);
  }

  // The lanes: the document's profiles.
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
    tl.lanes_.push_back(std::move(info));
  }
  return tl;
}

}  // namespace scope_speedscope
