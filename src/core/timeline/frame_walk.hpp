// timeline (internal): one rank's calls of one frame walked in their
// numbering order (Timeline::FrameWalk), and what an aligned query walks
// (Timeline::AlignedPlan): shared by the step-by-step walk (aligned.cpp)
// and the rank-by-rank one with its steps' statistics (aligned_steps.cpp).
// A rank's calls of the frame are numbered in the merged order of its depth
// slots (start, then slot: lane, then depth); counting and stepping skip
// the chunks whose summary lacks the frame.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "timeline/search.hpp"
#include "timeline/timeline.hpp"

namespace scope_speedscope {

namespace detail {
constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
constexpr std::size_t kUnknown = kNone - 1;
}  // namespace detail

// One rank's calls of one frame, walked in their numbering order.
struct Timeline::FrameWalk {
  struct Slot {
    uint64_t begin;   // into the columns
    std::size_t n;    // calls
    uint64_t chunk0;  // its first chunk
    std::size_t pos;  // the cursor: calls before it are behind the walk
    // The frame's call after / before the cursor (detail::kNone: none), once looked for.
    std::size_t next = detail::kUnknown, prev = detail::kUnknown;
    uint64_t total = UINT64_MAX;  // the frame's calls in the slot, once counted
    void move_to(std::size_t p) noexcept {
      pos = p;
      next = prev = detail::kUnknown;
    }
  };
  const Timeline& tl;
  int32_t frame;
  std::vector<Slot> slots;

