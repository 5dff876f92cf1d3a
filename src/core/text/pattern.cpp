// Region filters on PCRE2 (see pattern.hpp).
#include "text/pattern.hpp"

#include <pcre2.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <new>
#include <vector>

#include "text/messages.hpp"
#include "text/unicode.hpp"

namespace scope_speedscope {
namespace {

// A cap on one match's backtracking, so that a catastrophic pattern fails
// with a message instead of hanging or exhausting memory (Python's re has
// no limit: it would run for hours). Set by us, the same in every build:
//   - steps: PCRE2's default match limit (each step is a few nanoseconds);
//   - depth: how many backtracking frames may be held at once. A frame's
//     size depends on the pointer size (half as large in 32-bit
//     WebAssembly), so a limit on frame memory alone let the wasm build
//     finish a match that the native build refused. The depth allowed is
//     what kFrameBudgetBytes holds of frames of their 64-bit size (a
//     formula, the same in both builds), and PCRE2's memory limit is set
//     above that, so the depth limit is always the one reached.
// "(x|y)*z" against a name of 1 MiB needs more than that: refused everywhere.
constexpr uint32_t kMatchLimit = 10'000'000;
constexpr uint64_t kFrameBudgetBytes = uint64_t{128} << 20;

// The size of one backtracking frame of PCRE2 10.42 (heapframe in
// pcre2_intmodedep.h) for 8-bit code units and 64-bit pointers: 128 bytes
// and two offsets of 8 bytes per capturing group.
uint64_t frame_bytes_64(uint32_t capture_groups) { return 128 + 16 * uint64_t{capture_groups}; }

bool is_hex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The pattern PCRE2 compiles, and for each of its bytes the byte of the
// user's pattern it came from (to report positions in the user's pattern).
struct Translation {
  std::string text;
  std::vector<std::size_t> origin;
  bool ascii = false;  // a global (?a): ASCII-only \w, \d, \s, \b

