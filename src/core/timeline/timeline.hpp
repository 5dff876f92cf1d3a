// timeline: a run's calls as columns for a viewer (ours; scope-profiler has no
// such stage). A stage beside the writer, fed by the same reconstruction: the
// lanes are exactly the profiles of the speedscope document the same options
// write (order and names), the frames its shared.frames, and times integer
// nanoseconds from its origin (the earliest first call of the lanes shown).
// Queries answer one window at one resolution; their work depends on the pixels
// and the depth, not on the number of calls.
//
// Layout: per distinct lane (a rank listed twice shares its columns), the calls
// grouped by depth, each depth in time order, 12 bytes a call in two columns:
// its start, 32 bits from the least start of its group (256 consecutive
// positions of the columns, 8 bytes a group), and one word of 8 bytes holding
// its duration (32 bits) beside its frame (31 bits) and a bit saying whether a
// call of its frame encloses it (not counted in covered time: the outermost one
// is). A group whose starts span 2^32 ns (4.29 s) or more keeps them whole in a
// table of its own (its 32 bits then number them there): such a group is one of
// slow calls (256 that take 4.29 s or more together) or one where a depth ends
// and the next begins. A call whose duration does not fit in 32 bits (4.29 s or
// more, or an end before its start) keeps its end in a table of such calls (by
// position; at one depth of one lane at most one call in 4.29 s can be that
// long). Beside them: the positions where the frame changes within a depth (a
// byte each, and 8 bytes per 256 calls), and per 256 calls of a depth a summary
// per frame present (calls, covered time) and their durations' sum (under 1
// byte a call); a call's self time is computed when asked. At one depth of one
// lane calls never overlap, so starts, ends and covered ends all ascend and one
// binary search finds the first call of a window.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/run.hpp"
#include "reconstruct/calls.hpp"
#include "select/selection.hpp"

