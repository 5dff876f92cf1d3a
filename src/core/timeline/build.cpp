// timeline: opening a selection as columns (see timeline.hpp). The steps:
// select and reconstruct as the export does; take the document's frames and
// origin; size one block of columns per distinct (rank, lane); fill them
// rank by rank (dropping each rank's reconstruction once its lanes are in);
// index where the frame changes; describe the lanes.
#include <algorithm>
#include <map>
#include <utility>

#include "model/run.hpp"
#include "reconstruct/profiles.hpp"
#include "select/selection.hpp"
#include "text/messages.hpp"
#include "timeline/timeline.hpp"
#include "write/document_plan.hpp"

namespace scope_speedscope {

struct Timeline::Builder {
  static Timeline build(const Run& run, const TimelineOptions& options);

 private:
  Builder(Timeline& tl, SelectedProfiles& selected) : tl(tl), selected(selected) {}
  void take_frames_and_origin(const Run& run);
  void size_blocks();
  void fill_blocks(const TimelineOptions& options);
  void fill_block(std::size_t blk, const std::vector<int64_t>& frame_of);
  void index_frame_changes();
  void summarize_chunks();
  void describe_lanes();

  Timeline& tl;
  SelectedProfiles& selected;
  std::vector<int64_t> frame_of_region;       // the document's frame of each region
  std::vector<std::size_t> first_profile;     // block -> a profile showing it
  std::vector<std::vector<uint64_t>> counts;  // block -> calls at each depth
};

namespace {

// Calls at each depth of one profile.
std::vector<uint64_t> depth_counts(const NamedCalls& nc) {
  if (nc.stream != nullptr && nc.stream->summary().valid) return nc.stream->summary().depth_counts;
  std::vector<uint64_t> counts;
  for_each_block(nc, [&](const Call* b, const Call* e) {
    for (const Call* c = b; c != e; ++c) {
      if (c->depth >= counts.size()) counts.resize(c->depth + 1, 0);
      ++counts[c->depth];
    }
  });
  return counts;
}

}  // namespace

Timeline open_timeline(const Run& run, const TimelineOptions& options) {
  try {
    return Timeline::Builder::build(run, options);
  } catch (Error& e) {
    if (e.kind() != ErrorKind::io) e.in_file(run.path);  // as the export blames
    throw;
  }
}

Timeline Timeline::Builder::build(const Run& run, const TimelineOptions& options) {
  // The selection, as export_speedscope makes it (the same errors in the same order).
  const std::vector<int64_t> ranks = requested_ranks(options.ranks);
  const std::vector<uint32_t> regions =
      order_regions(run, selected_regions(run, options.include, options.exclude));
  SelectedProfiles selected =
      reconstruct_profiles(run, regions, ranks, CallStorage::indexed, [&](std::size_t k) {
        if (options.progress) options.progress("reconstruct", k + 1, ranks.size());
      });
  if (selected.empty()) throw Error(Msg::no_calls_recorded).on_field("ranks");
  Timeline tl;
  Builder b(tl, selected);
  b.take_frames_and_origin(run);
  b.size_blocks();
  b.fill_blocks(options);
  b.index_frame_changes();
  b.summarize_chunks();
  b.describe_lanes();
  return tl;
}

void Timeline::Builder::take_frames_and_origin(const Run& run) {
  const detail::DocumentPlan plan = detail::plan_document(run.regions.size(), selected.named());
  for (uint32_t region : plan.frame_regions) tl.frames_.push_back(run.regions[region].name);
  frame_of_region = plan.frame_of_region;
  bool any = false;
  for (const auto& bounds : plan.bounds) {
    if (bounds.any && (!any || bounds.first_start_ns < tl.origin_ns_))
      tl.origin_ns_ = bounds.first_start_ns;
    any = any || bounds.any;
  }
  const int64_t origin = tl.origin_ns_;
  // The run's first start is <= every start, so this does not overflow.
  tl.origin_in_run_ns_ = static_cast<int64_t>(
      static_cast<uint64_t>(origin) - static_cast<uint64_t>(run_origin_ns(run).value_or(origin)));
}

// One block of columns per distinct (rank, lane) (a rank listed twice shows
// the same block twice); columns sized from the calls at each depth.
void Timeline::Builder::size_blocks() {
  const auto& profiles = selected.profiles();
  std::map<std::pair<int64_t, std::size_t>, std::size_t> block_of;
  uint64_t total = 0;
  for (std::size_t p = 0; p < profiles.size(); ++p) {
    const auto key = std::make_pair(profiles[p].rank, profiles[p].lane);
    auto found = block_of.find(key);
    if (found == block_of.end()) {
      found = block_of.emplace(key, first_profile.size()).first;
      first_profile.push_back(p);
      counts.push_back(depth_counts(profiles[p].calls));
      for (uint64_t c : counts.back()) total += c;
    }
    tl.lane_block_.push_back(found->second);
  }
  std::size_t depth_slots = 0;
  for (const auto& c : counts) depth_slots += c.size() + 1;
  tl.start_.resize(total);
  tl.end_.resize(total);
  tl.frame_.resize(total);
  tl.nested_.assign((total + 63) / 64, 0);
  tl.depth_begin_.reserve(depth_slots);
  tl.change_begin_.reserve(depth_slots);
  tl.blocks_.reserve(counts.size());
  uint64_t at = 0;
  for (const auto& c : counts) {
    tl.blocks_.push_back(Block{tl.depth_begin_.size(), static_cast<uint32_t>(c.size())});
    for (uint64_t n : c) {
      tl.depth_begin_.push_back(at);
      at += n;
    }
    tl.depth_begin_.push_back(at);
  }
}

// Block by block, in the ranks' order; a rank's reconstruction is dropped
// once its lanes are in (so one rank's is held at a time beside the columns).
void Timeline::Builder::fill_blocks(const TimelineOptions& options) {
  const auto& profiles = selected.profiles();
  for (std::size_t blk = 0; blk < tl.blocks_.size(); ++blk) {
    fill_block(blk, frame_of_region);
    if (options.progress) options.progress("index", blk + 1, tl.blocks_.size());
    const int64_t rank = profiles[first_profile[blk]].rank;
    bool more = false;
    for (std::size_t later = blk + 1; later < tl.blocks_.size() && !more; ++later) {
      more = profiles[first_profile[later]].rank == rank;
    }
    if (!more) selected.release_rank(rank);
  }
}

// Start, end (from the origin) and frame of each call, at its depth, and
// whether a call of its frame encloses it: the calls come in pre-order, so
// a call's ancestors are the path down to it.
void Timeline::Builder::fill_block(std::size_t blk, const std::vector<int64_t>& frame_of) {
  const Block& b = tl.blocks_[blk];
  const NamedCalls& nc = selected.profiles()[first_profile[blk]].calls;
  std::vector<uint64_t> cursor(
      tl.depth_begin_.begin() + static_cast<std::ptrdiff_t>(b.first_depth),
      tl.depth_begin_.begin() + static_cast<std::ptrdiff_t>(b.first_depth + b.depths));
  const auto origin = static_cast<uint64_t>(tl.origin_ns_);
  auto rel = [origin](int64_t t) {
    return static_cast<int64_t>(static_cast<uint64_t>(t) - origin);
  };
  int64_t* S = tl.start_.data();
  int64_t* E = tl.end_.data();
  int32_t* F = tl.frame_.data();
  std::vector<int32_t> path;                            // frames of the path, by depth
  std::vector<uint32_t> on_path(tl.frames_.size(), 0);  // calls of each frame on it
  for_each_block(nc, [&](const Call* first, const Call* last) {
    for (const Call* c = first; c != last; ++c) {
      const uint32_t d = c->depth;
      const uint64_t pos = cursor[d]++;
      const auto f = static_cast<int32_t>(frame_of[c->region]);
      S[pos] = rel(c->start_ns);
      E[pos] = rel(c->end_ns);
      F[pos] = f;
      while (path.size() > d) {
        --on_path[path.back()];
        path.pop_back();
      }
      if (on_path[f]++ > 0) tl.nested_[pos >> 6] |= uint64_t{1} << (pos & 63);
      path.push_back(f);
    }
  });
}

// Per kChunk calls of each depth: the sum of their durations, and per frame
// present (in frame order) its calls and the covered time of those a call
// of the frame does not enclose.
void Timeline::Builder::summarize_chunks() {
  const std::size_t slots = tl.depth_begin_.size();
  std::vector<uint32_t> calls(tl.frames_.size(), 0);
  std::vector<int64_t> covered(tl.frames_.size(), 0);
  std::vector<int32_t> touched;
  tl.summary_begin_.push_back(0);
  for (std::size_t k = 0; k < slots; ++k) {
    tl.chunk_begin_.push_back(tl.summary_begin_.size() - 1);
    // A block's last slot marks its end (the next block's start): no calls.
    const uint64_t begin = tl.depth_begin_[k];
    const uint64_t stop = k + 1 < slots ? tl.depth_begin_[k + 1] : begin;
    for (uint64_t at = begin; at < stop; at += kChunk) {
      const uint64_t end = std::min<uint64_t>(stop, at + kChunk);
      for (uint64_t i = at; i < end; ++i) {
        const int32_t f = tl.frame_[i];
        if (calls[f]++ == 0) touched.push_back(f);
        if (!tl.nested(i)) covered[f] += std::max<int64_t>(0, tl.end_[i] - tl.start_[i]);
      }
      uint64_t durations = 0;  // wrapping, as int64 differences do
      for (uint64_t i = at; i < end; ++i) {
        durations += static_cast<uint64_t>(tl.end_[i]) - static_cast<uint64_t>(tl.start_[i]);
      }
      tl.chunk_duration_.push_back(static_cast<int64_t>(durations));
      std::sort(touched.begin(), touched.end());
      for (int32_t f : touched) {
        tl.summary_frame_.push_back(f);
        tl.summary_calls_.push_back(calls[f]);
        tl.summary_covered_.push_back(covered[f]);
        calls[f] = 0;
        covered[f] = 0;
      }
      touched.clear();
      tl.summary_begin_.push_back(tl.summary_frame_.size());
    }
  }
  tl.chunk_begin_.push_back(tl.summary_begin_.size() - 1);
}

// Where the frame changes within each depth (counted, then written: no slack).
void Timeline::Builder::index_frame_changes() {
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
        if (tl.frame_[i] != tl.frame_[i - 1])
          tl.changes_[filled++] = static_cast<uint32_t>(i - begin);
      }
    }
    tl.change_begin_.push_back(filled);
  }
}

// The lanes: the document's profiles.
void Timeline::Builder::describe_lanes() {
  const auto& profiles = selected.profiles();
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
    info.rank = profiles[p].rank;
    tl.lanes_.push_back(std::move(info));
  }
}

}  // namespace scope_speedscope
