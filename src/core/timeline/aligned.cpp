// timeline: the k-th call of a frame on each rank, lined up (aligned_calls;
// see timeline.hpp). A rank's calls of the frame are numbered in the merged
// order of its depth slots (start, then slot: lane, then depth); counting
// and stepping skip the chunks whose summary lacks the frame.
#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "timeline/checks.hpp"
#include "timeline/search.hpp"
#include "timeline/timeline.hpp"

namespace scope_speedscope {

namespace {

constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
constexpr std::size_t kUnknown = kNone - 1;

// [a, b) intervals of k, merged where they touch.
std::vector<std::pair<uint64_t, uint64_t>> merged(std::vector<std::pair<uint64_t, uint64_t>> v) {
  std::sort(v.begin(), v.end());
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (const auto& [a, b] : v) {
    if (a >= b) continue;
    if (!out.empty() && a <= out.back().second) {
      out.back().second = std::max(out.back().second, b);
    } else {
      out.emplace_back(a, b);
    }
  }
  return out;
}

}  // namespace

// One rank's calls of one frame, walked in their numbering order.
struct Timeline::FrameWalk {
  struct Slot {
    uint64_t begin;   // into the columns
    std::size_t n;    // calls
    uint64_t chunk0;  // its first chunk
    std::size_t pos;  // the cursor: calls before it are behind the walk
    // The frame's call after / before the cursor (kNone: none), once looked for.
    std::size_t next = kUnknown, prev = kUnknown;
    uint64_t total = UINT64_MAX;  // the frame's calls in the slot, once counted
    void move_to(std::size_t p) noexcept {
      pos = p;
      next = prev = kUnknown;
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
                             tl.chunk_begin_[k], 0, kUnknown, kUnknown});
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
  int64_t start(const Slot& s, std::size_t i) const noexcept { return tl.start_[s.begin + i]; }
  bool is_frame(const Slot& s, std::size_t i) const noexcept {
    return tl.frame_[s.begin + i] == frame;
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
  // The first call of the frame at or after i in a slot (kNone: none).
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
    return kNone;
  }
  // The last call of the frame before i in a slot (kNone: none).
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
    return kNone;
  }
  // Steps the walk back over the frame's latest call behind it.
  void step_back() noexcept {
    std::size_t best = kNone, at = 0;
    for (std::size_t k = 0; k < slots.size(); ++k) {
      Slot& s = slots[k];
      if (s.prev == kUnknown) s.prev = prev_in(s, s.pos);
      if (s.prev != kNone && (best == kNone || start(s, s.prev) >= start(slots[best], at))) {
        best = k;
        at = s.prev;
      }
    }
    if (best != kNone) slots[best].move_to(at);
  }
  // The frame's next call (its column position), the walk past it.
  uint64_t take_next() noexcept {
    std::size_t best = kNone, at = 0;
    for (std::size_t k = 0; k < slots.size(); ++k) {
      Slot& s = slots[k];
      if (s.next == kUnknown) s.next = next_in(s, s.pos);
      if (s.next != kNone && (best == kNone || start(s, s.next) < start(slots[best], at))) {
        best = k;
        at = s.next;
      }
    }
    slots[best].move_to(at + 1);
    return slots[best].begin + at;
  }
  // The frame's next n calls (there are n): their starts and durations.
  // When one slot holds all of the frame's calls (a region at one depth of
  // one lane, the usual case) that is a scan of it, not a choice among the
  // slots a call.
  void take(std::size_t n, int64_t* starts, int64_t* durations) noexcept {
    std::size_t holder = kNone;
    for (std::size_t k = 0; k < slots.size(); ++k) {
      if (total_of(slots[k]) == 0) continue;
      if (holder != kNone) {
        holder = kNone;  // more than one: choose call by call
        break;
      }
      holder = k;
    }
    if (holder == kNone) {
      for (std::size_t j = 0; j < n; ++j) {
        const uint64_t c = take_next();
        starts[j] = tl.start_[c];
        durations[j] = tl.end_[c] - tl.start_[c];
      }
      return;
    }
    Slot& s = slots[holder];
    std::size_t i = s.pos;
    for (std::size_t j = 0; j < n; ++j, ++i) {
      i = next_in(s, i);
      starts[j] = tl.start_[s.begin + i];
      durations[j] = tl.end_[s.begin + i] - tl.start_[s.begin + i];
    }
    s.move_to(i);
  }
};