  void put(std::string_view s, std::size_t from) {
    text.append(s);
    origin.insert(origin.end(), s.size(), from);
  }
};

// Global flags at the very start: (?aiLmsux). 'a' and 'u' have no PCRE2
// letter: 'a' becomes a compile option, 'u' is the default anyway. Other
// letters are left to PCRE2 (it rejects 'L', as Python does for str).
// Returns where the rest of the pattern starts.
std::size_t translate_global_flags(const std::string& p, Translation& t) {
  if (p.compare(0, 2, "(?") != 0) return 0;
  std::size_t j = 2;
  while (j < p.size() && std::isalpha(static_cast<unsigned char>(p[j])) != 0) ++j;
  if (j == 2 || j >= p.size() || p[j] != ')') return 0;
  Translation kept;
  for (std::size_t k = 2; k < j; ++k) {
    if (p[k] == 'a') {
      t.ascii = true;
    } else if (p[k] != 'u') {
      kept.put(std::string_view(&p[k], 1), k);
    }
  }
  if (!kept.text.empty()) {
    t.put("(?", 0);
    t.put(kept.text, 0);
    std::copy(kept.origin.begin(), kept.origin.end(), t.origin.end() - kept.origin.size());
    t.put(")", j);
  }
  return j + 1;
}

// An escape at p[i] (a backslash and one more character, or a \\u or \\U
// code point); returns its length. \Z (outside a class) is
// PCRE2's \z, \v a vertical tab, \uXXXX and \UXXXXXXXX are \x{...}.
std::size_t translate_escape(const std::string& p, std::size_t i, bool in_class, Translation& t) {
  const char e = p[i + 1];
  if (e == 'Z' && !in_class) {
    t.put("\\z", i);
    return 2;
  }
  if (e == 'v') {
    t.put("\\x0b", i);
    return 2;
  }
  const std::size_t n = e == 'u' ? 4 : e == 'U' ? 8 : 0;
  if (n > 0 && i + 2 + n <= p.size()) {
    bool hex = true;
    for (std::size_t k = 0; k < n; ++k) hex = hex && is_hex(p[i + 2 + k]);
    if (hex) {
      t.put("\\x{" + p.substr(i + 2, n) + "}", i);
      return 2 + n;
    }
  }
  t.put(p.substr(i, 2), i);
  return 2;
}

// {,n} at p[i]: Python's "0 to n", which PCRE2 10.42 would read literally.
// Returns its length, or 0 when it is not one.
std::size_t translate_up_to(const std::string& p, std::size_t i, Translation& t) {
  if (!(p[i] == '{' && i + 2 < p.size() && p[i + 1] == ',' && is_digit(p[i + 2]))) return 0;
  std::size_t j = i + 2;
  while (j < p.size() && is_digit(p[j])) ++j;
  if (j >= p.size() || p[j] != '}') return 0;
  t.put("{0", i);
  t.put(p.substr(i + 1, j + 1 - (i + 1)), i + 1);
  return j + 1 - i;
}

// Python's spellings that PCRE2 reads differently or not at all.
Translation translate(const std::string& p) {
  Translation t;
  std::size_t i = translate_global_flags(p, t);
  bool in_class = false;
  bool class_start = false;  // just after '[' or '[^': ']' is a literal there
  while (i < p.size()) {
    const char c = p[i];
    if (c == '\\' && i + 1 < p.size()) {
      i += translate_escape(p, i, in_class, t);
      class_start = false;
      continue;
    }
    if (in_class) {
      if (c == ']' && !class_start) in_class = false;
      class_start = class_start && c == '^' && p[i - 1] == '[';
    } else if (c == '[') {
      in_class = true;
      class_start = true;
    } else if (const std::size_t n = translate_up_to(p, i, t); n > 0) {
      i += n;
      continue;
    }
    t.put(std::string_view(&p[i], 1), i);
    ++i;
  }
  t.origin.push_back(p.size());  // an error at the end
  return t;
}

// Characters (code points) before byte `byte` of `text`, as Python counts
// positions in a str.
std::size_t char_position(std::string_view text, std::size_t byte) {
  std::size_t chars = 0;
  for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++chars;
  }
  return chars;
}

std::string pcre2_message(int code) {
  PCRE2_UCHAR buffer[256];
  const int n = pcre2_get_error_message(code, buffer, sizeof buffer);
  if (n < 0) return "error " + std::to_string(code);
  return std::string(reinterpret_cast<const char*>(buffer), static_cast<std::size_t>(n));
}

struct CodeDeleter {
  void operator()(pcre2_code* p) const { pcre2_code_free(p); }
};
struct MatchDataDeleter {
  void operator()(pcre2_match_data* p) const { pcre2_match_data_free(p); }
};
struct MatchContextDeleter {
  void operator()(pcre2_match_context* p) const { pcre2_match_context_free(p); }
};
struct CompileContextDeleter {
  void operator()(pcre2_compile_context* p) const { pcre2_compile_context_free(p); }
};

}  // namespace

struct Pattern::Impl {
  std::unique_ptr<pcre2_code, CodeDeleter> code;
  std::unique_ptr<pcre2_match_data, MatchDataDeleter> match_data;
  std::unique_ptr<pcre2_match_context, MatchContextDeleter> match_context;
};

namespace {

// Compiles, or says why not through `detail` ("missing closing parenthesis
// at position 1").
std::unique_ptr<Pattern::Impl> compile(const std::string& pattern, std::string* detail);

// The pattern as the messages show it (a command-line argument may not be
// UTF-8).
MessageArgs pattern_args(const std::string& pattern, const char* key, const std::string& value) {
  return {{"pattern", utf8_decode_replace(pattern)}, {key, value}};
}

}  // namespace

Pattern::Pattern(const std::string& pattern) : text_(pattern) {
  std::string detail;
  impl_ = compile(pattern, &detail);
  if (!impl_) throw Error(Msg::invalid_regex, pattern_args(pattern, "detail", detail));
}

Pattern::~Pattern() = default;
Pattern::Pattern(Pattern&&) noexcept = default;
Pattern& Pattern::operator=(Pattern&&) noexcept = default;

