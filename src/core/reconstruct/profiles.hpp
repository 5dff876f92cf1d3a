// reconstruct: the profiles of a selection, as export_speedscope makes them
// (spec 5.1 step 4): for each rank asked for, in order, checked and then
// reconstructed (a rank listed twice is reconstructed once and shown twice),
// one profile per lane that has calls, named "rank R" or "rank R - <lane>".
// The writer and the timeline both take their calls from here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "model/run.hpp"
#include "reconstruct/streams.hpp"

namespace scope_speedscope {

// One profile of a document: the calls [begin, end) of one lane, or the
// calls `stream` produces (in call order, with depths).
struct NamedCalls {
  std::string name;  // "rank 0", "rank 0 - MainThread", ...
  const Call* begin = nullptr;
  const Call* end = nullptr;
  CallStream* stream = nullptr;
};

// Calls fn(begin, end) over a profile's calls, in order, block by block.
template <class F>
void for_each_block(const NamedCalls& p, F&& fn) {
  if (p.stream == nullptr) {
    if (p.begin != p.end) fn(p.begin, p.end);
    return;
  }
  std::vector<Call> block(4096);
  p.stream->rewind();
  for (std::size_t n; (n = p.stream->next(block.data(), block.size())) > 0;) {
    fn(block.data(), block.data() + n);
  }
}

class SelectedProfiles {
 public:
  struct Profile {
    int64_t rank;
    std::size_t lane;  // into RankCalls::lanes of its rank
    int64_t lane_id;   // the run's lane (Lane::lane)
    NamedCalls calls;
  };
  const std::vector<Profile>& profiles() const { return profiles_; }
  std::vector<NamedCalls> named() const;
  bool empty() const { return profiles_.empty(); }
  // Drops a rank's reconstruction; its profiles keep their names, no calls.
  void release_rank(int64_t rank);

 private:
  friend SelectedProfiles reconstruct_profiles(const Run&, const std::vector<uint32_t>&,
                                               const std::vector<int64_t>&, CallStorage,
                                               const std::function<void(std::size_t)>&);
  std::map<int64_t, RankCalls> by_rank_;
  std::vector<Profile> profiles_;
};

// Lane `l` of a rank's calls as the profile it makes (its stream, or its
// calls), named as the document names it.
NamedCalls lane_profile(const Run& run, const RankCalls& calls, std::size_t l);

// `regions` in get_regions' order; `after_rank(k)` is called once rank k of
// `ranks` is done (for progress). Throws invalid_rank for a rank the run does
// not have, and the nesting errors, rank by rank in the order of `ranks`.
SelectedProfiles reconstruct_profiles(const Run& run, const std::vector<uint32_t>& regions,
                                      const std::vector<int64_t>& ranks, CallStorage storage,
                                      const std::function<void(std::size_t)>& after_rank = {});

}  // namespace scope_speedscope
