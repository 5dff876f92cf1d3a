// reconstruct: the call order and the nesting, in one place. The call order
// (spec 3.3: start ascending, end descending, then the call's index in the
// regions' concatenation) is what every merge of rows follows; the stack pass
// gives each call, in that order, its depth (spec 3.4) and notices a call
// that starts inside an open call and ends after it (not nested).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "model/time.hpp"

namespace scope_speedscope {

// Whether call 1 comes before call 2 in the call order (k: index in the
// concatenation of the regions' rows).
inline bool call_before(int64_t start1, int64_t end1, uint64_t k1, int64_t start2, int64_t end2,
                        uint64_t k2) {
  if (start1 != start2) return start1 < start2;
  if (end1 != end2) return end1 > end2;
  return k1 < k2;
}

// A binary min-heap of the heads of sorted runs, for a k-way merge:
// `before(a, b)` orders heads. Take top(), then either replace it with its
// run's next head and call sifted(), or drop it with pop().
template <class Head, class Before>
class MergeHeap {
 public:
  explicit MergeHeap(Before before) : before_(std::move(before)) {}
  std::vector<Head>& heads() { return heads_; }  // fill, then start()
  void start() {
    size_ = heads_.size();
    for (std::size_t i = size_ / 2; i-- > 0;) sift_down(i);
  }
  bool empty() const { return size_ == 0; }
  Head& top() { return heads_[0]; }
  void sifted() { sift_down(0); }
  void pop() {
    heads_[0] = heads_[--size_];
    sift_down(0);
  }

 private:
  void sift_down(std::size_t i) {
    const Head moving = heads_[i];
    while (true) {
      std::size_t child = 2 * i + 1;
      if (child >= size_) break;
      if (child + 1 < size_ && before_(heads_[child + 1], heads_[child])) ++child;
      if (!before_(heads_[child], moving)) break;
      heads_[i] = heads_[child];
      i = child;
    }
    heads_[i] = moving;
  }
  Before before_;
  std::vector<Head> heads_;
  std::size_t size_ = 0;
};

// The depths of one lane's calls, fed in call order. Times are compared
// doubled, so that a call that does not last is open at its own start
// (2 * start < 2 * end + 1) and closed after it; int128: exact for every
// int64 time.
class StackPass {
 public:
  void reset() {
    top_ = 0;
    nested_ = true;
  }
  // The depth of the next call: how many calls are still open at its start.
  uint32_t depth_of(int64_t start, int64_t end) {
    const int128 s2 = int128{start} * 2;
    while (top_ > 0 && open_end_[top_ - 1] <= s2) --top_;
    const int128 e2 = int128{end} * 2 + (end == start ? 1 : 0);
    if (top_ > 0 && e2 > open_end_[top_ - 1]) nested_ = false;
    const auto depth = static_cast<uint32_t>(top_);
    if (top_ == open_end_.size()) open_end_.resize(2 * top_ + 64);
    open_end_[top_++] = e2;
    return depth;
  }
  // False once a call started inside an open call and ended after it.
  bool nested() const { return nested_; }

 private:
  std::vector<int128> open_end_;  // doubled ends of the open calls, innermost last
  std::size_t top_ = 0;
  bool nested_ = true;
};

}  // namespace scope_speedscope
