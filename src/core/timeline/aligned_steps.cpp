// timeline: what every rank's call at a step of a frame shares (the
// medians of their starts and durations, the earliest start and latest
// end), made once a block of steps and kept; and the aligned calls visited
// rank by rank with them (visit_aligned_ranks; see timeline.hpp).
#include <algorithm>
#include <atomic>
#include <future>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "timeline/checks.hpp"
#include "timeline/frame_walk.hpp"
#include "timeline/timeline.hpp"

namespace scope_speedscope {

// Per frame, per block of steps: its statistics once made and kept. Blocks
// are made under the lock and never change after, so their pointers are
// read without it. What is kept is bounded (budget: a 32nd of the
// timeline's own bytes, 0.4 bytes a call, or 1 MiB: 32 blocks); beyond, a
// query's blocks are its own, a part at a time.
struct Timeline::StepCache {
  std::mutex m;
  std::map<int32_t, std::vector<std::unique_ptr<StepBlock>>> frames;
  std::size_t bytes = 0, budget = 0;
};

namespace {

constexpr std::size_t kBlock = Timeline::kAlignedBlock;

// How many threads share a walk of `entries` calls: natively the machine's
// cores (a few), when there is enough to share.
std::size_t parts_for(std::size_t entries, std::size_t items) {
#ifdef SCOPE_SPEEDSCOPE_THREADS
  if (entries < (std::size_t{1} << 16)) return 1;
  const std::size_t cores = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 8);
  return std::max<std::size_t>(1, std::min(cores, items));
#else
  (void)entries;
  (void)items;
  return 1;
#endif
}

// Runs f(begin, end) over `parts` consecutive parts of [0, n), the first
// on this thread, the others on threads of their own.
template <class F>
void in_parts(std::size_t n, std::size_t parts, F&& f) {
#ifdef SCOPE_SPEEDSCOPE_THREADS
  std::vector<std::future<void>> others;
  for (std::size_t p = 1; p < parts; ++p) {
    others.push_back(std::async(std::launch::async,
                                [&f, n, parts, p] { f(n * p / parts, n * (p + 1) / parts); }));
  }
  f(0, n / parts);
  for (auto& o : others) o.get();
#else
  (void)parts;
  f(0, n);
#endif
}

// The block's steps made from the walks standing before its first step
// (k0): its n calls on each rank written `stride` apart (stride > R, so
// that the ranks' writes do not all fall in one set of the caches), then
// per step its medians, earliest start and latest end. (A template only
// to name the timeline's private FrameWalk and StepBlock.)
template <class Walk, class Block>
void make_block(std::vector<Walk>& walks, std::size_t n, std::size_t stride,
                std::vector<int64_t>& columns, std::vector<int64_t>& scratch, Block& out) {
  const std::size_t R = walks.size();
  int64_t* starts = columns.data();
  int64_t* ends = starts + kBlock * stride;
  for (std::size_t r = 0; r < R; ++r) {
    if (r + 2 < R) walks[r + 2].prefetch();
    walks[r].take(n, starts + r, ends + r, stride);
  }
  for (std::size_t j = 0; j < n; ++j) {
    const int64_t* s = starts + j * stride;
    const int64_t* e = ends + j * stride;
    int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
    for (std::size_t r = 0; r < R; ++r) {
      lo = std::min(lo, s[r]);
      hi = std::max(hi, e[r]);
    }
    out.first_start[j] = lo;
    out.last_end[j] = hi;
    std::copy(s, s + R, scratch.data());
    out.start_median[j] = detail::median_of(scratch.data(), R);
    for (std::size_t r = 0; r < R; ++r) scratch[r] = e[r] - s[r];
    out.duration_median[j] = detail::median_of(scratch.data(), R);
  }
}

}  // namespace

std::shared_ptr<Timeline::StepCache> Timeline::step_cache() const {
  std::shared_ptr<StepCache> cache = std::atomic_load(&step_cache_);
  if (!cache) {
    auto made = std::make_shared<StepCache>();
    made->budget = std::max<std::size_t>(memory_bytes() / 32, std::size_t{1} << 20);
    std::atomic_compare_exchange_strong(&step_cache_, &cache, made);
    cache = std::atomic_load(&step_cache_);
  }
  return cache;
}

