// wasm: serve's guards (cli/serve_guard.hpp) for the Node CLI's server
// (src/js/engine-server.js): the same verdicts as the native serve's, from
// the same code.
#include "cli/serve_guard.hpp"
#include "entries.hpp"

namespace scope_speedscope::wasm {

namespace sv = scope_speedscope::serve;

// head: {host, origin, cookie, token, chunked, contentLength} (strings as
// sent, "" when absent). Returns {status, message, setCookie}: setCookie is
// the Set-Cookie value to answer with ("" for none).
val serve_check(val head, std::string listen_host, std::string token) {
  const auto text = [&head](const char* key) {
    const val v = head[key];
    return v.isString() ? v.as<std::string>() : std::string();
  };
  const std::string host = text("host"), origin = text("origin"), cookie = text("cookie"),
                    given = text("token");
  sv::RequestHead h{host, origin, cookie, given};
  h.chunked = head["chunked"].as<bool>();
  const double length = head["contentLength"].isNumber() ? head["contentLength"].as<double>() : 0;
  h.content_length = length > 0 ? static_cast<uint64_t>(length) : 0;
  const sv::Verdict v = sv::check_request(h, listen_host, token);
  val out = val::object();
  out.set("status", v.status);
  out.set("message", v.message);
  out.set("setCookie", v.set_cookie ? sv::token_cookie(token) : std::string());
  return out;
}

// {relative, directory}, or null when the path is not one of a folder's.
val serve_web_path(std::string target) {
  const auto p = sv::web_path(target);
  if (!p) return val::null();
  val out = val::object();
  out.set("relative", p->relative);
  out.set("directory", p->directory);
  return out;
}

std::string serve_new_token() { return sv::new_token(); }

double serve_max_request_bytes() { return static_cast<double>(sv::kMaxRequestBytes); }

}  // namespace scope_speedscope::wasm
