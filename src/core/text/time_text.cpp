// text: times as people write them ("0.5", "1e-4", "500ns", "2ms") and as
// we show them, exactly, in integer nanoseconds (see time_text.hpp).
#include "text/time_text.hpp"

#include <cmath>
#include <cstdio>

#include "write/speedscope_writer.hpp"

namespace scope_speedscope {

namespace {

// value = digits * 10^exp10 ns; digits without leading zeros ("" is zero).
struct Decimal {
  std::string digits;
  long exp10 = 0;
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::optional<Decimal> parse_decimal(std::string_view text) {
  std::size_t i = 0;
  Decimal d;
  std::string digits;
  long frac_digits = 0;
  bool any = false;
  while (i < text.size() && is_digit(text[i])) {
    digits += text[i++];
    any = true;
  }
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && is_digit(text[i])) {
      digits += text[i++];
      ++frac_digits;
      any = true;
    }
  }
  if (!any) return std::nullopt;
  long exponent = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
    if (i == text.size() || !is_digit(text[i])) return std::nullopt;
    while (i < text.size() && is_digit(text[i])) {
      if (exponent < 100000) exponent = exponent * 10 + (text[i] - '0');
      ++i;
    }
    if (negative) exponent = -exponent;
  }
  const std::string_view unit = text.substr(i);
  long unit_exp;
  if (unit.empty() || unit == "s") {
    unit_exp = 9;
  } else if (unit == "ms") {
    unit_exp = 6;
  } else if (unit == "us" || unit == "\xc2\xb5s" ||
             unit == "\xce\xbcs") {  // us, µs (micro sign), μs (mu)
    unit_exp = 3;
  } else if (unit == "ns") {
    unit_exp = 0;
  } else {
    return std::nullopt;
  }
  const auto first = digits.find_first_not_of('0');
  d.digits = first == std::string::npos ? "" : digits.substr(first);
  d.exp10 = exponent - frac_digits + unit_exp;
  return d;
}

int64_t to_ns(const Decimal& d, bool round_up) {
  if (d.digits.empty()) return 0;
  const long n = static_cast<long>(d.digits.size());
  std::string whole;
  bool fraction = false;
  if (d.exp10 >= 0) {
    if (n + d.exp10 > 19) return INT64_MAX;
    whole = d.digits + std::string(static_cast<std::size_t>(d.exp10), '0');
  } else {
    const long drop = -d.exp10;
    if (drop >= n) {
      whole = "0";
      fraction = true;  // digits are not all zero
    } else {
      whole = d.digits.substr(0, static_cast<std::size_t>(n - drop));
      fraction =
          d.digits.find_first_not_of('0', static_cast<std::size_t>(n - drop)) != std::string::npos;
    }
    if (whole.size() > 19) return INT64_MAX;
  }
  uint64_t v = 0;
  for (char c : whole) v = v * 10 + static_cast<uint64_t>(c - '0');
  if (v > static_cast<uint64_t>(INT64_MAX)) return INT64_MAX;
  int64_t ns = static_cast<int64_t>(v);
  if (fraction && round_up && ns < INT64_MAX) ++ns;
  return ns;
}

// digits (an integer, no sign) / 10^scale as a decimal without trailing zeros.
std::string decimal_text(std::string digits, int scale) {
  if (scale <= 0) return digits + std::string(static_cast<std::size_t>(-scale), '0');
  if (digits.size() <= static_cast<std::size_t>(scale)) {
    digits = std::string(static_cast<std::size_t>(scale) + 1 - digits.size(), '0') + digits;
  }
  std::string out =
      digits.substr(0, digits.size() - scale) + "." + digits.substr(digits.size() - scale);
  while (out.back() == '0') out.pop_back();
  if (out.back() == '.') out.pop_back();
  return out;
}

// `digits` ns (no leading zeros) with the largest unit it reaches.
std::string duration_text(const std::string& digits) {
  if (digits.empty()) return "0ns";
  const std::size_t n = digits.size();
  if (n >= 10) return decimal_text(digits, 9) + "s";
  if (n >= 7) return decimal_text(digits, 6) + "ms";
  if (n >= 4) return decimal_text(digits, 3) + "us";
  return digits + "ns";
}

}  // namespace

std::optional<int64_t> parse_time_ns(std::string_view text, bool round_up) {
  const auto d = parse_decimal(text);
  if (!d) return std::nullopt;
  return to_ns(*d, round_up);
}

std::string seconds_text(double seconds) {
  if (!std::isfinite(seconds) || std::signbit(seconds)) return "";
  return python_float_repr(seconds);  // shortest round-trip digits: "0.002", "1e-07"
}

std::string format_duration_ns(int64_t ns) {
  if (ns < 0) return "-" + duration_text(std::to_string(0 - static_cast<uint64_t>(ns)));
  return duration_text(ns == 0 ? std::string() : std::to_string(ns));
}

std::string format_duration_short(double ns) {
  const char* sign = ns < 0 ? "-" : "";
  double v = std::fabs(ns);
  static const char* const kUnits[] = {"ns", "us", "ms", "s"};
  int unit = 0;
  while (unit < 3 && v >= 999.5) {
    v /= 1000;
    ++unit;
  }
  char text[64];
  const int decimals = v >= 99.95 ? 0 : v >= 9.995 ? 1 : 2;
  std::snprintf(text, sizeof text, "%s%.*f %s", sign, unit == 0 ? 0 : decimals, v, kUnits[unit]);
  return text;
}

std::string format_seconds_ns(int64_t ns) {
  if (ns < 0) return "-" + decimal_text(std::to_string(0 - static_cast<uint64_t>(ns)), 9);
  return decimal_text(std::to_string(ns), 9);
}

namespace {
constexpr int kR10[10] = {100, 125, 160, 200, 250, 315, 400, 500, 630, 800};  // x 1/100

// R10[j % 10] * 10^(j / 10) as the digits of that many hundredths of a ns.
std::string edge_hundredths(int j) {
  return std::to_string(kR10[j % 10]) + std::string(static_cast<std::size_t>(j / 10), '0');
}
}  // namespace

int64_t duration_edge_ns(int j) {
  Decimal d;
  d.digits = edge_hundredths(j);
  d.exp10 = -2;
  return to_ns(d, true);
}

std::string duration_edge_text(int j) {
  // Hundredths of a ns, shown in the largest unit the value reaches.
  const std::string h = edge_hundredths(j);
  const std::size_t whole_ns_digits = h.size() - 2;
  if (whole_ns_digits >= 10) return decimal_text(h, 11) + "s";
  if (whole_ns_digits >= 7) return decimal_text(h, 8) + "ms";
  if (whole_ns_digits >= 4) return decimal_text(h, 5) + "us";
  return decimal_text(h, 2) + "ns";
}

double duration_edge_seconds(int j) {
  return static_cast<double>(kR10[j % 10]) * std::pow(10.0, j / 10) / 1e11;
}

}  // namespace scope_speedscope
