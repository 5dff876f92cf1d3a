#include "cli/serve_guard.hpp"

#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <stdexcept>
#include <vector>

namespace scope_speedscope::serve {

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

// "name:port" or "[v6]:port" -> name ("[v6]" with its brackets); the port,
// when there is one, must be digits.
std::optional<std::string_view> host_name(std::string_view host) {
  std::size_t end = host.size();
  if (!host.empty() && host[0] == '[') {
    end = host.find(']');
    if (end == std::string_view::npos) return std::nullopt;
    ++end;
  } else {
    end = host.find(':');
    if (end == std::string_view::npos) end = host.size();
  }
  if (end < host.size()) {
    if (host[end] != ':' || end + 1 == host.size()) return std::nullopt;
    for (std::size_t i = end + 1; i < host.size(); ++i) {
      if (host[i] < '0' || host[i] > '9') return std::nullopt;
    }
  }
  if (end == 0) return std::nullopt;
  return host.substr(0, end);
}

// One path segment, percent-decoded; nullopt when it is not a plain name.
std::optional<std::string> segment_name(std::string_view raw) {
  std::string out;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (c == '%') {
      const int hi = i + 1 < raw.size() ? hex_value(raw[i + 1]) : -1;
      const int lo = i + 2 < raw.size() ? hex_value(raw[i + 2]) : -1;
      if (hi < 0 || lo < 0) return std::nullopt;
      c = static_cast<char>(hi * 16 + lo);
      i += 2;
    }
    if (c == '/' || c == '\\' || c == '\0') return std::nullopt;
    out.push_back(c);
  }
  if (out.empty() || out == "." || out == "..") return std::nullopt;
  return out;
}

bool is_regular(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool is_directory(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

std::string new_token() {
  unsigned char bytes[32];
  if (::getentropy(bytes, sizeof bytes) != 0) {
    throw std::runtime_error("serve: no random bytes for a token (getentropy failed)");
  }
  static const char digits[] = "0123456789abcdef";
  std::string token;
  for (const unsigned char b : bytes) {
    token.push_back(digits[b >> 4]);
    token.push_back(digits[b & 15]);
  }
  return token;
}

bool same_token(std::string_view given, std::string_view token) noexcept {
  if (token.empty()) return false;
  // Every byte of the token is compared whatever the given value holds.
  unsigned diff = given.size() == token.size() ? 0u : 1u;
  for (std::size_t i = 0; i < token.size(); ++i) {
    const char g = i < given.size() ? given[i] : 0;
    diff |= static_cast<unsigned char>(g ^ token[i]);
  }
  return diff == 0;
}

std::string cookie_value(std::string_view header, std::string_view name) {
  std::size_t at = 0;
  while (at < header.size()) {
    std::size_t end = header.find(';', at);
    if (end == std::string_view::npos) end = header.size();
    std::string_view pair = header.substr(at, end - at);
    while (!pair.empty() && pair.front() == ' ') pair.remove_prefix(1);
    const std::size_t eq = pair.find('=');
    if (eq != std::string_view::npos && pair.substr(0, eq) == name) {
      return std::string(pair.substr(eq + 1));
    }
    at = end + 1;
  }
  return {};
}

bool host_allowed(std::string_view host_header, std::string_view listen_host) {
  const auto name = host_name(host_header);
  if (!name) return false;
  for (const std::string_view local : {"127.0.0.1", "localhost", "[::1]"}) {
    if (equal_ignoring_case(*name, local)) return true;
  }
  if (listen_host.empty()) return false;
  // --host ::1 or [::1]; an IPv6 address is bracketed in a Host header.
  if (listen_host.find(':') != std::string_view::npos && listen_host.front() != '[') {
    return name->size() == listen_host.size() + 2 && name->front() == '[' &&
           equal_ignoring_case(name->substr(1, listen_host.size()), listen_host);
  }
  return equal_ignoring_case(*name, listen_host);
}

bool origin_allowed(std::string_view origin, std::string_view host_header) {
  if (origin.empty()) return true;
  constexpr std::string_view scheme = "http://";
  return origin.size() == scheme.size() + host_header.size() &&
         equal_ignoring_case(origin.substr(0, scheme.size()), scheme) &&
         equal_ignoring_case(origin.substr(scheme.size()), host_header);
}

Verdict check_request(const RequestHead& head, std::string_view listen_host,
                      std::string_view token) {
  if (!host_allowed(head.host, listen_host)) {
    return {403, "the Host header '" + std::string(head.host) + "' is not this server's"};
  }
  if (!origin_allowed(head.origin, head.host)) {
    return {403, "the Origin '" + std::string(head.origin) + "' is not this server's page"};
  }
  // A body is read only when its length is given and small (this is asked
  // before the body is read).
  if (head.chunked) return {411, "a request body needs a Content-Length (no chunked bodies)"};
  if (head.content_length > kMaxRequestBytes) return {413, "the request is larger than 1 MiB"};
  if (token.empty()) return {};
  if (same_token(head.token_param, token)) return {0, {}, true};
  if (same_token(cookie_value(head.cookie, kTokenCookie), token)) return {};
  return {401, "this server needs the token of the URL it printed"};
}

std::string token_cookie(std::string_view token) {
  return std::string(kTokenCookie) + "=" + std::string(token) +
         "; HttpOnly; SameSite=Strict; Path=/";
}

std::optional<WebPath> web_path(std::string_view target) {
  if (target.empty() || target.front() != '/') return std::nullopt;
  WebPath out;
  std::string_view rest = target.substr(1);
  out.directory = rest.empty();
  while (!rest.empty()) {
    const std::size_t slash = rest.find('/');
    const auto name = segment_name(rest.substr(0, slash));
    if (!name) return std::nullopt;
    if (!out.relative.empty()) out.relative += '/';
    out.relative += *name;
    if (slash == std::string_view::npos) break;
    rest.remove_prefix(slash + 1);
    out.directory = rest.empty();  // a trailing slash: that directory's index
  }
  return out;
}

std::optional<std::string> web_file(const std::string& root_real, std::string_view target) {
  const auto web = web_path(target);
  if (!web) return std::nullopt;
  std::string path = root_real;
  if (!web->relative.empty()) path += "/" + web->relative;
  if (web->directory || is_directory(path)) path += "/index.html";
  char resolved[PATH_MAX];
  if (!::realpath(path.c_str(), resolved)) return std::nullopt;
  const std::string real = resolved;
  if (real.size() <= root_real.size() || real.compare(0, root_real.size(), root_real) != 0 ||
      real[root_real.size()] != '/') {
    return std::nullopt;  // out of the folder (a symlink)
  }
  if (!is_regular(real)) return std::nullopt;
  return real;
}

}  // namespace scope_speedscope::serve
