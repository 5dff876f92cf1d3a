// compare: two runs lined up call by call. SPMD codes repeat the same
// sequence of regions, so a call of run B is matched with the call of run A
// in the lane of the same name, of the same region, and the same k: calls
// of a region in a lane numbered 0, 1, ... by start (then depth). Each of
// B's calls keeps the duration of its partner in A (4 bytes a call), and
// each 256 calls of a depth the sums of their partnered durations, so a
// block of calls drawn as one bar gets its ratio from a few sums. The same
// is kept the other way round (each of A's calls, its partner's duration in
// B), so A's bars say which calls have no partner; and a call's partner
// itself (its start, to line the runs up at it) is found on request.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compare/compare.hpp"
#include "timeline/timeline.hpp"

namespace scope_speedscope {

class AlignedRuns {
 public:
  // Both timelines opened with the same options (B's is the one drawn);
  // they must outlive this.
  AlignedRuns(const Timeline& a, const Timeline& b);
  const Timeline& a() const { return a_; }
  const Timeline& b() const { return b_; }
  // compare_regions' rows, from the timelines' frame totals.
  std::vector<RegionDelta> regions() const;
  // The same rows over [start, end) of each run (each from its own origin):
  // each run's Timeline::regions of the window joined by name as
  // compare_totals joins them (over the whole run, regions()' rows).
  std::vector<RegionDelta> regions(int64_t start, int64_t end) const;
  // Per lane of B: the lane of A of the same name, or -1.
  const std::vector<int64_t>& partner_lanes() const { return partner_lane_; }
  // The comparison's frames: B's, then A's not among them, in A's order;
  // and per frame of A its index there (what A's bars and stacks are
  // renumbered by when both runs are drawn as one timeline).
  const std::vector<std::string>& frames() const { return frames_; }
  const std::vector<int32_t>& frame_of_a() const { return frame_of_a_; }

  // B's bars (Timeline::bars) and each item's ratio: its duration over its
  // partner's (one call: B / A; a block: the sum of its calls' durations over
  // the sum of their partners', over the calls that have one), NaN without a
  // partner (a call and its partner both zero-length: 1, as fast; a block
  // whose partnered calls are all zero-length: NaN). Ratios are computed
  // from A's durations kept as float32.
  struct Bars {
    Timeline::Bars bars;
    std::vector<double> ratio;
  };
  void aligned(std::size_t lane, int64_t start, int64_t end, uint32_t width, Bars& out) const;
  // A's bars (Timeline::bars of A's `lane`) and each item's ratio the same
  // way round, B over A: its partner's duration in B over its own (a block:
  // the sums over the calls that have one), NaN without a partner in B.
  void aligned_a(std::size_t lane, int64_t start, int64_t end, uint32_t width, Bars& out) const;
  // Per lane of A: the first lane of B of the same name, or -1.
  const std::vector<int64_t>& partner_lanes_of_a() const { return partner_lane_a_; }

  // A call of one run: its lane, depth and index in that depth (time order).
  struct Call {
    std::size_t lane;
    uint32_t depth;
    std::size_t index;
  };
  // The partner of call `index` at `depth` of `lane` of run A (of_a) or B:
  // the call of the other run in the lane of the same name, of the same
  // region, with the same k (calls of the region in the lane numbered by
  // start, then depth, then index), or nothing. Work: one pass over both
  // lanes' calls. Throws Error(bad_argument) for a call the run lacks.
  std::optional<Call> partner(bool of_a, std::size_t lane, uint32_t depth, std::size_t index) const;
  // The partner's duration of call `index` at `depth` of B's `lane` (NaN: none).
  float partner_duration(std::size_t lane, uint32_t depth, std::size_t index) const;

  std::size_t memory_bytes() const;

 private:
  static constexpr std::size_t kChunk = 256;
  struct Depth {
    std::vector<float> partner;     // the other run's duration of each call's partner, NaN: none
    std::vector<double> chunk_own;  // per kChunk calls: the durations of the partnered ones
    std::vector<double> chunk_partner;  // ... and their partners'
  };
  static void line_up(const Timeline& own, std::size_t lane, const Timeline& other,
                      std::size_t other_lane, std::vector<Depth>& out);
  static double block_ratio(const Depth& d, const Timeline::DepthView& v, std::size_t first,
                            std::size_t count);
  // Each item of `out.bars` (of `own`'s `lane`) its own duration over its
  // partner's; inverted: the partner's over its own.
  static void ratios(const Timeline& own, std::size_t lane, const std::vector<Depth>& data,
                     bool inverted, Bars& out);

  const Timeline& a_;
  const Timeline& b_;
  std::vector<int64_t> partner_lane_;
  std::vector<std::string> frames_;
  std::vector<int32_t> frame_of_a_;
  std::vector<std::size_t>
      data_of_lane_;  // lane of B -> its entry in data_ (lanes shown twice share)
  std::vector<std::vector<Depth>> data_;
  std::vector<int64_t> partner_lane_a_;
  std::vector<std::vector<Depth>> data_a_;  // per lane of A
};

}  // namespace scope_speedscope