// The part's missing blocks are made in parts (one a thread), each from
// copies of the plan's walks moved to its first block.
Timeline::StepBlocks Timeline::step_blocks(const AlignedPlan& plan, uint64_t lo,
                                           uint64_t hi) const {
  const std::shared_ptr<StepCache> cache = step_cache();
  std::lock_guard<std::mutex> lock(cache->m);
  auto& kept = cache->frames[plan.frame];
  kept.resize(static_cast<std::size_t>((plan.common + kBlock - 1) / kBlock));
  StepBlocks out;
  out.at.resize(kept.size());
  std::vector<std::size_t> missing;
  plan.wanted_within(lo, hi, [&](uint64_t a, uint64_t b) {
    for (uint64_t blk = a / kBlock; blk * kBlock < b; ++blk) {
      const auto i = static_cast<std::size_t>(blk);
      out.at[i] = kept[i].get();
      if (!kept[i] && (missing.empty() || missing.back() != i)) missing.push_back(i);
    }
  });
  if (missing.empty()) return out;
  std::vector<std::unique_ptr<StepBlock>> made(missing.size());
  for (auto& b : made) b = std::make_unique<StepBlock>();
  const std::size_t R = plan.walks.size(), stride = R + 8;
  const std::size_t parts = parts_for(missing.size() * kBlock * R, missing.size());
  in_parts(missing.size(), parts, [&](std::size_t from, std::size_t to) {
    if (from == to) return;
    std::vector<FrameWalk> walks = plan.walks;
    uint64_t at = plan.at;
    std::vector<int64_t> columns(2 * kBlock * stride), scratch(R);
    for (std::size_t m = from; m < to; ++m) {
      const uint64_t k0 = missing[m] * kBlock;
      const auto n = static_cast<std::size_t>(std::min<uint64_t>(kBlock, plan.common - k0));
      for (FrameWalk& w : walks) w.go_to(at, k0);
      make_block(walks, n, stride, columns, scratch, *made[m]);
      at = k0 + n;
    }
  });
  const bool keep = cache->bytes + made.size() * sizeof(StepBlock) <= cache->budget;
  for (std::size_t m = 0; m < missing.size(); ++m) {
    out.at[missing[m]] = made[m].get();
    if (keep) {
      kept[missing[m]] = std::move(made[m]);
      cache->bytes += sizeof(StepBlock);
    } else {
      out.owned.push_back(std::move(made[m]));
    }
  }
  return out;
}

uint64_t Timeline::prepare_aligned(uint64_t max_entries) const {
  uint64_t made = 0;
  const int64_t end = run_end_ns();
  for (int32_t f = 0; f < static_cast<int32_t>(frames_.size()); ++f) {
    AlignedPlan plan = plan_aligned(f, std::numeric_limits<int64_t>::min(), end);
    const uint64_t entries = plan.steps * plan.ranks.size();
    if (plan.wanted.empty() || entries > max_entries) continue;
    {
      const std::shared_ptr<StepCache> cache = step_cache();
      std::lock_guard<std::mutex> lock(cache->m);
      const uint64_t bytes = (plan.common + kBlock - 1) / kBlock * sizeof(StepBlock);
      if (cache->bytes + bytes > cache->budget) continue;  // they would not be kept
    }
    plan.parts([&](uint64_t lo, uint64_t hi) {
      step_blocks(plan, lo, hi);
      for (FrameWalk& w : plan.walks) w.go_to(plan.at, hi);
      plan.at = hi;
    });
    made += entries;
  }
  return made;
}

// Each rank's walk over a part's steps, a block of steps at a time into
// columns of its own; the ranks in parts, one a thread.
void Timeline::visit_aligned_ranks(int32_t frame, int64_t start, int64_t end,
                                   RankVisitor& visitor) const {
  AlignedPlan plan = plan_aligned(frame, start, end);
  visitor.begin(AlignedHead{plan.ranks, plan.counts, plan.common, plan.steps});
  const std::size_t R = plan.ranks.size();
  uint64_t j_lo = 0;  // the answer's steps before the part
  plan.parts([&](uint64_t lo, uint64_t hi) {
    const StepBlocks stats = step_blocks(plan, lo, hi);
    uint64_t at_end = plan.at, steps = 0;
    plan.wanted_within(lo, hi, [&](uint64_t a, uint64_t b) {
      steps += b - a;
      at_end = b;
    });
    in_parts(R, parts_for(steps * R, R), [&](std::size_t from, std::size_t to) {
      std::vector<int64_t> columns(2 * kBlock);
      int64_t* starts = columns.data();
      int64_t* ends = starts + kBlock;
      for (std::size_t r = from; r < to; ++r) {
        FrameWalk& w = plan.walks[r];
        uint64_t walked = plan.at, j = j_lo;
        plan.wanted_within(lo, hi, [&](uint64_t a, uint64_t b) {
          w.go_to(walked, a);
          for (uint64_t k = a; k < b;) {
            const auto n =
                static_cast<std::size_t>(std::min<uint64_t>(b, (k / kBlock + 1) * kBlock) - k);
            w.take(n, starts, ends, 1);
            visitor.calls(r, j, k, n, starts, ends, stats.of(k));
            k += n;
            j += n;
          }
          walked = b;
        });
      }
    });
    plan.at = at_end;
    j_lo += steps;
  });
}

}  // namespace scope_speedscope
