// write: the speedscope document as Python's json.dump writes it, streamed.
#define FMT_HEADER_ONLY 1
#include "speedscope_writer.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstring>

#include "event_walk.hpp"
#include "speedscope_format.hpp"

namespace scope_speedscope {

void append_python_float_repr(std::string& out, double value) {
  if (std::isnan(value)) {
    out += "nan";
    return;
  }
  if (std::isinf(value)) {
    out += value < 0 ? "-inf" : "inf";
    return;
  }
  // {fmt}'s shortest round-trip digits use the same positional/scientific
  // switch as Python's repr; Python adds ".0" to integral positional values.
  char buf[40];
  const auto end = fmt::format_to(buf, "{}", value);
  const std::size_t n = static_cast<std::size_t>(end - buf);
  out.append(buf, n);
  if (std::memchr(buf, '.', n) == nullptr && std::memchr(buf, 'e', n) == nullptr) out += ".0";
}

std::string python_float_repr(double value) {
  std::string out;
  append_python_float_repr(out, value);
  return out;
}

void append_json_string(std::string& out, std::string_view utf8) {
  static const char* hex = "0123456789abcdef";
  auto escape_unit = [&](uint32_t u) {
    out += "\\u";
    out += hex[(u >> 12) & 0xF];
    out += hex[(u >> 8) & 0xF];
    out += hex[(u >> 4) & 0xF];
    out += hex[u & 0xF];
  };
  out += '"';
  const auto* s = reinterpret_cast<const unsigned char*>(utf8.data());
  const std::size_t n = utf8.size();
  std::size_t i = 0;
  while (i < n) {
    const unsigned char c = s[i];
    if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    if (c < 0x80) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        default: escape_unit(c);
      }
      ++i;
      continue;
    }
    // Multi-byte UTF-8 (valid: the reader replaced invalid bytes).
    std::size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    if (i + len > n) len = n - i;
    uint32_t cp = len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
    for (std::size_t k = 1; k < len; ++k) cp = (cp << 6) | (s[i + k] & 0x3F);
    i += len;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      escape_unit(0xD800 + (cp >> 10));
      escape_unit(0xDC00 + (cp & 0x3FF));
    } else {
      escape_unit(cp);
    }
  }
  out += '"';
}

JsonOut::JsonOut(Sink& sink, std::size_t flush_size)
    : sink_(sink), flush_size_(flush_size == 0 ? 1 : flush_size) {
  buffer_.reserve(flush_size_ + 256);
}

JsonOut::~JsonOut() = default;

void JsonOut::integer(long long value) {
  char buf[24];
  const auto end = fmt::format_to(buf, "{}", value);
  buffer_.append(buf, static_cast<std::size_t>(end - buf));
  maybe_flush();
}

void JsonOut::flush_pieces() {
  std::size_t pos = 0;
  while (buffer_.size() - pos >= flush_size_) {
    sink_.write(buffer_.data() + pos, flush_size_);
    pos += flush_size_;
  }
  buffer_.erase(0, pos);
}

void JsonOut::flush() {
  flush_pieces();
  if (!buffer_.empty()) sink_.write(buffer_.data(), buffer_.size());
  buffer_.clear();
}

void write_speedscope_document(Sink& sink, const Run& run, std::string_view name,
                               const std::vector<NamedCalls>& profiles, std::size_t flush_size,
                               const Progress& progress) {
  const detail::FrameTable frames = detail::assign_frames(run.regions.size(), profiles);
  const double origin = detail::document_origin(profiles);
  uint64_t total_events = 0;
  for (const NamedCalls& p : profiles) total_events += 2 * static_cast<uint64_t>(p.end - p.begin);

  JsonOut out(sink, flush_size);
  out.raw("{\"$schema\": ");
  out.string(SCHEMA_URL);
  out.raw(", \"exporter\": ");
  out.string(std::string(EXPORTER_PREFIX) + VERSION);
  out.raw(", \"name\": ");
  out.string(name);
  out.raw(", \"activeProfileIndex\": 0, \"shared\": {\"frames\": [");
  for (std::size_t f = 0; f < frames.regions.size(); ++f) {
    out.raw(f == 0 ? "{\"name\": " : ", {\"name\": ");
    out.string(run.regions[frames.regions[f]].name);
    out.raw("}");
  }
  out.raw("]}, \"profiles\": [");

  std::vector<const Call*> stack;
  uint64_t done = 0;
  const uint64_t report_every = 1 << 20;
  uint64_t next_report = report_every;
  std::string& buf = out.buffer();
  for (std::size_t pi = 0; pi < profiles.size(); ++pi) {
    const NamedCalls& p = profiles[pi];
    const double start_value = p.begin == p.end ? 0.0 : detail::seconds(p.begin->start_ns) - origin;
    const Call* last = detail::last_root(p.begin, p.end);
    const double end_value = last == nullptr ? 0.0 : detail::seconds(last->end_ns) - origin;
    out.raw(pi == 0 ? "{\"type\": " : ", {\"type\": ");
    out.string(PROFILE_TYPE);
    out.raw(", \"name\": ");
    out.string(p.name);
    out.raw(", \"unit\": ");
    out.string(TIME_UNIT);
    out.raw(", \"startValue\": ");
    out.number(start_value);
    out.raw(", \"endValue\": ");
    out.number(end_value);
    out.raw(", \"events\": [");
    bool first = true;
    detail::walk_events(p.begin, p.end, stack, [&](bool open, const Call& c) {
      buf += first ? "{\"type\": \"" : ", {\"type\": \"";
      first = false;
      buf += open ? OPEN_EVENT : CLOSE_EVENT;
      buf += "\", \"frame\": ";
      char num[24];
      const auto e = fmt::format_to(num, "{}", frames.of_region[c.region]);
      buf.append(num, static_cast<std::size_t>(e - num));
      buf += ", \"at\": ";
      append_python_float_repr(buf, detail::seconds(open ? c.start_ns : c.end_ns) - origin);
      buf += '}';
      out.maybe_flush();
      if (progress && ++done >= next_report) {
        next_report += report_every;
        progress("write", done, total_events);
      }
    });
    out.raw("]}");
  }
  out.raw("]}");
  out.flush();
  if (progress) progress("write", total_events, total_events);
}

}  // namespace scope_speedscope
