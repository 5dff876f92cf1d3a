// engine: the fields of a request (docs/engine-protocol.md), read and
// checked. A request is a JSON object; a field of the wrong type or out of
// range is an Error(bad_argument) naming it, as the package's checks word
// it; the values themselves (a lane beyond the timeline's, a reversed
// window) are judged by the core.
#pragma once

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "select/selection.hpp"
#include "text/messages.hpp"

namespace scope_speedscope::engine {

using nlohmann::json;

[[noreturn]] inline void refuse(const std::string& detail) {
  throw Error(Msg::bad_argument, {{"detail", "scope-speedscope engine: " + detail}});
}

inline const json& field(const json& r, const char* name) {
  static const json absent;
  const auto it = r.find(name);
  return it == r.end() ? absent : *it;
}

// options.<name>: true or false (absent or null: false).
inline bool flag_of(const json& options, const char* name) {
  const json& v = field(options, name);
  if (!v.is_null() && !v.is_boolean()) {
    refuse(std::string("'options.") + name + "' must be true or false");
  }
  return v.is_boolean() && v.get<bool>();
}

inline double number(const json& r, const char* name) {
  const json& v = field(r, name);
  if (!v.is_number()) refuse(std::string("'") + name + "' must be a number");
  return v.get<double>();
}

// A whole number from 0 (a lane, a width, a frame or a count); one too large
// for the core's parameter arrives as the largest it holds, which the core
// refuses all the same.
inline uint64_t whole(const json& v, const char* name) {
  if (!v.is_number() || !(v.get<double>() >= 0) || std::floor(v.get<double>()) != v.get<double>()) {
    refuse(std::string("'") + name + "' must be a whole number from 0");
  }
  const double d = v.get<double>();
  return d >= 1.8e19 ? UINT64_MAX : static_cast<uint64_t>(d);
}

inline uint32_t width_of(const json& r) {
  const uint64_t w = whole(field(r, "width"), "width");
  return w > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(w);
}

inline std::size_t lane_of(const json& v) {
  const uint64_t lane = whole(v, "lane");
  return lane > SIZE_MAX ? SIZE_MAX : static_cast<std::size_t>(lane);
}

inline std::vector<std::size_t> lanes_of(const json& v, const char* name) {
  if (!v.is_array()) refuse(std::string("'") + name + "' must be an array of lanes");
  std::vector<std::size_t> out;
  out.reserve(v.size());
  for (const json& lane : v) out.push_back(lane_of(lane));
  return out;
}

// A time in ns from the origin as int64, rounded down (or up), within
// +-2^62.
inline int64_t ns_of(double t, bool up) {
  constexpr double limit = 4611686018427387904.0;  // 2^62
  if (!(t > -limit)) return -static_cast<int64_t>(limit);
  if (!(t < limit)) return static_cast<int64_t>(limit);
  return static_cast<int64_t>(up ? std::ceil(t) : std::floor(t));
}

// [start, end) in whole ns: the whole ns it touches (an empty or reversed
// window stays one, so the core refuses it).
struct Window {
  int64_t start, end;
};
inline Window window_of(const json& r) {
  const double start = number(r, "start"), end = number(r, "end");
  return {ns_of(start, false), ns_of(end, end > start)};
}

inline std::optional<std::vector<std::string>> patterns_of(const json& v, const char* name) {
  if (v.is_null()) return std::nullopt;
  if (!v.is_array()) refuse(std::string("'") + name + "' must be an array of strings or null");
  std::vector<std::string> out;
  for (const json& p : v) {
    if (!p.is_string()) refuse(std::string("'") + name + "' must be an array of strings or null");
    out.push_back(p.get<std::string>());
  }
  return out;
}

// options.ranks: null (rank 0), "all", or rank numbers.
struct RankChoice {
  bool every_rank = false;
  std::optional<std::vector<int64_t>> ranks;
};
inline RankChoice ranks_of(const json& v) {
  RankChoice c;
  if (v.is_null()) return c;
  if (v.is_string()) {
    if (v.get<std::string>() != "all") refuse("'ranks' must be 'all' or an array of ranks");
    c.every_rank = true;
    return c;
  }
  if (!v.is_array()) refuse("'ranks' must be 'all' or an array of ranks");
  std::vector<int64_t> list;
  for (const json& r : v) {
    if (!r.is_number_integer()) refuse("'ranks' must be 'all' or an array of ranks");
    list.push_back(r.get<int64_t>());
  }
  c.ranks = std::move(list);
  return c;
}

}  // namespace scope_speedscope::engine
