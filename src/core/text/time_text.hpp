// text: times as people write them and as we show them. A point in time
// or a duration is a decimal number of seconds or a number with a unit; we
// show nanoseconds exactly, in the largest unit they reach.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace scope_speedscope {

// A point in time or a duration as text: a decimal number of seconds (1e-4,
// 0.5, 2, .25, 3e+2) or a number with a unit (500ns, 100us, 100µs, 2ms, 1s).
// No sign, no spaces inside. Returns nanoseconds rounded down (`round_up`
// false) or up, saturating at INT64_MAX; nullopt when the text is not one.
std::optional<int64_t> parse_time_ns(std::string_view text, bool round_up);
// The shortest decimal text of a double number of seconds (JavaScript's
// numbers), in the same grammar ("1e-07", "0.5"); empty for NaN, infinite or
// negative values.
std::string seconds_text(double seconds);

// Nanoseconds as exact text: "2ms", "1.5us", "1.25ns", "3.2s" (the largest
// unit the value reaches); as seconds: "2.5", "0.0015", "0".
std::string format_duration_ns(int64_t ns);
std::string format_seconds_ns(int64_t ns);
// A duration for a table: three significant digits in the largest unit it
// reaches, a space before the unit ("1.23 s", "45.6 ms", "789 ns", "0 ns").
std::string format_duration_short(double ns);

// Duration bins: edge j is R10[j % 10] * 10^(j / 10) ns (R10 = 1, 1.25, 1.6,
// 2, 2.5, 3.15, 4, 5, 6.3, 8; ten a decade from 1 ns to 8e18 ns).
constexpr int kDurationEdges = 190;
// Edge j as the smallest whole number of ns that reaches it (a call lasts at
// least edge j iff its duration in ns >= this).
int64_t duration_edge_ns(int j);
// Edge j as text: "1ns", "1.25ns", "31.5us", "2ms".
std::string duration_edge_text(int j);
double duration_edge_seconds(int j);

}  // namespace scope_speedscope
