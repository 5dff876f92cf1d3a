// serve's guards (cli/serve.cpp asks them of every request): who may ask
// (the token), from where (Host and Origin) and for which file (no path
// leaves the page's folder). Pure functions over strings: no HTTP type
// reaches them, so the tests call them as they are.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace scope_speedscope::serve {

// The cookie that carries the token once the first URL was opened.
inline constexpr std::string_view kTokenCookie = "scope_speedscope_token";

// A new token: 32 random bytes (getrandom), as 64 hex digits.
std::string new_token();

// Whether `given` is `token`, in time that does not depend on where they
// differ (an empty token never matches).
bool same_token(std::string_view given, std::string_view token) noexcept;

// The value of cookie `name` in a Cookie header ("" when absent).
std::string cookie_value(std::string_view header, std::string_view name);

// Whether a Host header names this server: 127.0.0.1, localhost or [::1]
// on any port (an SSH tunnel changes the port), or `listen_host` (the
// --host address; empty: none more).
bool host_allowed(std::string_view host_header, std::string_view listen_host);

// Whether an Origin header (absent: empty) is this server's: absent, or
// http://<the Host header>.
bool origin_allowed(std::string_view origin, std::string_view host_header);

// The file of `root_real` (a real path: no symlink in it) that the request
// path `target` (the raw target, before any decoding, without its query)
// names: "/" and directories name their index.html. nullopt when the path
// is not one of the folder's files: a "..", "." or empty segment, a
// backslash, an encoded "/", "\" or NUL, a path that leaves the folder
// through a symlink, or no such regular file.
std::optional<std::string> web_file(const std::string& root_real, std::string_view target);

}  // namespace scope_speedscope::serve
