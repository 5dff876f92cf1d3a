// reconstruct: the profiles of a selection (see profiles.hpp).
#include "reconstruct/profiles.hpp"

#include "select/selection.hpp"

namespace scope_speedscope {

std::vector<NamedCalls> SelectedProfiles::named() const {
  std::vector<NamedCalls> out;
  out.reserve(profiles_.size());
  for (const Profile& p : profiles_) out.push_back(p.calls);
  return out;
}

void SelectedProfiles::release_rank(int64_t rank) {
  for (Profile& p : profiles_) {
    if (p.rank == rank) p.calls = NamedCalls{p.calls.name, nullptr, nullptr, nullptr};
  }
  by_rank_.erase(rank);
}

NamedCalls lane_profile(const Run& run, const RankCalls& calls, std::size_t l) {
  const Lane& lane = calls.lanes[l];
  NamedCalls named{profile_name(run, calls.rank, lane.lane), nullptr, nullptr, nullptr};
  if (!calls.streams.empty()) {
    named.stream = calls.streams[l].get();
  } else {
    named.begin = calls.calls.data() + lane.begin;
    named.end = calls.calls.data() + lane.end;
  }
  return named;
}

SelectedProfiles reconstruct_profiles(const Run& run, const std::vector<uint32_t>& regions,
                                      const std::vector<int64_t>& ranks, CallStorage storage,
                                      const std::function<void(std::size_t)>& after_rank) {
  SelectedProfiles out;
  for (std::size_t k = 0; k < ranks.size(); ++k) {
    const int64_t rank = ranks[k];
    require_rank(run, rank, k);
    auto it = out.by_rank_.find(rank);
    if (it == out.by_rank_.end()) {
      it = out.by_rank_.emplace(rank, build_call_arrays(run, regions, rank, storage)).first;
    }
    if (after_rank) after_rank(k);
    const RankCalls& calls = it->second;
    for (std::size_t l = 0; l < calls.lanes.size(); ++l) {
      out.profiles_.push_back(
          SelectedProfiles::Profile{rank, l, calls.lanes[l].lane, lane_profile(run, calls, l)});
    }
  }
  return out;
}

}  // namespace scope_speedscope
