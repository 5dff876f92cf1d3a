// write: the speedscope document as Python's json.dump writes it, streamed.
#define FMT_HEADER_ONLY 1
#include "write/speedscope_writer.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstring>

#include "write/document_plan.hpp"
#include "write/speedscope_format.hpp"

namespace scope_speedscope {

namespace {

// Writes decimal digits of v (v > 0 or the single digit 0) ending at `end`;
// returns the first.
char* digits_backwards(char* end, uint64_t v) {
  static constexpr char kPairs[] =
      "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
      "8081828384858687888990919293949596979899";
  while (v >= 100) {
    const auto pair = static_cast<std::size_t>(v % 100) * 2;
    v /= 100;
    end -= 2;
    end[0] = kPairs[pair];
    end[1] = kPairs[pair + 1];
  }
  if (v >= 10) {
    const auto pair = static_cast<std::size_t>(v) * 2;
    end -= 2;
    end[0] = kPairs[pair];
    end[1] = kPairs[pair + 1];
  } else {
    *--end = static_cast<char>('0' + v);
  }
  return end;
}

// Python's repr(float) of a finite double into out (at least 64 bytes).
// Shortest round-trip digits come from {fmt}'s Dragonbox; the layout is
// Python's: positional when -4 < decpt <= 16 (always with a '.'), else
// d[.ddd]e[+-]XX.
std::size_t write_float_repr(char* out, double value) {
  char* p = out;
  if (std::signbit(value)) {
    *p++ = '-';
    value = -value;
  }
  if (value == 0.0) {
    std::memcpy(p, "0.0", 3);
    return static_cast<std::size_t>(p + 3 - out);
  }
  const auto dec = fmt::detail::dragonbox::to_decimal(value);
  // Fixed-size copies (inlined moves) from and to buffers with slack: the
  // caller's buffer has room for 32 more bytes than any repr needs.
  char digits_buf[48];
  char* const digits_end = digits_buf + 24;
  const char* digits = digits_backwards(digits_end, dec.significand);
  const int n = static_cast<int>(digits_end - digits);
  const int decpt = n + dec.exponent;
  if (decpt > -4 && decpt <= 16) {
    if (decpt <= 0) {
      static constexpr char kZeros[] = "0.000000";
      std::memcpy(p, kZeros, 8);
      p += 2 - decpt;
      std::memcpy(p, digits, 24);
      p += n;
    } else if (decpt >= n) {
      std::memcpy(p, digits, 24);
      p += n;
      for (int i = n; i < decpt; ++i) *p++ = '0';
      *p++ = '.';
      *p++ = '0';
    } else {
      std::memcpy(p, digits, 24);  // then open a gap for the '.'
      std::memmove(p + decpt + 1, p + decpt, 24);
      p[decpt] = '.';
      p += n + 1;
    }
  } else {
    *p++ = digits[0];
    if (n > 1) {
      *p++ = '.';
      std::memcpy(p, digits + 1, 24);
      p += n - 1;
    }
    int e = decpt - 1;
    *p++ = 'e';
    *p++ = e < 0 ? '-' : '+';
    if (e < 0) e = -e;
    if (e < 10) *p++ = '0';
    char exp_buf[8];
    char* const exp_end = exp_buf + sizeof exp_buf;
    const char* exp_digits = digits_backwards(exp_end, static_cast<uint64_t>(e));
    while (exp_digits != exp_end) *p++ = *exp_digits++;
  }
  return static_cast<std::size_t>(p - out);
}

}  // namespace

void append_python_float_repr(std::string& out, double value) {
  if (std::isnan(value)) {
    out += "nan";
    return;
  }
  if (std::isinf(value)) {
    out += value < 0 ? "-inf" : "inf";
    return;
  }
  char buf[64];
  out.append(buf, write_float_repr(buf, value));
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
    : sink_(sink),
      flush_size_(flush_size == 0 ? 1 : flush_size),
      data_(new char[flush_size_ + kSlack]) {}

JsonOut::~JsonOut() = default;

void JsonOut::append(const char* text, std::size_t size) {
  while (size > 0) {
    const std::size_t room = flush_size_ + kSlack - size_;
    const std::size_t n = std::min(room, size);
    std::memcpy(data_.get() + size_, text, n);
    size_ += n;
    text += n;
    size -= n;
    if (size_ >= flush_size_) flush_pieces();
  }
}

void JsonOut::string(std::string_view utf8) {
  std::string quoted;
  append_json_string(quoted, utf8);
  append(quoted.data(), quoted.size());
}

void JsonOut::number(double value) {
  std::string text;
  append_python_float_repr(text, value);
  append(text.data(), text.size());
}

void JsonOut::integer(long long value) {
  const std::string text = std::to_string(value);
  append(text.data(), text.size());
}

void JsonOut::flush_pieces() {
  std::size_t pos = 0;
  while (size_ - pos >= flush_size_) {
    sink_.write(data_.get() + pos, flush_size_);
    pos += flush_size_;
  }
  std::memmove(data_.get(), data_.get() + pos, size_ - pos);
  size_ -= pos;
}

void JsonOut::flush() {
  flush_pieces();
  if (size_ > 0) sink_.write(data_.get(), size_);
  size_ = 0;
}

namespace {

// `, "key": ` (or `{"key": ` for an object's first key): Python's separators.
void key(JsonOut& out, const char* name, bool first) {
  out.raw(first ? "{" : ", ");
  out.string(name);
  out.raw(": ");
}

// {"$schema": ..., "exporter": ..., "name": ..., "activeProfileIndex": 0,
//  "shared": {"frames": [...]}, "profiles": [   (keys::document, in order)
// A frame: {"name": ...} and, with `sources`, "file" and "line" when known.
void write_frame(JsonOut& out, const Run& run, const Region& region, bool sources) {
  key(out, keys::frame[0], true);
  out.string(region.name);
  const SourceLocation* s = sources ? region_source(run, region) : nullptr;
  if (s != nullptr && !s->file.empty()) {
    key(out, keys::frame_source[0], false);
    out.string(s->file);
  }
  if (s != nullptr && s->line >= 0) {
    key(out, keys::frame_source[1], false);
    out.integer(s->line);
  }
  out.raw("}");
}

void write_head(JsonOut& out, const Run& run, std::string_view name,
                const detail::DocumentPlan& plan, bool sources) {
  key(out, keys::document[0], true);
  out.string(SCHEMA_URL);
  key(out, keys::document[1], false);
  out.string(std::string(EXPORTER_PREFIX) + VERSION);
  key(out, keys::document[2], false);
  out.string(name);
  key(out, keys::document[3], false);
  out.integer(0);
  key(out, keys::document[4], false);
  key(out, keys::shared[0], true);
  out.raw("[");
  for (std::size_t f = 0; f < plan.frame_regions.size(); ++f) {
    if (f > 0) out.raw(", ");
    write_frame(out, run, run.regions[plan.frame_regions[f]], sources);
  }
  out.raw("]}");
  key(out, keys::document[5], false);
  out.raw("[");
}

// Events composed in place in the buffer: the hot path of the writer
// (fixed-size copies of kEventHead and kEventAt).
class EventWriter {
 public:
  EventWriter(JsonOut& out, const detail::DocumentPlan& plan) : out_(out), plan_(plan) {}
  void write(bool first, bool open, const Call& c) {
    constexpr std::size_t kHeadLen = sizeof kEventHead - 1;
    constexpr std::size_t kAtLen = sizeof kEventAt - 1;
    char* e = out_.cursor();
    if (!first) {
      *e++ = ',';
      *e++ = ' ';
    }
    std::memcpy(e, kEventHead, kHeadLen);
    e[kEventKindAt] = open ? OPEN_EVENT[0] : CLOSE_EVENT[0];
    e += kHeadLen;
    char num[48];
    char* const num_end = num + 24;
    const char* frame_digits =
        digits_backwards(num_end, static_cast<uint64_t>(plan_.frame_of_region[c.region]));
    std::memcpy(e, frame_digits, 24);
    e += num_end - frame_digits;
    std::memcpy(e, kEventAt, kAtLen);
    e += kAtLen;
    e += write_float_repr(e, detail::seconds(open ? c.start_ns : c.end_ns) - plan_.origin);
    *e++ = '}';
    out_.advance(e);
  }

 private:
  JsonOut& out_;
  const detail::DocumentPlan& plan_;
};

// {"type": "evented", "name": ..., "unit": "seconds", "startValue": ...,
//  "endValue": ..., "events": [   (keys::profile, in order)
void write_profile_head(JsonOut& out, const NamedCalls& p,
                        const detail::DocumentPlan::Bounds& bounds, double origin) {
  key(out, keys::profile[0], true);
  out.string(PROFILE_TYPE);
  key(out, keys::profile[1], false);
  out.string(p.name);
  key(out, keys::profile[2], false);
  out.string(TIME_UNIT);
  key(out, keys::profile[3], false);
  out.number(bounds.any ? detail::seconds(bounds.first_start_ns) - origin : 0.0);
  key(out, keys::profile[4], false);
  out.number(bounds.any ? detail::seconds(bounds.last_root_end_ns) - origin : 0.0);
  key(out, keys::profile[5], false);
  out.raw("[");
}

}  // namespace

struct DocumentWriter::State {
  State(Sink& sink, const Run& r, std::string n, std::vector<NamedCalls> p, std::size_t flush_size,
        Progress pr, bool sources)
      : run(r),
        name(std::move(n)),
        profiles(std::move(p)),
        planner(run.regions.size(), profiles),
        out(sink, flush_size),
        events(out, planner.plan()),
        progress(std::move(pr)),
        frame_sources(sources) {
    for (const NamedCalls& q : profiles) {
      total += 2 * (q.stream ? q.stream->size() : static_cast<uint64_t>(q.end - q.begin));
    }
  }
  // The next block of the profile being written (calls [begin, end)); false at its end.
  bool next_block(const NamedCalls& p, const Call*& begin, const Call*& end) {
    if (p.stream != nullptr) {
      const std::size_t n = p.stream->next(block.data(), block.size());
      begin = block.data();
      end = begin + n;
      return n > 0;
    }
    const auto rest = static_cast<std::size_t>(p.end - p.begin) - array_at;
    const std::size_t n = std::min(rest, block.size());
    begin = p.begin + array_at;
    end = begin + n;
    array_at += n;
    return n > 0;
  }
  void begin_profile() {
    if (profile > 0) out.raw(", ");
    const detail::DocumentPlan& plan = planner.plan();
    write_profile_head(out, profiles[profile], plan.bounds[profile], plan.origin);
    first = true;
    walker = detail::EventWalker{};
    array_at = 0;
    if (profiles[profile].stream != nullptr) profiles[profile].stream->rewind();
    in_profile = true;
  }

  const Run& run;
  std::string name;
  std::vector<NamedCalls> profiles;
  detail::DocumentPlanner planner;  // then its plan, complete once `planned`
  JsonOut out;
  EventWriter events;
  Progress progress;
  bool frame_sources;
  uint64_t total = 0, done = 0, next_report = uint64_t{1} << 20;
  bool planned = false, head_written = false, in_profile = false, first = true, complete = false;
  std::size_t profile = 0, array_at = 0;
  detail::EventWalker walker;
  std::vector<Call> block = std::vector<Call>(4096);
};

DocumentWriter::DocumentWriter(Sink& sink, const Run& run, std::string name,
                               std::vector<NamedCalls> profiles, std::size_t flush_size,
                               Progress progress, bool frame_sources)
    : s_(std::make_unique<State>(sink, run, std::move(name), std::move(profiles), flush_size,
                                 std::move(progress), frame_sources)) {}

DocumentWriter::~DocumentWriter() = default;

uint64_t DocumentWriter::done() const { return s_->done; }
uint64_t DocumentWriter::total() const { return s_->total; }

bool DocumentWriter::write(uint64_t events) {
  State& s = *s_;
  if (s.complete) return true;
  if (!s.planned) {  // a slice of planning (frames, origin) costs about as much as one of writing
    if (!s.planner.step(events / 2 + 1)) return false;
    s.planned = true;
  }
  if (!s.head_written) {
    write_head(s.out, s.run, s.name, s.planner.plan(), s.frame_sources);
    s.head_written = true;
  }
  const auto visit = [&s](bool open, const Call& c) {
    s.events.write(s.first, open, c);
    s.first = false;
    if (++s.done >= s.next_report && s.progress) {
      s.next_report += uint64_t{1} << 20;
      s.progress("write", s.done, s.total);
    }
  };
  uint64_t written = 0;
  for (; s.profile < s.profiles.size(); ++s.profile) {
    if (!s.in_profile) s.begin_profile();
    const Call* begin = nullptr;
    const Call* end = nullptr;
    while (true) {
      if (written >= events) return false;
      if (!s.next_block(s.profiles[s.profile], begin, end)) break;
      s.walker.feed(begin, end, visit);
      written += 2 * static_cast<uint64_t>(end - begin);
    }
    s.walker.finish(visit);
    s.out.raw("]}");
    s.in_profile = false;
  }
  s.out.raw("]}");
  s.out.flush();
  if (s.progress) s.progress("write", s.total, s.total);
  s.complete = true;
  return true;
}

void write_speedscope_document(Sink& sink, const Run& run, std::string_view name,
                               const std::vector<NamedCalls>& profiles, std::size_t flush_size,
                               const Progress& progress, bool frame_sources) {
  DocumentWriter writer(sink, run, std::string(name), profiles, flush_size, progress,
                        frame_sources);
  writer.write(UINT64_MAX);
}

}  // namespace scope_speedscope
