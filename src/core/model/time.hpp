// model: times. A time is an int64 count of nanoseconds, any value (±2^63
// ns); the rules that add or double times do it here, without overflow.
#pragma once

#include <cstdint>

namespace scope_speedscope {

// Exact for the sum, difference or double of any two times.
using int128 = __int128;

// a + b, held at INT64_MAX or INT64_MIN where it would overflow.
inline int64_t saturating_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return b > 0 ? INT64_MAX : INT64_MIN;
  return r;
}

// a - b, held at INT64_MAX or INT64_MIN where it would overflow.
inline int64_t saturating_sub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) return b < 0 ? INT64_MAX : INT64_MIN;
  return r;
}

// The end of the time a call covers: a call that lasts covers [start, end),
// one that does not the instant [start, start + 1) (an empty span at
// INT64_MAX, the last instant there is). Every rule that asks whether a call
// is inside a window (the narrowing, the overview, the timeline's queries)
// asks this.
inline int64_t covered_end(int64_t start, int64_t end) {
  return end > start ? end : saturating_add(start, 1);
}

}  // namespace scope_speedscope
