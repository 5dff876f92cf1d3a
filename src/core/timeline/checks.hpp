// timeline (internal): the argument checks of the queries, in one place; the
// package and the page ask the module, which asks these.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace scope_speedscope::detail {

[[noreturn]] void bad_argument(const std::string& detail);
// Error(bad_argument) unless end > start.
void check_window(const char* what, int64_t start, int64_t end);
// Error(bad_argument) unless 1 <= width <= kTimelineMaxWidth.
void check_width(uint32_t width);
// The median of v, the mean of the middle two for an even count (0 when
// empty); reorders v. Cannot throw, so a loop calling it needs no
// exception landing pad (in WebAssembly a call that may throw goes through
// JavaScript).
double median_of(int64_t* v, std::size_t n) noexcept;
double median_of(std::vector<int64_t>& v) noexcept;

}  // namespace scope_speedscope::detail