namespace scope_speedscope {

namespace detail {
// A duration that does not fit in a call's 32 bits: its end is in LongEnds.
constexpr uint32_t kLongCall = UINT32_MAX;

// The ends of the calls whose duration does not fit in 32 bits, by their
// position among the timeline's calls (ascending).
struct LongEnds {
  std::vector<uint64_t> at;
  std::vector<int64_t> end;
  int64_t end_of(uint64_t pos) const;
};

// The calls a chunk of a depth counts (Timeline::kChunk, for its summaries
// and its frame changes alike).
constexpr std::size_t kChangeChunk = 256;

// A call's duration, frame and nested bit in one word (see the top of this
// file): the duration in bits 0-31, the frame in bits 32-62, bit 63 set
// when a call of its frame encloses it.
constexpr uint64_t kNestedBit = uint64_t{1} << 63;
inline int64_t pack_call(uint32_t duration, int32_t frame, bool nested = false) {
  return static_cast<int64_t>((nested ? kNestedBit : 0) |
                              static_cast<uint64_t>(static_cast<uint32_t>(frame)) << 32 | duration);
}
inline int32_t frame_of_word(int64_t word) {
  return static_cast<int32_t>((static_cast<uint64_t>(word) >> 32) & 0x7fffffffu);
}

// Starts are held 32 bits from the least start of their group of
// kStartGroup positions; a group marked kWideGroup holds, instead, the
// index of each start in a table of whole starts.
constexpr std::size_t kStartGroup = 256;
constexpr int64_t kWideGroup = INT64_MIN;

// The start column: per position its 32 bits, per group its base.
struct Starts {
  const uint32_t* off = nullptr;
  const int64_t* base = nullptr;
  const int64_t* wide = nullptr;
  int64_t at(uint64_t pos) const {
    const int64_t b = base[pos / kStartGroup];
    const uint32_t o = off[pos];
    return b != kWideGroup ? static_cast<int64_t>(static_cast<uint64_t>(b) + o) : wide[o];
  }
};

// The columns of one depth of one lane: n calls in time order.
struct DepthColumns {
  Starts starts;     // the timeline's (positions from its first call)
  const int64_t* p;  // per call: its duration, frame and nested bit (pack_call)
  // Where the frame differs from the call before: per chunk of 256 calls
  // (kChangeChunk) of the slice, the index of its first change into
  // change_low (one more entry: the end), and per change its position in
  // its chunk.
  const uint64_t* chunk_change;
  const uint8_t* change_low;
  std::size_t n;
  const LongEnds* longs;  // the ends of long calls
  uint64_t at;            // the position of call 0 among the timeline's calls
  int32_t f(std::size_t i) const { return frame_of_word(p[i]); }
  int64_t s(std::size_t i) const { return starts.at(at + i); }
  // The frame changes at positions below q (q <= n), counted from an
  // origin of the timeline's (only differences mean anything).
  uint64_t changes_below(std::size_t q) const {
    const std::size_t c = q / kChangeChunk;
    uint64_t k = chunk_change[c];
    const auto low = static_cast<uint8_t>(q % kChangeChunk);
    if (low == 0) return k;
    const uint64_t stop = chunk_change[c + 1];
    while (k < stop && change_low[k] < low) ++k;
    return k;
  }
  // Whether the frame changes at a position in (i, last].
  bool frame_changes(std::size_t i, std::size_t last) const {
    return changes_below(last + 1) != changes_below(i + 1);
  }
  int64_t e(std::size_t i) const {
    const auto d = static_cast<uint32_t>(static_cast<uint64_t>(p[i]));
    return d != kLongCall ? static_cast<int64_t>(static_cast<uint64_t>(s(i)) + d)
                          : longs->end_of(at + i);
  }
};
}  // namespace detail

struct TimelineOptions {
  std::optional<std::vector<int64_t>> ranks;  // nullopt: [0]; used as given
  bool every_rank = false;                    // every rank of the run instead (ranks: 'all')
  Patterns include;                           // nullopt: no filter
  Patterns exclude;
  // Phases "reconstruct" (one step per rank: its calls reconstructed and laid
  // out) and "index" (once, the summaries made).
  Progress progress;
};

// What an open of a file's ranks a group at a time takes from an earlier
// open of the same file that read every rank's first starts: each region's
// order key (its first start in seconds over every rank, as order_regions
// computes it) and the file's first start (run_origin_ns).
struct RunOrder {
  std::vector<double> region_keys;
  std::optional<int64_t> first_start_ns;
};

// Reads the calls of `ranks` (ascending, each once) and nothing of the
// other ranks (not their first starts), throwing the reader's errors.
using ReadRanks = std::function<Run(const std::vector<int64_t>& ranks)>;

struct GroupedOpenState;  // build_in_groups.cpp

// The widest query bars answers (pixels).
constexpr uint32_t kTimelineMaxWidth = 16384;

class Timeline {
 public:
  struct LaneInfo {
    std::string name;  // the profile's name: "rank 0", "rank 0 - MainThread"
    uint64_t calls = 0;
    uint32_t max_depth = 0;  // deepest depth, 0 at the top
    int64_t start_ns = 0;    // its first call's start
    int64_t end_ns = 0;      // its latest end
    int64_t rank = 0;        // the MPI rank it belongs to
    int64_t lane_id = -1;    // the run's lane: -1 (one stack), a thread (<= -2), a task (>= 0)
  };
  // Items of bars, depth after depth, each depth in time order.
  struct Bars {
    std::vector<int64_t> start, end;
    std::vector<uint32_t> depth;
    std::vector<int32_t> frame;  // -1: a block of calls of several frames
    std::vector<uint32_t> count;
    std::vector<uint64_t> first;  // the index of its first call within its depth
    // Items come depth after depth: rows[d] .. rows[d + 1] are depth d's
    // (max_depth + 2 entries for the lane's max_depth).
    std::vector<uint32_t> rows;
    std::size_t size() const { return start.size(); }
    void clear();
  };
  struct StackEntry {
    int32_t frame;
    int64_t start_ns, end_ns;
    uint32_t depth;
    int64_t self_ns;  // its duration less its children's
  };
  struct RegionTotal {
    int32_t frame;
    uint64_t calls;    // calls of the frame overlapping the window
    int64_t total_ns;  // its calls cut to the window, summed (recursion too)
    int64_t self_ns;   // each call cut to the window less its children cut to it
  };

