// timeline (internal): searches over a depth's columns. At one depth of one
// lane calls never overlap, so starts, ends and covered ends all ascend, and
// "the calls before this one" is always a prefix.
#pragma once

#include <algorithm>
#include <cstddef>

namespace scope_speedscope::detail {

// The first index in [a, b) where pred is false (pred holds on a prefix).
template <class Pred>
std::size_t partition_index(std::size_t a, std::size_t b, Pred pred) {
  while (a < b) {
    const std::size_t mid = a + (b - a) / 2;
    if (pred(mid)) {
      a = mid + 1;
    } else {
      b = mid;
    }
  }
  return a;
}

// The same, searching from `a` outwards in growing steps: O(log distance).
template <class Pred>
std::size_t gallop_index(std::size_t a, std::size_t b, Pred pred) {
  std::size_t lo = a, probe = a, step = 1;
  while (probe < b && pred(probe)) {
    lo = probe + 1;
    probe = a + step;
    step <<= 1;
  }
  return partition_index(lo, std::min(probe, b), pred);
}

// The same, searching outwards from a guess in [a, b]: O(log of the
// guess's error), so a good guess touches one or two cache lines.
template <class Pred>
std::size_t gallop_from(std::size_t a, std::size_t b, std::size_t guess, Pred pred) {
  if (guess <= a) return gallop_index(a, b, pred);
  if (guess > b) guess = b;
  if (guess < b && pred(guess)) return gallop_index(guess + 1, b, pred);
  // The answer is at or before the guess: gallop back from it.
  std::size_t hi = guess, step = 1;
  while (true) {
    const std::size_t probe = hi - a > step ? hi - step : a;
    if (pred(probe)) return partition_index(probe + 1, hi, pred);
    hi = probe;
    if (probe == a) return a;
    step <<= 1;
  }
}

}  // namespace scope_speedscope::detail
