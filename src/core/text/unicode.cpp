#include "text/unicode.hpp"

#include <algorithm>
#include <iterator>

namespace scope_speedscope {
namespace {

struct CodePointRange {
  uint32_t first;
  uint32_t last;
};

#include "text/unicode_tables.inc"

template <std::size_t N>
bool in_ranges(const CodePointRange (&ranges)[N], uint32_t cp) {
  auto it = std::upper_bound(std::begin(ranges), std::end(ranges), cp,
                             [](uint32_t v, const CodePointRange& r) { return v < r.first; });
  if (it == std::begin(ranges)) return false;
  --it;
  return cp <= it->last;
}

bool is_continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

}  // namespace

bool is_alnum(uint32_t cp) { return in_ranges(kAlnumRanges, cp); }
bool is_printable(uint32_t cp) { return in_ranges(kPrintableRanges, cp); }

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

std::string utf8_decode_replace(std::string_view bytes) {
  const auto* s = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t n = bytes.size();
  std::string out;
  out.reserve(n);
  std::size_t i = 0;
  while (i < n) {
    const unsigned char c = s[i];
    if (c < 0x80) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    std::size_t need;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      need = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      need = 2;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      need = 3;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    } else {
      append_utf8(out, 0xFFFD);
      ++i;
      continue;
    }
    std::size_t j = 1;
    bool ok = true;
    for (; j <= need; ++j) {
      if (i + j >= n) {
        ok = false;
        break;
      }
      const unsigned char d = s[i + j];
      const bool valid = (j == 1) ? (d >= lo && d <= hi) : is_continuation(d);
      if (!valid) {
        ok = false;
        break;
      }
    }
    if (ok) {
      out.append(bytes.substr(i, need + 1));
      i += need + 1;
    } else {
      append_utf8(out, 0xFFFD);  // one for the maximal valid prefix
      i += j;
    }
  }
  return out;
}

uint32_t next_code_point(std::string_view text, std::size_t& i) {
  const auto c = static_cast<unsigned char>(text[i]);
  std::size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
  if (i + len > text.size()) len = text.size() - i;
  uint32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
  for (std::size_t k = 1; k < len; ++k) {
    cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
  }
  i += len;
  return cp;
}

std::string python_str_repr(std::string_view utf8) {
  const bool has_single = utf8.find('\'') != std::string_view::npos;
  const bool has_double = utf8.find('"') != std::string_view::npos;
  const char quote = (has_single && !has_double) ? '"' : '\'';
  static const char* hex = "0123456789abcdef";
  std::string out(1, quote);
  std::size_t i = 0;
  while (i < utf8.size()) {
    const uint32_t cp = next_code_point(utf8, i);
    if (cp == static_cast<uint32_t>(quote) || cp == '\\') {
      out += '\\';
      out += static_cast<char>(cp);
    } else if (cp == '\t') {
      out += "\\t";
    } else if (cp == '\n') {
      out += "\\n";
    } else if (cp == '\r') {
      out += "\\r";
    } else if (cp < 0x80 ? (cp < 0x20 || cp == 0x7F) : !is_printable(cp)) {
      int digits;
      if (cp < 0x100) {
        out += "\\x";
        digits = 2;
      } else if (cp < 0x10000) {
        out += "\\u";
        digits = 4;
      } else {
        out += "\\U";
        digits = 8;
      }
      for (int d = digits - 1; d >= 0; --d) out += hex[(cp >> (4 * d)) & 0xF];
    } else {
      append_utf8(out, cp);
    }
  }
  out += quote;
  return out;
}

}  // namespace scope_speedscope
