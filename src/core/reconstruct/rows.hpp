// reconstruct (internal): the rows of one rank in concatenation order (spec
// 3.1): the kept regions in the given order, each region's calls in stored
// order; a call's index in that concatenation breaks ties of the call order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "model/run.hpp"

namespace scope_speedscope::detail {

struct Rows {
  struct Row {
    uint32_t region;   // index into run.regions
    uint64_t first_k;  // concatenation index of its first call
    uint64_t offset;   // first event in the run's columns
    uint64_t count;
  };
  std::vector<Row> rows;  // the rows with calls
  uint64_t size = 0;      // calls in all
  bool any_lane = false;  // the run has a lane column

  // The row holding concatenation index k.
  const Row& row_of(uint64_t k) const {
    auto it = std::upper_bound(rows.begin(), rows.end(), k,
                               [](uint64_t v, const Row& r) { return v < r.first_k; });
    return *(it - 1);
  }
};

Rows gather_rows(const Run& run, const std::vector<uint32_t>& regions, int64_t rank);

// Whether a row's calls are stored in call order already.
bool row_in_order(const Run& run, const Rows::Row& row);

// The distinct lanes of the rank's calls, ascending ({-1} without a lane column).
std::vector<int64_t> distinct_lanes(const Run& run, const Rows& rows);

}  // namespace scope_speedscope::detail