  const std::vector<LaneInfo>& lanes() const { return lanes_; }
  // The end of the window that holds every call: the latest end of any
  // lane (0 at the least) + 1, so a call of no length there is inside.
  int64_t run_end_ns() const;
  const std::vector<std::string>& frames() const { return frames_; }
  // Each frame's source location (its region's, region_source), when the
  // run was read with its sources (ReadPlan::sources); else empty.
  const std::vector<SourceLocation>& frame_sources() const { return frame_sources_; }
  // The run's region (index into its regions) of each frame.
  const std::vector<uint32_t>& frame_regions() const { return frame_regions_; }
  // What was opened: the options' ranks (as listed), include and exclude.
  const TimelineOptions& selection() const { return selection_; }
  // The run without its calls (its regions without rows): names, lanes'
  // labels, ranks, label and path.
  const Run& described_run() const { return *described_; }
  // The region order and the first start of the file as this open found
  // them (an exact open's are the file's: what open_timeline_in_groups
  // takes; a provisional one's are its ranks' own).
  RunOrder run_order() const;
  // Whether every rank with calls of the selected regions is in the
  // timeline (else a narrowing's region order may depend on ranks it lacks).
  bool holds_every_rank() const { return holds_every_rank_; }
  // The ranks with calls that the read behind it left out (ReadPlan::ranks),
  // ascending; empty when it read every rank's calls. The file's export
  // fails on damage in their calls, so a download reads them first
  // (export_timeline's read_rest).
  const std::vector<int64_t>& unread_ranks() const { return unread_ranks_; }
  // The calls of each of them (the file's index says), in the same order.
  const std::vector<uint64_t>& unread_calls() const { return unread_calls_; }
  // The longest call of all (lane, depth, index), for messages about a
  // narrowing that keeps nothing.
  struct CallAt {
    std::size_t lane;
    uint32_t depth;
    std::size_t index;
  };
  CallAt longest_call() const { return longest_; }
  // Per frame over the whole run (each distinct lane once): its calls, the
  // sum of their durations and their self time (each call's duration less
  // its direct children's), sums saturating at the int64 range.
  struct FrameTotals {
    uint64_t calls = 0;
    int64_t total_ns = 0;
    int64_t self_ns = 0;
  };
  const std::vector<FrameTotals>& frame_totals() const { return frame_totals_; }
  // The document's origin in absolute ns (0 when no lane).
  int64_t origin_ns() const { return origin_ns_; }
  // The origin in ns from the run's first call (the earliest start in the
  // whole file, whatever the ranks and filters): the zero of a time window
  // (Narrowing), so origin_in_run_ns() + t is the instant t of the timeline
  // in a window's terms.
  int64_t origin_in_run_ns() const { return origin_in_run_ns_; }

  // The calls of `lane` overlapping [start, end) (a call covers [s, e), one
  // that does not last [s, s + 1)) at `width` pixels of (end - start) / width
  // ns: a call lasting a pixel or more is an item of its own (count 1); a
  // maximal run of consecutive shorter calls of one depth without a gap of a
  // pixel or more between them is one block (count, first start, last end,
  // their frame when they share one, else -1). At most 2 * width + 4 items a
  // depth. Throws Error(bad_argument) for a lane out of range, end <= start,
  // or a width outside [1, kTimelineMaxWidth].
  void bars(std::size_t lane, int64_t start, int64_t end, uint32_t width, Bars& out) const;
  Bars bars(std::size_t lane, int64_t start, int64_t end, uint32_t width) const {
    Bars out;
    bars(lane, start, end, width, out);
    return out;
  }
  // The calls of `lane` that cover the instant `time`, from depth 0 down.
  std::vector<StackEntry> stack_at(std::size_t lane, int64_t time) const;
  // Per frame with a call overlapping [start, end) on `lanes` (each counted
  // once; empty: all lanes), in frame order. Work: the calls overlapping.
  std::vector<RegionTotal> regions(int64_t start, int64_t end,
                                   const std::vector<std::size_t>& lanes = {}) const;

  // Calls overlapping [start, end) on every lane (a lane shown twice counts
  // twice), as regions() counts them.
  uint64_t calls_in(int64_t start, int64_t end) const;
  struct Window {
    int64_t start_ns, end_ns;
    uint64_t calls;
  };
  // The window around the middle of [start, end) that holds at most
  // `max_calls` calls: [start, end) itself when it does; else the widest
  // [max(start, m - h), min(end, m + h)) (m = floor((start + end) / 2), h a
  // whole number of ns) that does; [m, m + 1) when none does. What Open in
  // speedscope shows within speedscope's budget.
  Window window_within(int64_t start, int64_t end, uint64_t max_calls) const;

