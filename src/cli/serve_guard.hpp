// serve's guards, asked of every request by both servers (the native
// cli/serve.cpp, and the Node CLI's src/js/engine-server.js through the
// wasm bindings): who may ask (the token), from where (Host and Origin),
// how much (the body) and for which file (no path leaves the page's
// folder). Pure functions over strings: no HTTP type reaches them, so the
// tests call them as they are.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace scope_speedscope::serve {

// The cookie that carries the token once the first URL was opened.
inline constexpr std::string_view kTokenCookie = "scope_speedscope_token";

// The largest request body: a request is a few fields (413 above).
inline constexpr uint64_t kMaxRequestBytes = 1 << 20;

// A new token: 32 random bytes (getentropy), as 64 hex digits.
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

// What check_request reads of a request: its headers as sent (absent:
// empty) and the URL's `token` parameter.
struct RequestHead {
  std::string_view host;
  std::string_view origin;
  std::string_view cookie;
  std::string_view token_param;
  bool chunked = false;  // a Transfer-Encoding header was sent
  uint64_t content_length = 0;
};

// The answer to a request's head: status 0 lets it through (set_cookie:
// answer with the token's cookie, the first URL was opened); else the
// status (403, 411, 413, 401) and the message of its JSON body.
struct Verdict {
  int status = 0;
  std::string message;
  bool set_cookie = false;
};

// Host, then Origin, then the body's length, then the token (when `token`
// is not empty: a server with a run): the one order both servers follow.
Verdict check_request(const RequestHead& head, std::string_view listen_host,
                      std::string_view token);

// The Set-Cookie value that carries `token`: HttpOnly and SameSite=Strict
// (issue 28's decision): no request another site starts carries it, a link
// followed from another site's page (a chat, a mail) included, which is
// answered 401; a link pasted into the address bar carries it.
std::string token_cookie(std::string_view token);

// A request path's file relative to the page's folder, percent-decoded
// ("a/b.js"; "" for "/"); `directory` when it ends with "/" (its
// index.html is meant). nullopt when a segment is not a plain name: "..",
// ".", empty, a backslash, an encoded "/", "\" or NUL.
struct WebPath {
  std::string relative;
  bool directory = false;
};
std::optional<WebPath> web_path(std::string_view target);

// The file of `root_real` (a real path: no symlink in it) that the request
// path `target` (the raw target, before any decoding, without its query)
// names: "/" and directories name their index.html. nullopt when the path
// is not one of the folder's files: a "..", "." or empty segment, a
// backslash, an encoded "/", "\" or NUL, a path that leaves the folder
// through a symlink, or no such regular file.
std::optional<std::string> web_file(const std::string& root_real, std::string_view target);

}  // namespace scope_speedscope::serve
