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
  // The slot holding every one of the frame's calls, or kNone when they lie
  // in several (or none).
  std::size_t holder() noexcept {
    std::size_t found = kNone;
    for (std::size_t k = 0; k < slots.size(); ++k) {
      if (total_of(slots[k]) == 0) continue;
      if (found != kNone) return kNone;
      found = k;
    }
    return found;
  }
  // The frame's next n calls (there are n): their starts and ends, written
  // `stride` apart (nullptr: walked past). When one slot holds all of the
  // frame's calls (a region at one depth of one lane, the usual case) that
  // is a scan of it, not a choice among the slots a call; when the slot
  // holds nothing else, a copy.
  void take(std::size_t n, int64_t* starts, int64_t* ends, std::size_t stride) noexcept {
    const std::size_t h = holder();
    if (h == kNone) {
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

namespace {

// aligned_calls' visitor: the steps written into an answer's columns, each
// sized once and written through pointers (the walk's loop calls nothing
// that can throw: in WebAssembly each call that may throw inside a
// function with cleanups goes out to JavaScript and back).
class ColumnsWriter final : public Timeline::AlignedVisitor {
 public:
  explicit ColumnsWriter(Timeline::AlignedCalls& out) : out_(out) {}
  void begin(const Timeline::AlignedHead& head) override {
    out_.ranks = head.ranks;
    out_.counts = head.counts;
    out_.common = head.common;
    rows_ = head.ranks.size();
    const std::size_t n = static_cast<std::size_t>(head.steps) * rows_;
    out_.k.resize(n);
    for (auto* v : {&out_.rank, &out_.start_ns, &out_.end_ns}) v->resize(n);
    for (auto* v : {&out_.lateness_ns, &out_.excess_ns}) v->resize(n);
    at_ = 0;
  }
  void steps(uint64_t k0, std::size_t n, const int64_t* start, const int64_t* end,
             const double* lateness, const double* excess) noexcept override {
    const int64_t* ranks = out_.ranks.data();
    const std::size_t entries = n * rows_;
    uint64_t* k_at = out_.k.data() + at_;
    int64_t* rank_at = out_.rank.data() + at_;
    for (std::size_t j = 0; j < n; ++j) {
      for (std::size_t r = 0; r < rows_; ++r) {
        k_at[j * rows_ + r] = k0 + j;
        rank_at[j * rows_ + r] = ranks[r];
      }
    }
    std::copy(start, start + entries, out_.start_ns.data() + at_);
    std::copy(end, end + entries, out_.end_ns.data() + at_);
    std::copy(lateness, lateness + entries, out_.lateness_ns.data() + at_);
    std::copy(excess, excess + entries, out_.excess_ns.data() + at_);
    at_ += entries;
  }

 private:
  Timeline::AlignedCalls& out_;
  std::size_t rows_ = 0, at_ = 0;
};

}  // namespace

// Each wanted k, every rank's walk standing before its call k0 (the first
// wanted). The walks write each block of kBlock consecutive k into block
// columns, rank after rank (a rank's calls `R` apart, 1 MB at 64 ranks),
// which are still in the caches when the steps' medians are taken and the
// visitor reads them, a block at a time. Nothing in the loop can throw (see
// ColumnsWriter).
void Timeline::walk_aligned(std::vector<FrameWalk>& walks,
                            const std::vector<std::pair<uint64_t, uint64_t>>& wanted, std::size_t R,
                            AlignedVisitor& visitor) const {
  constexpr std::size_t kBlock = 1024;
  // The visitor gets `part` steps at a time: about 4,096 entries, whose
  // lateness and excess (64 kB) stay in the nearest cache between the
  // medians and the visitor; one call a block for a single rank.
  const std::size_t part = std::clamp<std::size_t>(4096 / std::max<std::size_t>(R, 1), 1, kBlock);
  std::vector<int64_t> block_columns(2 * kBlock * R), scratch(2 * R);
  std::vector<double> rows(2 * part * R);
  int64_t* starts = block_columns.data();
  int64_t* ends = starts + kBlock * R;
  int64_t* by_start = scratch.data();
  int64_t* by_duration = by_start + R;
  double* lateness = rows.data();
  double* excess = lateness + part * R;
  const bool late_wanted = visitor.reads_lateness(), excess_wanted = visitor.reads_excess();
  uint64_t walked = wanted.front().first;  // the walks stand before this k
  for (const auto& [a, b] : wanted) {
    for (FrameWalk& w : walks) w.take(static_cast<std::size_t>(a - walked), nullptr, nullptr, 0);
    for (uint64_t k = a; k < b; k += kBlock) {
      const auto block = static_cast<std::size_t>(std::min<uint64_t>(kBlock, b - k));
      for (std::size_t r = 0; r < R; ++r) walks[r].take(block, starts + r, ends + r, R);
      for (std::size_t j0 = 0; j0 < block; j0 += part) {
        const std::size_t n = std::min(part, block - j0);
        if (R == 1) {
          // One rank: each step's medians are its own call's start and
          // duration, so its lateness and excess are 0.
          std::fill(lateness, lateness + n, 0.0);
          std::fill(excess, excess + n, 0.0);
        } else {
          for (std::size_t j = 0; j < n; ++j) {
            const int64_t* s = starts + (j0 + j) * R;
            const int64_t* e = ends + (j0 + j) * R;
            if (late_wanted) {
              std::copy(s, s + R, by_start);
              const double start_median = detail::median_of(by_start, R);
              double* late = lateness + j * R;
              for (std::size_t r = 0; r < R; ++r)
                late[r] = static_cast<double>(s[r]) - start_median;
            }
            if (excess_wanted) {
              for (std::size_t r = 0; r < R; ++r) by_duration[r] = e[r] - s[r];
              const double duration_median = detail::median_of(by_duration, R);
              double* more = excess + j * R;
              for (std::size_t r = 0; r < R; ++r) {
                more[r] = static_cast<double>(e[r] - s[r]) - duration_median;
              }
            }
          }
        }
        visitor.steps(k + j0, n, starts + j0 * R, ends + j0 * R, lateness, excess);
      }
    }
    walked = b;
  }
}

Timeline::AlignedCalls Timeline::aligned_calls(int32_t frame, int64_t start, int64_t end) const {
  AlignedCalls out;
  aligned_calls(frame, start, end, out);
  return out;
}

// The entry columns keep their length until the writer's begin sets the
// new one: a column cleared and then resized to 2.7 M entries would first
// be written with zeros (in WebAssembly by a loop as long as the query).
void Timeline::aligned_calls(int32_t frame, int64_t start, int64_t end, AlignedCalls& out) const {
  try {
    ColumnsWriter writer(out);
    visit_aligned(frame, start, end, writer);
  } catch (...) {
    out.k.clear();
    for (auto* v : {&out.rank, &out.start_ns, &out.end_ns}) v->clear();
    for (auto* v : {&out.lateness_ns, &out.excess_ns}) v->clear();
    out.ranks.clear();
    out.counts.clear();
    out.common = 0;
    throw;
  }
}

void Timeline::visit_aligned(int32_t frame, int64_t start, int64_t end,
                             AlignedVisitor& visitor) const {
  detail::check_window("alignedCalls", start, end);
  if (frame < 0 || static_cast<std::size_t>(frame) >= frames_.size()) {
    detail::bad_argument("alignedCalls: frame " + std::to_string(frame) +
                         " is out of range (the timeline has " + std::to_string(frames_.size()) +
                         " frames)");
  }
  const std::vector<int64_t> rank_list = ranks();
  const std::size_t R = rank_list.size();
  std::vector<uint64_t> counts;
  std::vector<FrameWalk> walks;
  std::vector<uint64_t> first(R);  // per rank: the number of its first call in the window
  std::vector<std::pair<uint64_t, uint64_t>> ks;
  for (const auto& blocks : rank_blocks()) walks.emplace_back(*this, frame, blocks);
  for (std::size_t r = 0; r < R; ++r) {
    counts.push_back(walks[r].count_all());
    const uint64_t after = walks[r].seek(end);
    first[r] = walks[r].seek(start);
    ks.emplace_back(first[r], after);
  }
  const uint64_t common = R == 0 ? 0 : *std::min_element(counts.begin(), counts.end());
  for (auto& k : ks) k.second = std::min(k.second, common);
  const auto wanted = merged(ks);
  uint64_t steps = 0;
  for (const auto& [a, b] : wanted) steps += b - a;
  visitor.begin(AlignedHead{rank_list, counts, common, steps});
  if (wanted.empty()) return;
  for (std::size_t r = 0; r < R; ++r) {
    FrameWalk& w = walks[r];  // its cursors at `start`, before call first[r]
    uint64_t k = first[r];
    for (; k > wanted.front().first; --k) w.step_back();
    w.take(static_cast<std::size_t>(wanted.front().first - k), nullptr, nullptr, 0);
  }
  walk_aligned(walks, wanted, R, visitor);
}

}  // namespace scope_speedscope