  // ---- ranks: who waits for whom (ranks.cpp) ----
  // A rank's covered time of a region in [start, end): the length of the
  // union of the region's calls cut to the window, per lane (a call inside
  // a call of its own region counted once; a rank's threads and tasks add
  // up). Not regions()' total_ns, which sums every call.
  struct RegionImbalance {
    int32_t frame;
    uint32_t ranks;  // the selected ranks (each rank with a lane, once)
    int64_t min_ns, max_ns;
    double median_ns;  // of all selected ranks (0 for a rank without calls there)
    double mean_ns;
    double imbalance;      // (max - mean) / max; 0 when max is 0
    int64_t slowest_rank;  // the lowest rank holding max
  };
  // One row per frame with a call overlapping [start, end) on any rank,
  // sorted by max - mean descending (then by frame). Work: the calls of
  // the window's edges and one summary per 256 calls within it.
  std::vector<RegionImbalance> imbalance(int64_t start, int64_t end) const;

  // The k-th call of a frame on each rank, lined up: calls of the frame on
  // a rank (all its lanes) numbered 0, 1, ... over the whole run by start
  // (then lane, then depth), so k does not depend on the window.
  struct AlignedCalls {
    std::vector<int64_t> ranks;    // the selected ranks, ascending
    std::vector<uint64_t> counts;  // per rank: its calls of the frame in the whole run
    uint64_t common = 0;           // the smallest count: every rank has each k below it
    // One entry per (k, rank), k ascending then rank ascending, for each
    // k < common whose call starts in [start, end) on at least one rank.
    std::vector<uint64_t> k;
    std::vector<int64_t> rank, start_ns, end_ns;
    std::vector<double> lateness_ns;  // start - the median start at k
    std::vector<double> excess_ns;    // duration - the median duration at k
    std::size_t size() const { return k.size(); }
  };
  // Throws Error(bad_argument) for a frame out of range or end <= start.
  AlignedCalls aligned_calls(int32_t frame, int64_t start, int64_t end) const;
  // The same into `out`, reusing its memory: over a whole 96 M-call job the
  // answer is 2.7 M entries (130 MB), and memory the process has not
  // touched yet costs more than the query (the page's repeated asking, the
  // bindings). Leaves `out` cleared on an error.
  void aligned_calls(int32_t frame, int64_t start, int64_t end, AlignedCalls& out) const;
  // The same answer a step at a time, for what only sums or picks from it
  // (the heatmap's grid, the ranks' lateness: aligned_grid.hpp): over a
  // whole job no entry column is written (2.7 M entries, 132 MB).
  // aligned_calls is this walk writing the columns.
  struct AlignedHead {
    const std::vector<int64_t>& ranks;    // as AlignedCalls'
    const std::vector<uint64_t>& counts;  // as AlignedCalls'
    uint64_t common;                      // as AlignedCalls'
    uint64_t steps;                       // the steps step() will be given
  };
  class AlignedVisitor {
   public:
    virtual ~AlignedVisitor() = default;
    // Once, before the steps (may allocate and throw).
    virtual void begin(const AlignedHead& head) = 0;
    // Steps k0 .. k0 + n - 1 (ascending over the calls: a block of up to
    // 1,024 consecutive k): entry j * R + r (R = head.ranks.size()) is rank
    // r's call at step k0 + j, its start and end and AlignedCalls' lateness
    // and excess. One call a block, not a step: over a 20 M-call run that
    // is 5 M calls fewer.
    virtual void steps(uint64_t k0, std::size_t n, const int64_t* start, const int64_t* end,
                       const double* lateness, const double* excess) noexcept = 0;
    // Which of lateness and excess it reads (the other is not computed:
    // each is a median a step; its entries are then unspecified).
    virtual bool reads_lateness() const { return true; }
    virtual bool reads_excess() const { return true; }
  };
  // Throws as aligned_calls; `visitor` sees begin() and then every step, block by block.
  void visit_aligned(int32_t frame, int64_t start, int64_t end, AlignedVisitor& visitor) const;
  // What every rank's call at a step shares (aligned_steps.cpp), for the
  // steps k0 .. k0 + n - 1 a visitor is given: the median over the ranks of
  // their calls' starts and of their durations (as AlignedCalls' lateness
  // and excess take them), and the earliest start and latest end. Made a
  // block of kAlignedBlock steps at a time when a query first needs it and
  // kept while the timeline lives (32 bytes a step made): the medians are
  // the walk's dearest part, and the same for every window and width.
  static constexpr std::size_t kAlignedBlock = 1024;
  struct StepStats {
    const double* start_median;
    const double* duration_median;
    const int64_t* first_start;
    const int64_t* last_end;
  };
  // The same answer rank by rank, for what reads each rank's calls apart
  // (the heatmap's grid, the ranks' lateness): each rank's calls are read
  // in their columns' order instead of a step of every rank at a time.
  class RankVisitor {
   public:
    virtual ~RankVisitor() = default;
    // Once, before the calls (may allocate and throw).
    virtual void begin(const AlignedHead& head) = 0;
    // Rank r's (of head.ranks) calls at steps k0 .. k0 + n - 1, the answer's
    // j0-th to (j0 + n - 1)-th steps, all in one block of kAlignedBlock
    // steps; `steps` their statistics. A rank's calls come in order; natively
    // the calls of different ranks may come at once, on different threads.
    virtual void calls(std::size_t r, uint64_t j0, uint64_t k0, std::size_t n, const int64_t* start,
                       const int64_t* end, const StepStats& steps) noexcept = 0;
  };
  // Throws as aligned_calls.
  void visit_aligned_ranks(int32_t frame, int64_t start, int64_t end, RankVisitor& visitor) const;
  // Makes and keeps the steps' statistics of every frame whose aligned
  // calls over the whole run are at most `max_entries` (steps × ranks) and
  // whose statistics the timeline would keep, so that the first heatmap or
  // lateness of each is as quick as the next (the engine does this when it
  // opens several ranks). Returns the entries made.
  uint64_t prepare_aligned(uint64_t max_entries) const;
  // The selected ranks, ascending (each rank with a lane, once).
  std::vector<int64_t> ranks() const;

