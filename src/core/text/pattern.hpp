// Region filters: Python regular expressions (re.match: anchored at the
// start of the name only) matched by PCRE2, which does not recurse on the
// machine stack and speaks most of Python's dialect. PCRE2 types stay in
// pattern.cpp.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace scope_speedscope {

// One compiled pattern. Python spellings PCRE2 lacks are translated first:
// \Z (end of string) -> \z, \v -> \x0b, \uXXXX and \UXXXXXXXX -> \x{...},
// {,n} -> {0,n}, and global inline flags (?a) (ASCII classes) and (?u)
// (the default). Matching is Unicode-aware (\w, \d, \s, \b, case folding),
// '.' and '$' treat only "\n" as a line end, like Python's re on str.
class Pattern {
 public:
  // Throws Error(ErrorKind::pattern, messages::invalid_pattern(...)).
  explicit Pattern(const std::string& pattern);
  ~Pattern();
  Pattern(Pattern&&) noexcept;
  Pattern& operator=(Pattern&&) noexcept;

  // re.match(pattern, text) is not None. `text` must be valid UTF-8. Throws
  // Error(ErrorKind::pattern) when the match needs more work or memory than
  // the limits allow (catastrophic backtracking).
  bool match_at_start(std::string_view text) const;

  const std::string& text() const { return text_; }

  struct Impl;  // PCRE2's compiled code and match data (pattern.cpp)

 private:
  std::string text_;
  std::unique_ptr<Impl> impl_;
};

// The message compiling `pattern` fails with, or nullopt when it compiles.
// The page validates its filter fields with this, through the module.
std::optional<std::string> check_pattern(const std::string& pattern);

}  // namespace scope_speedscope
