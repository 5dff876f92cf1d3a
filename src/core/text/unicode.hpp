// The few pieces of Python's text handling the output depends on.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace scope_speedscope {

// bytes.decode("utf-8", errors="replace"): each maximal invalid subpart
// becomes U+FFFD.
std::string utf8_decode_replace(std::string_view bytes);

// Decodes the code point at text[i] of valid UTF-8 and advances i.
uint32_t next_code_point(std::string_view text, std::size_t& i);
void append_utf8(std::string& out, uint32_t cp);

// Python's str.isalnum() and str.isprintable() for one character.
bool is_alnum(uint32_t cp);
bool is_printable(uint32_t cp);

// Python's repr(str): 'name', "it's", 'tab\t', '\x00', 'é'.
std::string python_str_repr(std::string_view utf8);

}  // namespace scope_speedscope