  // How busy `lanes` are (busy.cpp): per pixel p of [start, end) at `width`
  // pixels (pixel p is [start + floor(p * span / width), start +
  // floor((p + 1) * span / width)), or the instant at its start when that
  // is empty), the fraction of its time covered by the lanes' top-level
  // calls, averaged over the lanes (a lane listed twice counts twice).
  // Work: two searches a pixel and a lane, one sum per 256 calls within.
  // Throws Error(bad_argument) as bars() does, or for an empty `lanes`.
  std::vector<float> busy(const std::vector<std::size_t>& lanes, int64_t start, int64_t end,
                          uint32_t width) const;

  // What a rank's band shows (band.cpp): per pixel p of [start, end) at
  // `width` pixels (as busy()'s), the frame of the deepest call at a depth
  // <= `depth` running at the pixel's middle instant (a + (z - a) / 2 of
  // its [a, z), rounded down; a call covers [s, e), one of no length [s, s
  // + 1)) on the first of `lanes` (in the order given) running one there;
  // -1 where none does. Work: one search a pixel, a depth and a lane.
  // Throws Error(bad_argument) as busy() does.
  std::vector<int32_t> band_frames(const std::vector<std::size_t>& lanes, uint32_t depth,
                                   int64_t start, int64_t end, uint32_t width) const;
  // The depth a band of `lanes` shows unless told: the first depth below
  // the regions spanning the lanes (a region whose calls at a depth last
  // 95 % or more of the lanes' time: the extent from their first start to
  // their latest end, on each lane with calls), so that a run inside one
  // `main`, looping over `step`, shows what each step does; 0 when no
  // region spans them, the deepest depth when every depth has one. Work:
  // one summary per 256 calls of each depth it looks at. Throws
  // Error(bad_argument) for a lane out of range or no lanes.
  uint32_t band_depth(const std::vector<std::size_t>& lanes) const;

  // Bytes held by the columns and indices.
  std::size_t memory_bytes() const;

  // One depth of one lane: `calls` calls, their starts a column.
  struct DepthView {
    explicit DepthView(const detail::DepthColumns& c) : calls(c.n), cols_(c) {}
    std::size_t calls;
    int64_t start(std::size_t i) const { return cols_.s(i); }
    int64_t end(std::size_t i) const { return cols_.e(i); }
    int32_t frame(std::size_t i) const { return cols_.f(i); }

   private:
    detail::DepthColumns cols_;
  };
  DepthView depth_view(std::size_t lane, uint32_t depth) const;
  // The self time of call `index` of `depth` of `lane`: its duration less
  // its children's (the calls one depth down starting within it). Work: the
  // children at the edges of chunks and one sum per 256 children.
  int64_t self_ns(std::size_t lane, uint32_t depth, std::size_t index) const;

