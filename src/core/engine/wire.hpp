// engine: the wire format of an answer (docs/engine-protocol.md, "Wire").
// A JSON header holds the answer's small fields; the answer's columns
// (bars, busy pixels, grid cells) follow it as raw little-endian arrays, so
// the page takes 10^5 bars without parsing one number of them and the same
// bytes go over postMessage from the wasm engine or over HTTP from the
// native one.
//   bytes 0-3      "SSE1"
//   bytes 4-7      the header's length H, uint32 little-endian
//   bytes 8..8+H   the header, UTF-8 JSON
//   zero bytes to a multiple of 8, then the columns, each at a multiple of 8
// In the header a column is {"$column": TYPE, "offset": O, "length": N}:
// TYPE one of float64, float32, int32, uint32; O bytes from the first
// column; N values. A number JSON cannot spell is {"$number": "NaN"},
// {"$number": "Infinity"} or {"$number": "-Infinity"}.
#pragma once

#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

namespace scope_speedscope {

inline constexpr std::string_view kWireMagic = "SSE1";

// A double as the header carries it (finite: a JSON number).
nlohmann::json wire_number(double x);

class WireAnswer {
 public:
  // The values as a column of the answer; returns its header entry.
  nlohmann::json column(const double* v, std::size_t n) { return add("float64", v, n); }
  nlohmann::json column(const float* v, std::size_t n) { return add("float32", v, n); }
  nlohmann::json column(const int32_t* v, std::size_t n) { return add("int32", v, n); }
  nlohmann::json column(const uint32_t* v, std::size_t n) { return add("uint32", v, n); }
  template <class T>
  nlohmann::json column(const std::vector<T>& v) {
    return column(v.data(), v.size());
  }
  // Integers (ns, counts, ranks) as float64: the page's numbers.
  template <class T>
  nlohmann::json doubles(const std::vector<T>& v) {
    std::vector<double> d(v.begin(), v.end());
    return column(d);
  }
  // The answer's bytes: `header` followed by the columns added.
  std::vector<uint8_t> finish(const nlohmann::json& header) const;

 private:
  template <class T>
  nlohmann::json add(const char* type, const T* v, std::size_t n) {
    const std::size_t offset = columns_.size();
    const std::size_t bytes = n * sizeof(T);
    columns_.resize(offset + ((bytes + 7) & ~std::size_t{7}), 0);
    if (bytes) std::memcpy(columns_.data() + offset, v, bytes);
    return {{"$column", type}, {"offset", offset}, {"length", n}};
  }
  std::vector<uint8_t> columns_;
};

// The header of an answer's bytes (the columns left as their entries), for
// tests and tools; throws std::runtime_error on bytes not in this format.
nlohmann::json wire_header(const std::vector<uint8_t>& answer);
// Column `entry` of `answer` as doubles (any of the four types).
std::vector<double> wire_column(const std::vector<uint8_t>& answer, const nlohmann::json& entry);

}  // namespace scope_speedscope
