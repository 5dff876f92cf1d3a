// Tests' check that two timelines are the same, column for column: the
// lanes, every call's start, end, frame and self time, the regions, the
// imbalance and the aligned calls over the whole run (one timeline made
// two ways: the columns taken over or copied, read whole or in groups).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "timeline/timeline.hpp"

namespace scope_speedscope::test {

inline void expect_same_timeline(const Timeline& got, const Timeline& want) {
  ASSERT_EQ(got.frames(), want.frames());
  ASSERT_EQ(got.origin_ns(), want.origin_ns());
  ASSERT_EQ(got.origin_in_run_ns(), want.origin_in_run_ns());
  ASSERT_EQ(got.lanes().size(), want.lanes().size());
  int64_t end = 1;
  for (std::size_t l = 0; l < want.lanes().size(); ++l) {
    const auto& a = got.lanes()[l];
    const auto& b = want.lanes()[l];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.calls, b.calls);
    EXPECT_EQ(a.max_depth, b.max_depth);
    EXPECT_EQ(a.start_ns, b.start_ns);
    EXPECT_EQ(a.end_ns, b.end_ns);
    EXPECT_EQ(a.rank, b.rank);
    end = std::max(end, b.end_ns + 1);
    for (uint32_t d = 0; d <= b.max_depth; ++d) {
      const Timeline::DepthView x = got.depth_view(l, d);
      const Timeline::DepthView y = want.depth_view(l, d);
      ASSERT_EQ(x.calls, y.calls) << "lane " << l << " depth " << d;
      for (std::size_t i = 0; i < y.calls; ++i) {
        ASSERT_EQ(x.start(i), y.start(i)) << "lane " << l << " depth " << d << " call " << i;
        ASSERT_EQ(x.end(i), y.end(i)) << "lane " << l << " depth " << d << " call " << i;
        ASSERT_EQ(x.frame(i), y.frame(i)) << "lane " << l << " depth " << d << " call " << i;
        ASSERT_EQ(got.self_ns(l, d, i), want.self_ns(l, d, i));
      }
    }
  }
  const auto ra = got.regions(-1, end), rb = want.regions(-1, end);
  ASSERT_EQ(ra.size(), rb.size());
  for (std::size_t i = 0; i < rb.size(); ++i) {
    EXPECT_EQ(ra[i].frame, rb[i].frame);
    EXPECT_EQ(ra[i].calls, rb[i].calls);
    EXPECT_EQ(ra[i].total_ns, rb[i].total_ns);
    EXPECT_EQ(ra[i].self_ns, rb[i].self_ns);
  }
  const auto ia = got.imbalance(-1, end), ib = want.imbalance(-1, end);
  ASSERT_EQ(ia.size(), ib.size());
  for (std::size_t i = 0; i < ib.size(); ++i) {
    EXPECT_EQ(ia[i].frame, ib[i].frame);
    EXPECT_EQ(ia[i].max_ns, ib[i].max_ns);
    EXPECT_EQ(ia[i].slowest_rank, ib[i].slowest_rank);
  }
  for (int32_t f = 0; f < static_cast<int32_t>(want.frames().size()); ++f) {
    EXPECT_EQ(got.aligned_calls(f, -1, end).start_ns, want.aligned_calls(f, -1, end).start_ns);
  }
}

}  // namespace scope_speedscope::test