 private:
  friend Timeline open_timeline(const Run& run, const TimelineOptions& options);
  friend Timeline open_timeline(Run&& run, const TimelineOptions& options);
  friend class GroupedOpen;
  friend struct GroupedOpenState;
  struct Block {              // the columns of one distinct lane
    std::size_t first_depth;  // into depth_begin_ / chunk_begin_
    uint32_t depths = 0;
  };
  using Slice = detail::DepthColumns;
  Slice slice(const Block& b, uint32_t depth) const;
  void check_lane(std::size_t lane) const;
  struct Builder;  // build.cpp
  friend struct Builder;
  // The calls of each depth of a block overlapping [start, end): [first, stop)
  // of its slice, depth after depth down to the last depth that has any.
  void window_slices(const Block& b, int64_t start, int64_t end, std::vector<Slice>& slices,
                     std::vector<std::size_t>& first, std::vector<std::size_t>& stop) const;
  std::vector<std::vector<std::size_t>> rank_blocks() const;  // per rank of ranks(): its blocks
  struct FrameWalk;                                           // frame_walk.hpp
  struct AlignedPlan;                                         // frame_walk.hpp
  AlignedPlan plan_aligned(int32_t frame, int64_t start, int64_t end) const;  // aligned.cpp
  void walk_aligned(AlignedPlan& plan, AlignedVisitor& visitor) const;
  // The statistics of the plan's wanted steps in [lo, hi) (whole blocks of
  // kAlignedBlock steps, at most kAlignedPart), made where missing from the
  // plan's walks (standing before step plan.at): kept by the timeline while
  // they fit its budget (StepCache), else held by the answer alone.
  static constexpr std::size_t kAlignedPart = 64 * kAlignedBlock;
  struct StepBlock;   // frame_walk.hpp
  struct StepBlocks;  // frame_walk.hpp
  struct StepCache;   // aligned_steps.cpp
  StepBlocks step_blocks(const AlignedPlan& plan, uint64_t lo, uint64_t hi) const;
  std::shared_ptr<StepCache> step_cache() const;  // made when first asked
  // The frames' statistics kept (shared by copies of the timeline: they are
  // the same).
  mutable std::shared_ptr<StepCache> step_cache_;
  struct RegionSums;  // queries.cpp: per frame, a window's calls, total and self
  // Adds depth d of block b (its calls overlapping [start, end): [first[d],
  // stop[d]) of slices[d]) to `sums`.
  void add_depth_regions(const Block& b, std::size_t d, const std::vector<Slice>& slices,
                         const std::vector<std::size_t>& first,
                         const std::vector<std::size_t>& stop, int64_t start, int64_t end,
                         RegionSums& sums) const;
  struct RankSums;  // ranks.cpp
  friend struct RankSums;
  friend struct FrameWalk;
  // Calls of one depth slot (depth_begin_ index) summarised per kChunk
  // calls: per chunk, per frame present, its calls and their covered time
  // counting only calls outermost of their frame (imbalance's covered time).
  static constexpr std::size_t kChunk = detail::kChangeChunk;
  bool nested(uint64_t at) const { return call_[at] < 0; }  // detail::kNestedBit
  int64_t self_of(const Block& b, uint32_t depth, std::size_t index) const;
  // The calls [lo, hi) of a depth of a block: their durations, summed in
  // wrapping arithmetic as the durations' int64 differences are.
  uint64_t duration_sum(const Block& b, uint32_t depth, std::size_t lo, std::size_t hi) const;

