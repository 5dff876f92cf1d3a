// The pieces of a speedscope document that the streaming writer and the
// document builder share: frame numbering, origin and the event walk.
#pragma once

#include <cstdint>
#include <vector>

#include "call_stack.hpp"
#include "speedscope_writer.hpp"

namespace scope_speedscope::detail {

inline double seconds(int64_t ns) { return static_cast<double>(ns) / 1e9; }

// Frames are region names numbered in order of first appearance, profile
// after profile, in event order (which is call order).
struct FrameTable {
  std::vector<int64_t> of_region;  // region -> frame, -1 when unseen
  std::vector<uint32_t> regions;   // frame -> region
};

inline FrameTable assign_frames(std::size_t region_count, const std::vector<NamedCalls>& profiles) {
  FrameTable t;
  t.of_region.assign(region_count, -1);
  for (const NamedCalls& p : profiles) {
    for (const Call* c = p.begin; c != p.end; ++c) {
      if (t.of_region[c->region] < 0) {
        t.of_region[c->region] = static_cast<int64_t>(t.regions.size());
        t.regions.push_back(c->region);
      }
    }
  }
  return t;
}

// The earliest first call over all profiles, in seconds; 0.0 when none.
inline double document_origin(const std::vector<NamedCalls>& profiles) {
  bool any = false;
  double origin = 0.0;
  for (const NamedCalls& p : profiles) {
    if (p.begin == p.end) continue;
    const double first = seconds(p.begin->start_ns);
    if (!any || first < origin) origin = first;
    any = true;
  }
  return origin;
}

// Calls one lane's events in order: visit(true, call) when it opens,
// visit(false, call) when it closes. Depth-first without recursion: the
// calls are in pre-order, so a call closes when one at its depth or above
// comes, or at the end.
// (The stack grows by hand: in WebAssembly every call that may throw inside
// the loop costs a trip through JavaScript.)
template <class Visit>
void walk_events(const Call* begin, const Call* end, std::vector<const Call*>& stack, Visit&& visit) {
  std::size_t top = 0;
  for (const Call* c = begin; c != end; ++c) {
    while (top > c->depth) visit(false, *stack[--top]);
    visit(true, *c);
    if (top == stack.size()) stack.resize(2 * top + 64);
    stack[top++] = c;
  }
  while (top > 0) visit(false, *stack[--top]);
}

// The last event's call: the last root.
inline const Call* last_root(const Call* begin, const Call* end) {
  for (const Call* c = end; c != begin;) {
    --c;
    if (c->depth == 0) return c;
  }
  return nullptr;
}

}  // namespace scope_speedscope::detail