  FrameWalk(const Timeline& t, int32_t f, const std::vector<std::size_t>& blocks)
      : tl(t), frame(f) {
    for (std::size_t blk : blocks) {
      const Block& b = tl.blocks_[blk];
      for (uint32_t d = 0; d < b.depths; ++d) {
        const std::size_t k = b.first_depth + d;
        const uint64_t at = tl.depth_begin_[k];
        slots.push_back(Slot{at, static_cast<std::size_t>(tl.depth_begin_[k + 1] - at),
                             tl.chunk_begin_[k], 0, detail::kUnknown, detail::kUnknown});
      }
    }
  }
  // The frame's calls in chunk c of a slot (0 when its summary lacks it).
  uint32_t in_chunk(const Slot& s, std::size_t c) const noexcept {
    const uint64_t chunk = s.chunk0 + c;
    for (uint64_t j = tl.summary_begin_[chunk]; j < tl.summary_begin_[chunk + 1]; ++j) {
      if (tl.summary_frame_[j] == frame) return tl.summary_calls_[j];
    }
    return 0;
  }
  int64_t start(const Slot& s, std::size_t i) const noexcept { return tl.start_at(s.begin + i); }
  bool is_frame(const Slot& s, std::size_t i) const noexcept {
    return tl.frame_at(s.begin + i) == frame;
  }
  // Calls of the frame among the slot's first p.
  uint64_t count_below(const Slot& s, std::size_t p) const noexcept {
    uint64_t n = 0;
    const std::size_t whole = p / kChunk;
    for (std::size_t c = 0; c < whole; ++c) n += in_chunk(s, c);
    for (std::size_t i = whole * kChunk; i < p; ++i) n += is_frame(s, i);
    return n;
  }
  // The frame's calls in a slot (counted once: a walk asks several times).
  uint64_t total_of(Slot& s) const noexcept {
    if (s.total == UINT64_MAX) s.total = count_below(s, s.n);
    return s.total;
  }
  // Moves every cursor to the first call starting at or after t; returns
  // the frame's calls before it (its number for the next call).
  uint64_t seek(int64_t t) noexcept {
    uint64_t n = 0;
    for (Slot& s : slots) {
      s.move_to(detail::partition_index(0, s.n, [&](std::size_t i) { return start(s, i) < t; }));
      n += s.pos == s.n ? total_of(s) : count_below(s, s.pos);
    }
    return n;
  }
  uint64_t count_all() noexcept {
    uint64_t n = 0;
    for (Slot& s : slots) n += total_of(s);
    return n;
  }
  // The first call of the frame at or after i in a slot (detail::kNone: none).
  std::size_t next_in(const Slot& s, std::size_t i) const noexcept {
    while (i < s.n) {
      if (i % kChunk == 0 && in_chunk(s, i / kChunk) == 0) {
        i += kChunk;
      } else if (is_frame(s, i)) {
        return i;
      } else {
        ++i;
      }
    }
    return detail::kNone;
  }
  // The last call of the frame before i in a slot (detail::kNone: none).
  std::size_t prev_in(const Slot& s, std::size_t i) const noexcept {
    while (i > 0) {
      if (i % kChunk == 0 && in_chunk(s, i / kChunk - 1) == 0) {
        i -= kChunk;
      } else if (is_frame(s, i - 1)) {
        return i - 1;
      } else {
        --i;
      }
    }
    return detail::kNone;
  }
  // The slot whose call of the frame nearest its cursor (after it: forward;
  // before it: back) comes next that way: forward the earliest start, the
  // first slot on ties; back the latest, the last slot on ties. Its
  // position in `at`; detail::kNone when no slot has one.
  std::size_t nearest(bool forward, std::size_t& at) noexcept {
    std::size_t best = detail::kNone;
    at = 0;
    for (std::size_t k = 0; k < slots.size(); ++k) {
      Slot& s = slots[k];
      std::size_t& near = forward ? s.next : s.prev;
      if (near == detail::kUnknown) near = forward ? next_in(s, s.pos) : prev_in(s, s.pos);
      if (near == detail::kNone) continue;
      const bool first = best == detail::kNone;
      if (first || (forward ? start(s, near) < start(slots[best], at)
                            : start(s, near) >= start(slots[best], at))) {
        best = k;
        at = near;
      }
    }
    return best;
  }
  // Steps the walk back over the frame's latest call behind it.
  void step_back() noexcept {
    std::size_t at = 0;
    const std::size_t best = nearest(false, at);
    if (best != detail::kNone) slots[best].move_to(at);
  }
  // The frame's next call (its column position), the walk past it.
  uint64_t take_next() noexcept {
    std::size_t at = 0;
    const std::size_t best = nearest(true, at);
    slots[best].move_to(at + 1);
    return slots[best].begin + at;
  }
  // The slot holding every one of the frame's calls, or detail::kNone when they lie
  // in several (or none).
  std::size_t holder() noexcept {
    std::size_t found = detail::kNone;
    for (std::size_t k = 0; k < slots.size(); ++k) {
      if (total_of(slots[k]) == 0) continue;
      if (found != detail::kNone) return detail::kNone;
      found = k;
    }
    return found;
  }
  // The walk standing before the frame's call number `from` moved to stand
  // before call `to`: forward by taking, back by stepping; in a slot of
  // nothing but the frame's calls, where call k is at k, one move.
  void go_to(uint64_t from, uint64_t to) noexcept {
    if (to == from) return;
    const std::size_t h = holder();
    if (h != detail::kNone && slots[h].total == slots[h].n) {
      slots[h].move_to(static_cast<std::size_t>(to));
    } else if (to > from) {
      take(static_cast<std::size_t>(to - from), nullptr, nullptr, 0);
    } else {
      for (uint64_t k = from; k > to; --k) step_back();
    }
  }
  // Asks the caches for the columns' next lines where a take() will copy
  // (a slot of nothing but the frame's calls): a walk of many ranks a block
  // at a time reads a few kB of each in turn, too little for the hardware
  // to see a stream before it ends.
  void prefetch() noexcept {
    const std::size_t h = holder();
    if (h == detail::kNone || slots[h].total != slots[h].n || slots[h].pos >= slots[h].n) return;
    const uint64_t at = slots[h].begin + slots[h].pos;
    const char* call = reinterpret_cast<const char*>(tl.call_.data() + at);
    const char* off = reinterpret_cast<const char*>(tl.start_off_.data() + at);
    for (int line = 0; line < 8; ++line) {
      __builtin_prefetch(call + 64 * line);
      if (line % 2 == 0) __builtin_prefetch(off + 32 * line);
    }
  }
  // The frame's next n calls (there are n): their starts and ends, written
  // `stride` apart (nullptr: walked past). When one slot holds all of the
  // frame's calls (a region at one depth of one lane, the usual case) that
  // is a scan of it, not a choice among the slots a call; when the slot
  // holds nothing else, a copy.
  void take(std::size_t n, int64_t* starts, int64_t* ends, std::size_t stride) noexcept {
    const std::size_t h = holder();
    if (h == detail::kNone) {
      for (std::size_t j = 0; j < n; ++j) {
        const uint64_t c = take_next();
        if (starts == nullptr) continue;
        starts[j * stride] = tl.start_at(c);
        ends[j * stride] = tl.end_at(c);
      }
      return;
    }
    Slot& s = slots[h];
    if (s.total == s.n) {
      if (starts != nullptr) {
        // The columns' pointers held here: the writes below may not move them.
        const uint64_t from = s.begin + s.pos;
        const detail::Starts start = tl.starts();
        const int64_t* call = tl.call_.data() + from;
        for (std::size_t j = 0; j < n; ++j) {
          const auto d = static_cast<uint32_t>(static_cast<uint64_t>(call[j]));
          const int64_t at = start.at(from + j);
          starts[j * stride] = at;
          ends[j * stride] = d != detail::kLongCall
                                 ? static_cast<int64_t>(static_cast<uint64_t>(at) + d)
                                 : tl.longs_.end_of(from + j);
        }
      }
      s.move_to(s.pos + n);
      return;
    }
    std::size_t i = s.pos;
    for (std::size_t j = 0; j < n; ++j, ++i) {
      i = next_in(s, i);
      if (starts == nullptr) continue;
      starts[j * stride] = tl.start_at(s.begin + i);
      ends[j * stride] = tl.end_at(s.begin + i);
    }
    s.move_to(i);
  }
};

// An aligned query's walk: the selected ranks, each one's calls of the
// frame over the whole run, the steps below `common` whose call starts in
// the window on some rank (merged [a, b) intervals of k), and per rank its
// walk standing before step wanted.front().first.
struct Timeline::AlignedPlan {
  int32_t frame = 0;
  std::vector<int64_t> ranks;
  std::vector<uint64_t> counts;
  uint64_t common = 0;
  std::vector<std::pair<uint64_t, uint64_t>> wanted;
  uint64_t steps = 0;  // in wanted
  std::vector<FrameWalk> walks;
  uint64_t at = 0;  // the step every walk stands before

