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

inline DocumentPlan plan_document(std::size_t region_count,
                                  const std::vector<NamedCalls>& profiles) {
  DocumentPlan plan;
  plan.frame_of_region.assign(region_count, -1);
  bool any = false;
  auto see_region = [&](uint32_t region) {
    if (plan.frame_of_region[region] < 0) {
      plan.frame_of_region[region] = static_cast<int64_t>(plan.frame_regions.size());
      plan.frame_regions.push_back(region);
    }
  };
  for (const NamedCalls& p : profiles) {
    DocumentPlan::Bounds b;
    const bool summarized = p.stream != nullptr && p.stream->summary().valid;
    if (summarized && p.stream->size() > 0) {  // read through once already
      const CallStream::Summary& s = p.stream->summary();
      b.any = true;
      b.first_start_ns = s.first_start_ns;
      b.last_root_end_ns = s.last_root_end_ns;
      for (uint32_t region : s.regions) see_region(region);
    }
    if (!summarized)
      for_each_block(p, [&](const Call* begin, const Call* end) {
        if (!b.any) {
          b.any = true;
          b.first_start_ns = begin->start_ns;
        }
        for (const Call* c = begin; c != end; ++c) {
          see_region(c->region);
          if (c->depth == 0) b.last_root_end_ns = c->end_ns;
        }
      });
    if (b.any) {
      const double first = seconds(b.first_start_ns);
      if (!any || first < plan.origin) plan.origin = first;
      any = true;
    }
    plan.bounds.push_back(b);
  }
  return plan;
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