  std::vector<LaneInfo> lanes_;
  std::vector<std::size_t> lane_block_;  // lane -> block
  std::vector<Block> blocks_;
  std::vector<std::string> frames_;
  std::vector<SourceLocation> frame_sources_;
  std::vector<uint32_t> frame_regions_;
  TimelineOptions selection_;  // without its progress callback
  std::shared_ptr<const Run> described_;
  bool holds_every_rank_ = false;
  std::vector<int64_t> unread_ranks_;
  std::vector<uint64_t> unread_calls_;
  CallAt longest_{0, 0, 0};
  std::vector<FrameTotals> frame_totals_;
  int64_t origin_ns_ = 0;
  int64_t origin_in_run_ns_ = 0;
  // Columns of every block, block after block, depth after depth.
  // (built_start_ and call_ may be the run's own start and end columns,
  // taken over; built_start_ holds whole starts only while the timeline is
  // built, then becomes start_off_: Builder::pack_starts.)
  Column<int64_t> built_start_;
  Column<uint32_t> start_off_;
  std::vector<int64_t> start_base_;  // per group of detail::kStartGroup positions
  std::vector<int64_t> wide_start_;  // the starts of the wide groups
  Column<int64_t> call_;             // per call: detail::pack_call(duration, frame, nested)
  detail::LongEnds longs_;
  detail::Starts starts() const {
    return detail::Starts{start_off_.data(), start_base_.data(), wide_start_.data()};
  }
  int64_t start_at(uint64_t pos) const { return starts().at(pos); }
  int64_t end_at(uint64_t pos) const {
    const auto d = static_cast<uint32_t>(static_cast<uint64_t>(call_[pos]));
    return d != detail::kLongCall ? static_cast<int64_t>(static_cast<uint64_t>(start_at(pos)) + d)
                                  : longs_.end_of(pos);
  }
  int32_t frame_at(uint64_t pos) const { return detail::frame_of_word(call_[pos]); }
  std::vector<uint64_t> depth_begin_;  // per block: depths + 1 entries into the columns
  // Where the frame changes (detail::DepthColumns): per chunk (+1 entry)
  // its first change; per change its position in its chunk.
  std::vector<uint64_t> chunk_change_;
  std::vector<uint8_t, UninitializedAllocator<uint8_t>> change_low_;
  std::vector<uint64_t> chunk_begin_;    // per depth slot: its first chunk (+1 entry)
  std::vector<uint64_t> summary_begin_;  // per chunk: its first summary (+1 entry)
  std::vector<int64_t> chunk_duration_;  // per chunk: its calls' durations, summed
  std::vector<int32_t> summary_frame_;
  std::vector<uint32_t> summary_calls_;
  std::vector<int64_t> summary_covered_;
  // Per summary too, for regions(): its calls' durations (saturating) and
  // their self times (each call's duration less its children's, wrapping
  // as self_of), so a window's whole chunks are added, not walked.
  std::vector<int64_t> summary_total_;
  std::vector<int64_t> summary_self_;
};

// Opens a selection of one run as export_speedscope would (the same
// filters, ranks and errors: no_regions_matched, invalid_rank, nesting,
// no_calls_recorded, each blaming the run's file). The run may be dropped
// afterwards: nothing refers to it.
Timeline open_timeline(const Run& run, const TimelineOptions& options = {});
// The same, taking the run's event columns over as the timeline's when the
// selected ranks lie one after another in them (a file as scope-profiler
// writes it): no second copy of the calls while opening. The run is left
// without its event columns.
Timeline open_timeline(Run&& run, const TimelineOptions& options = {});
// The same timeline, bit for bit, read a group of ranks at a time: from
// the file's `index` (read with no rank's calls, ReadPlan::ranks empty,
// and no first starts), the selected ranks in the order listed, about
// `group_calls` calls a group (one rank at least), each group's calls laid
// out (their starts packed in 32 bits at once) and its columns dropped
// before the next is read. The open's peak is the timeline's columns
// (about 12 bytes a call) and one group's run, not the file's two 64-bit
// columns; each group is a read of its own. `order` must be the file's
// (RunOrder); its keys not one a region refuses the open (internal).
Timeline open_timeline_in_groups(Run index, const ReadRanks& read, const RunOrder& order,
                                 const TimelineOptions& options, uint64_t group_calls);

// The same open, one group a step, so that a caller may do other work
// between them (the engine answers the page's other requests): the
// selection is made (and refused) on construction; step() reads and lays
// out the next group and says whether every rank is in; finish() then
// gives the timeline (once). Errors blame the file, as open_timeline's.
class GroupedOpen {
 public:
  GroupedOpen(Run index, const RunOrder& order, const TimelineOptions& options,
              uint64_t group_calls);
  ~GroupedOpen();
  GroupedOpen(const GroupedOpen&) = delete;
  GroupedOpen& operator=(const GroupedOpen&) = delete;
  bool step(const ReadRanks& read, const Progress& progress = {});
  Timeline finish(const Progress& progress = {});
  uint64_t calls_done() const;  // the calls of the ranks laid out so far
  uint64_t calls() const;       // the selection's, by the index

 private:
  std::unique_ptr<GroupedOpenState> s_;
};

}  // namespace scope_speedscope