bool Pattern::match_at_start(std::string_view text) const {
  const int rc =
      pcre2_match(impl_->code.get(), reinterpret_cast<PCRE2_SPTR>(text.data()), text.size(), 0, 0,
                  impl_->match_data.get(), impl_->match_context.get());
  if (rc >= 0) return true;
  if (rc == PCRE2_ERROR_NOMATCH) return false;
  if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_HEAPLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
      rc == PCRE2_ERROR_NOMEMORY) {
    throw Error(Msg::pattern_too_complex,
                pattern_args(text_, "length", std::to_string(char_position(text, text.size()))));
  }
  throw Error(Msg::pattern_match_failed, pattern_args(text_, "detail", pcre2_message(rc)));
}

namespace {

std::unique_ptr<Pattern::Impl> compile(const std::string& pattern, std::string* detail) {
  const Translation t = translate(pattern);
  std::unique_ptr<pcre2_compile_context, CompileContextDeleter> cc(
      pcre2_compile_context_create(nullptr));
  if (!cc) throw std::bad_alloc();
  pcre2_set_newline(cc.get(), PCRE2_NEWLINE_LF);
  uint32_t options = PCRE2_UTF | PCRE2_ANCHORED;
  if (!t.ascii) options |= PCRE2_UCP;
  int code = 0;
  PCRE2_SIZE offset = 0;
  auto impl = std::make_unique<Pattern::Impl>();
  impl->code.reset(pcre2_compile(reinterpret_cast<PCRE2_SPTR>(t.text.data()), t.text.size(),
                                 options, &code, &offset, cc.get()));
  if (!impl->code) {
    // A position inside the user's pattern: PCRE2's offset (in the
    // translated text) mapped back, in characters. A UTF-8 error's offset
    // is where the bad byte is.
    const std::size_t byte = t.origin[std::min<std::size_t>(offset, t.origin.size() - 1)];
    *detail = pcre2_message(code) + " at position " + std::to_string(char_position(pattern, byte));
    return nullptr;
  }
  impl->match_data.reset(pcre2_match_data_create(1, nullptr));
  impl->match_context.reset(pcre2_match_context_create(nullptr));
  if (!impl->match_data || !impl->match_context) throw std::bad_alloc();
  uint32_t groups = 0;
  pcre2_pattern_info(impl->code.get(), PCRE2_INFO_CAPTURECOUNT, &groups);
  uint64_t budget = kFrameBudgetBytes;
  // A pattern may lower PCRE2's memory limit itself ((*LIMIT_HEAP=n)): the
  // depth then follows that limit, again for 64-bit frames.
  uint32_t pattern_heap_kib = 0;
  if (pcre2_pattern_info(impl->code.get(), PCRE2_INFO_HEAPLIMIT, &pattern_heap_kib) == 0) {
    budget = std::min<uint64_t>(budget, uint64_t{pattern_heap_kib} * 1024);
  }
  // A frame at depth d is allocated before its depth is checked: d + 2
  // frames must fit.
  const uint64_t frames = budget / frame_bytes_64(groups);
  const uint64_t depth = frames > 2 ? frames - 2 : 0;
  pcre2_set_match_limit(impl->match_context.get(), kMatchLimit);
  pcre2_set_depth_limit(impl->match_context.get(),
                        static_cast<uint32_t>(std::min<uint64_t>(depth, UINT32_MAX)));
  // Room for those frames (however large they are in this build) and for
  // PCRE2's doubling of its frame vector.
  pcre2_set_heap_limit(impl->match_context.get(),
                       static_cast<uint32_t>((2 * kFrameBudgetBytes) / 1024 + 64));
  return impl;
}

}  // namespace

std::optional<std::string> check_pattern(const std::string& pattern) {
  std::string detail;
  if (compile(pattern, &detail)) return std::nullopt;
  return message_text(Msg::invalid_regex, pattern_args(pattern, "detail", detail));
}

}  // namespace scope_speedscope
