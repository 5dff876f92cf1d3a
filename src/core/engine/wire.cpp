// engine: the wire format of an answer (wire.hpp).
#include "engine/wire.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace scope_speedscope {

nlohmann::json wire_number(double x) {
  if (std::isfinite(x)) return x;
  return {{"$number", std::isnan(x) ? "NaN" : x > 0 ? "Infinity" : "-Infinity"}};
}

namespace {

std::size_t header_end(std::size_t length) { return (8 + length + 7) & ~std::size_t{7}; }

uint32_t header_length(const std::vector<uint8_t>& answer) {
  if (answer.size() < 8 ||
      std::string_view(reinterpret_cast<const char*>(answer.data()), 4) != kWireMagic) {
    throw std::runtime_error("not an engine answer (no SSE1 magic)");
  }
  uint32_t n = 0;
  for (int i = 3; i >= 0; --i) n = (n << 8) | answer[4 + i];
  if (answer.size() < 8 + std::size_t{n}) throw std::runtime_error("engine answer cut short");
  return n;
}

template <class T>
std::vector<double> values(const uint8_t* at, std::size_t n) {
  std::vector<double> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    T v;
    std::memcpy(&v, at + i * sizeof(T), sizeof(T));
    out[i] = static_cast<double>(v);
  }
  return out;
}

}  // namespace

std::vector<uint8_t> WireAnswer::finish(const nlohmann::json& header) const {
  const std::string text = header.dump();
  const std::size_t first = header_end(text.size());
  std::vector<uint8_t> out(first + columns_.size(), 0);
  std::memcpy(out.data(), kWireMagic.data(), 4);
  for (int i = 0; i < 4; ++i) out[4 + i] = static_cast<uint8_t>(text.size() >> (8 * i));
  std::memcpy(out.data() + 8, text.data(), text.size());
  if (!columns_.empty()) std::memcpy(out.data() + first, columns_.data(), columns_.size());
  return out;
}

nlohmann::json wire_header(const std::vector<uint8_t>& answer) {
  const uint32_t n = header_length(answer);
  return nlohmann::json::parse(answer.begin() + 8, answer.begin() + 8 + n);
}

std::vector<double> wire_column(const std::vector<uint8_t>& answer, const nlohmann::json& entry) {
  const std::size_t first = header_end(header_length(answer));
  const std::string type = entry.at("$column").get<std::string>();
  const auto offset = entry.at("offset").get<std::size_t>();
  const auto n = entry.at("length").get<std::size_t>();
  const std::size_t size = type == "float64" ? 8 : 4;
  if (first + offset + n * size > answer.size()) throw std::runtime_error("column out of bounds");
  const uint8_t* at = answer.data() + first + offset;
  if (type == "float64") return values<double>(at, n);
  if (type == "float32") return values<float>(at, n);
  if (type == "int32") return values<int32_t>(at, n);
  if (type == "uint32") return values<uint32_t>(at, n);
  throw std::runtime_error("unknown column type " + type);
}

}  // namespace scope_speedscope
