// The pieces of a speedscope document that the streaming writer and the
// document builder share: frame numbering, origin and the event walk.
#pragma once

#include <cstdint>
#include <vector>

#include "reconstruct/calls.hpp"
#include "write/speedscope_writer.hpp"

namespace scope_speedscope::detail {

inline double seconds(int64_t ns) { return static_cast<double>(ns) / 1e9; }

// What the document needs before its first event: frames (region names
// numbered in order of first appearance, profile after profile, in call
// order), the origin (the earliest first call, in seconds; 0.0 when none)
// and each profile's first start and last root end.
struct DocumentPlan {
  std::vector<int64_t> frame_of_region;  // region -> frame, -1 when unseen
  std::vector<uint32_t> frame_regions;   // frame -> region
  double origin = 0.0;
  struct Bounds {
    bool any = false;
    int64_t first_start_ns = 0;
    int64_t last_root_end_ns = 0;
  };
  std::vector<Bounds> bounds;  // per profile
};

// plan_document a slice of calls at a time (the writer's first slices):
// step(calls) reads about that many more calls (whole blocks); true once
// the plan is complete. The profiles' calls must outlive it.
class DocumentPlanner {
 public:
  DocumentPlanner(std::size_t region_count, const std::vector<NamedCalls>& profiles)
      : profiles_(profiles) {
    plan_.frame_of_region.assign(region_count, -1);
  }
  bool step(uint64_t calls) {
    uint64_t read = 0;
    for (; at_ < profiles_.size(); ++at_) {
      const NamedCalls& p = profiles_[at_];
      const bool summarized = p.stream != nullptr && p.stream->summary().valid;
      if (summarized) {
        summarize(p);
      } else {
        if (!in_profile_) begin_profile(p);
        const Call* begin = nullptr;
        const Call* end = nullptr;
        while (next_block(p, begin, end)) {
          see_block(begin, end);
          read += static_cast<uint64_t>(end - begin);
          if (read >= calls) return false;
        }
      }
      end_profile();
    }
    return true;
  }
  DocumentPlan& plan() { return plan_; }

 private:
  void see_region(uint32_t region) {
    if (plan_.frame_of_region[region] < 0) {
      plan_.frame_of_region[region] = static_cast<int64_t>(plan_.frame_regions.size());
      plan_.frame_regions.push_back(region);
    }
  }
  void summarize(const NamedCalls& p) {  // read through once already
    b_ = DocumentPlan::Bounds{};
    if (p.stream->size() == 0) return;
    const CallStream::Summary& s = p.stream->summary();
    b_.any = true;
    b_.first_start_ns = s.first_start_ns;
    b_.last_root_end_ns = s.last_root_end_ns;
    for (uint32_t region : s.regions) see_region(region);
  }
  void begin_profile(const NamedCalls& p) {
    b_ = DocumentPlan::Bounds{};
    array_at_ = 0;
    if (p.stream != nullptr) p.stream->rewind();
    in_profile_ = true;
  }
  bool next_block(const NamedCalls& p, const Call*& begin, const Call*& end) {
    if (p.stream != nullptr) {
      if (block_.empty()) block_.resize(4096);
      const std::size_t n = p.stream->next(block_.data(), block_.size());
      begin = block_.data();
      end = begin + n;
      return n > 0;
    }
    if (array_at_ > 0) return false;  // an array is one block
    array_at_ = 1;
    begin = p.begin;
    end = p.end;
    return begin != end;
  }
  void see_block(const Call* begin, const Call* end) {
    if (!b_.any) {
      b_.any = true;
      b_.first_start_ns = begin->start_ns;
    }
    for (const Call* c = begin; c != end; ++c) {
      see_region(c->region);
      if (c->depth == 0) b_.last_root_end_ns = c->end_ns;
    }
  }
  void end_profile() {
    if (b_.any) {
      const double first = seconds(b_.first_start_ns);
      if (!any_ || first < plan_.origin) plan_.origin = first;
      any_ = true;
    }
    plan_.bounds.push_back(b_);
    in_profile_ = false;
  }

  const std::vector<NamedCalls>& profiles_;
  DocumentPlan plan_;
  DocumentPlan::Bounds b_;
  std::size_t at_ = 0, array_at_ = 0;
  bool in_profile_ = false, any_ = false;
  std::vector<Call> block_;
};

inline DocumentPlan plan_document(std::size_t region_count,
                                  const std::vector<NamedCalls>& profiles) {
  DocumentPlanner planner(region_count, profiles);
  planner.step(UINT64_MAX);
  return std::move(planner.plan());
}

// Turns calls in pre-order into open and close events: visit(true, call)
// when a call opens, visit(false, call) when it closes. Depth-first without
// recursion: a call closes when one at its depth or above comes, or at the
// end. Calls may come in blocks; the open ones are kept by value. (The stack
// grows by hand: in WebAssembly every call that may throw inside the loop
// costs a trip through JavaScript.)
class EventWalker {
 public:
  template <class Visit>
  void feed(const Call* begin, const Call* end, Visit&& visit) {
    for (const Call* c = begin; c != end; ++c) {
      while (top_ > c->depth) visit(false, stack_[--top_]);
      visit(true, *c);
      if (top_ == stack_.size()) stack_.resize(2 * top_ + 64);
      stack_[top_++] = *c;
    }
  }
  template <class Visit>
  void finish(Visit&& visit) {
    while (top_ > 0) visit(false, stack_[--top_]);
  }

 private:
  std::vector<Call> stack_;
  std::size_t top_ = 0;
};

// All events of one profile.
template <class Visit>
void walk_events(const NamedCalls& p, Visit&& visit) {
  EventWalker walker;
  for_each_block(p, [&](const Call* begin, const Call* end) { walker.feed(begin, end, visit); });
  walker.finish(visit);
}

}  // namespace scope_speedscope::detail