  // f(lo, hi) for consecutive parts [lo, hi) of the wanted steps, each of
  // whole blocks (but its ends) and at most kAlignedPart steps: a query's
  // steps are walked a part at a time, each part's statistics made or
  // found before it.
  template <class F>
  void parts(F&& f) const {
    if (wanted.empty()) return;
    const uint64_t last = wanted.back().second;
    for (uint64_t lo = wanted.front().first; lo < last;) {
      const uint64_t hi =
          std::min<uint64_t>(last, lo / kAlignedBlock * kAlignedBlock + kAlignedPart);
      f(lo, hi);
      lo = hi;
    }
  }
  // g(a, b) for each wanted [a, b) cut to [lo, hi), in order.
  template <class G>
  void wanted_within(uint64_t lo, uint64_t hi, G&& g) const {
    for (const auto& [a, b] : wanted) {
      const uint64_t from = std::max(a, lo), to = std::min(b, hi);
      if (from < to) g(from, to);
    }
  }
};

// The statistics of kAlignedBlock consecutive steps (see StepStats).
struct Timeline::StepBlock {
  double start_median[kAlignedBlock];
  double duration_median[kAlignedBlock];
  int64_t first_start[kAlignedBlock];
  int64_t last_end[kAlignedBlock];
};

// A part's blocks: per block number its statistics (nullptr outside the
// part), kept by the timeline or owned here.
struct Timeline::StepBlocks {
  std::vector<const StepBlock*> at;
  std::vector<std::unique_ptr<StepBlock>> owned;
  StepStats of(uint64_t k) const noexcept {
    const StepBlock& b = *at[static_cast<std::size_t>(k / kAlignedBlock)];
    const auto j = static_cast<std::size_t>(k % kAlignedBlock);
    return StepStats{b.start_median + j, b.duration_median + j, b.first_start + j, b.last_end + j};
  }
};

}  // namespace scope_speedscope