// The entries of each wanted k, from the starts and durations of every
// rank's calls k0 .. k1 - 1 (rank after rank). The columns are sized once
// and written through pointers, and nothing in the loop can throw: in
// WebAssembly each call that may throw inside a function with cleanups
// goes out to JavaScript and back (the loop was three times slower so).
void Timeline::fill_aligned(AlignedCalls& out,
                            const std::vector<std::pair<uint64_t, uint64_t>>& wanted, uint64_t k0,
                            uint64_t k1) const {
  const std::vector<int64_t>& at_start = out.scratch_start;
  const std::vector<int64_t>& at_duration = out.scratch_duration;
  const std::size_t R = out.ranks.size();
  std::size_t n = 0;
  for (const auto& [a, b] : wanted) n += static_cast<std::size_t>(b - a) * R;
  out.k.resize(n);
  for (auto* v : {&out.rank, &out.start_ns, &out.end_ns}) v->resize(n);
  for (auto* v : {&out.lateness_ns, &out.excess_ns}) v->resize(n);
  // The working columns hold rank after rank; the entries go k after k.
  // Read them a tile of kTile consecutive k at a time (one short run per
  // rank), not one value of every rank per k (a stream per rank, 128 at
  // 64 ranks, which the caches could not follow). 32 values are 256 bytes:
  // Emscripten's memcpy hands 512 bytes and more to JavaScript.
  constexpr std::size_t kTile = 32;
  std::vector<int64_t> scratch(2 * R + 2 * R * kTile);
  uint64_t* k_at = out.k.data();
  int64_t* rank_at = out.rank.data();
  int64_t* start_at = out.start_ns.data();
  int64_t* end_at = out.end_ns.data();
  double* lateness_at = out.lateness_ns.data();
  double* excess_at = out.excess_ns.data();
  const int64_t* ranks = out.ranks.data();
  int64_t* starts = scratch.data();
  int64_t* durations = starts + R;
  int64_t* tile_start = durations + R;  // [r * kTile + j]
  int64_t* tile_duration = tile_start + R * kTile;
  const uint64_t per_rank = k1 - k0;
  for (const auto& [a, b] : wanted) {
    for (uint64_t k = a; k < b; k += kTile) {
      const auto tile = static_cast<std::size_t>(std::min<uint64_t>(kTile, b - k));
      for (std::size_t r = 0; r < R; ++r) {
        const std::size_t from = r * per_rank + (k - k0);
        std::copy_n(at_start.data() + from, tile, tile_start + r * kTile);
        std::copy_n(at_duration.data() + from, tile, tile_duration + r * kTile);
      }
      for (std::size_t j = 0; j < tile; ++j) {
        for (std::size_t r = 0; r < R; ++r) {
          starts[r] = start_at[r] = tile_start[r * kTile + j];
          durations[r] = tile_duration[r * kTile + j];
          end_at[r] = start_at[r] + durations[r];
        }
        const double start_median = detail::median_of(starts, R);
        const double duration_median = detail::median_of(durations, R);
        for (std::size_t r = 0; r < R; ++r) {
          k_at[r] = k + j;
          rank_at[r] = ranks[r];
          lateness_at[r] = static_cast<double>(start_at[r]) - start_median;
          excess_at[r] = static_cast<double>(end_at[r] - start_at[r]) - duration_median;
        }
        k_at += R;
        rank_at += R;
        start_at += R;
        end_at += R;
        lateness_at += R;
        excess_at += R;
      }
    }
  }
}

Timeline::AlignedCalls Timeline::aligned_calls(int32_t frame, int64_t start, int64_t end) const {
  AlignedCalls out;
  aligned_calls(frame, start, end, out);
  out.scratch_start = {};
  out.scratch_duration = {};
  return out;
}

void Timeline::aligned_calls(int32_t frame, int64_t start, int64_t end, AlignedCalls& out) const {
  for (auto* v : {&out.ranks, &out.rank, &out.start_ns, &out.end_ns}) v->clear();
  for (auto* v : {&out.lateness_ns, &out.excess_ns}) v->clear();
  out.counts.clear();
  out.k.clear();
  out.common = 0;
  detail::check_window("alignedCalls", start, end);
  if (frame < 0 || static_cast<std::size_t>(frame) >= frames_.size()) {
    detail::bad_argument("alignedCalls: frame " + std::to_string(frame) +
                         " is out of range (the timeline has " + std::to_string(frames_.size()) +
                         " frames)");
  }
  out.ranks = ranks();
  const std::size_t R = out.ranks.size();
  std::vector<FrameWalk> walks;
  std::vector<uint64_t> first(R);  // per rank: the number of its first call in the window
  std::vector<std::pair<uint64_t, uint64_t>> ks;
  for (const auto& blocks : rank_blocks()) walks.emplace_back(*this, frame, blocks);
  for (std::size_t r = 0; r < R; ++r) {
    out.counts.push_back(walks[r].count_all());
    const uint64_t after = walks[r].seek(end);
    first[r] = walks[r].seek(start);
    ks.emplace_back(first[r], after);
  }
  out.common = R == 0 ? 0 : *std::min_element(out.counts.begin(), out.counts.end());
  for (auto& k : ks) k.second = std::min(k.second, out.common);
  const auto wanted = merged(ks);
  if (wanted.empty()) return;
  const uint64_t k0 = wanted.front().first, k1 = wanted.back().second;
  // Per rank, the starts and durations of its calls k0 .. k1 - 1, rank after
  // rank, read as the walk passes them (the columns are read in order, not
  // k by k across the ranks: at 100 M calls that is a cache miss an entry).
  std::vector<int64_t>& at_start = out.scratch_start;
  std::vector<int64_t>& at_duration = out.scratch_duration;
  at_start.resize(R * (k1 - k0));
  at_duration.resize(R * (k1 - k0));
  for (std::size_t r = 0; r < R; ++r) {
    FrameWalk& w = walks[r];  // its cursors at `start`, before call first[r]
    uint64_t k = first[r];
    for (; k > k0; --k) w.step_back();
    for (; k < k0; ++k) w.take_next();
    const std::size_t at = r * (k1 - k0);
    w.take(static_cast<std::size_t>(k1 - k0), at_start.data() + at, at_duration.data() + at);
  }
  fill_aligned(out, wanted, k0, k1);
}

}  // namespace scope_speedscope
