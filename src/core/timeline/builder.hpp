// timeline: the builder that lays a selection out as the timeline's columns
// (see timeline.hpp), shared by the open of a whole run (build.cpp) and the
// open of a file's ranks a group at a time (build_in_groups.cpp). Internal
// to timeline/: nothing else includes it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/run.hpp"
#include "model/time.hpp"
#include "reconstruct/calls.hpp"
#include "reconstruct/profiles.hpp"
#include "timeline/timeline.hpp"

namespace scope_speedscope {

struct Timeline::Builder {
  // `consumed`: the run itself when its event columns may be taken over.
  static Timeline build(const Run& run, Run* consumed, const TimelineOptions& options);
  // The selection read a group of ranks at a time (timeline.hpp,
  // GroupedOpen; build_in_groups.cpp).
  struct Groups;
  static void begin_groups(Groups& g, const RunOrder& order);
  static bool step_groups(Groups& g, const ReadRanks& read, const Progress& progress);
  static Timeline finish_groups(Groups& g, const Progress& progress);

 private:
  struct LaneOf {  // a profile of the document: a lane of the timeline
    std::string name;
    int64_t rank;
    int64_t lane_id;
    std::size_t block;
    std::vector<uint32_t> regions;  // the regions of its calls, in order of first appearance
  };
  Builder(Timeline& tl, const Run& run) : tl(tl), run(run), calls_run(&run) {}
  std::vector<int64_t> plan_in_place(const std::vector<uint32_t>& regions,
                                     const std::vector<int64_t>& ranks, bool consume);
  std::vector<LaneOf> add_rank(int64_t rank, const RankCalls& calls, Run* consumed);
  std::vector<uint32_t> see_profile(const NamedCalls& nc);
  // S receives the calls' starts from position s_base on, P their words
  // (detail::pack_call) from p_base on.
  void fill_block(const NamedCalls& nc, const Block& b, int64_t* S, uint64_t s_base, int64_t* P,
                  uint64_t p_base);
  void take_columns(Run* consumed);
  void number_frames_and_move_origin();
  void pack_starts();
  int64_t pack_group(const int64_t* whole, std::size_t m, uint32_t* off);
  void pack_staged(bool all);
  void shift_packed_starts(uint64_t shift);
  void drop_listed_from_unread();
  void index_frame_changes();
  void reserve_chunks();
  void summarize_chunks();
  void describe_lanes();
  void describe_selection(const Run& run, const std::vector<uint32_t>& regions,
                          const std::vector<int64_t>& ranks, const TimelineOptions& options);
  void index_and_describe(const std::optional<int64_t>& run_first_start,
                          const TimelineOptions& options);

  Timeline& tl;
  const Run& run;               // the run's regions, sources and ranks (in groups: its index)
  const Run* calls_run;         // the run holding the calls being laid out (in groups: the group's)
  std::vector<LaneOf> lanes;    // the document's profiles, in order
  std::vector<int64_t> listed;  // the distinct ranks, first listed first
  bool in_place = false;        // the columns are the run's (see above)
  bool packing = false;         // the starts packed as the ranks are laid out (in groups)
  std::vector<int64_t> staged;  // packing: the whole starts of positions [staged_at, at)
  uint64_t staged_at = 0;
  uint64_t at = 0;                                  // calls laid out so far
  uint64_t longest_at = 0;                          // the longest call's place in the columns
  std::vector<std::pair<uint64_t, int64_t>> longs;  // the long calls' places and ends
  std::vector<int64_t> starts, calls;               // one rank's, taking the run's columns over
  int64_t run_first = 0;                            // what the starts count from while filling
  bool any = false;                                 // a profile with calls was seen
  int64_t first_start = 0;                          // the earliest first call of the profiles
  std::vector<int64_t> frame_of_region;             // -1 until a profile shows the region
  std::vector<uint64_t> region_calls;
  std::vector<int128> region_total, region_self;  // summed as the blocks fill
};

}  // namespace scope_speedscope
