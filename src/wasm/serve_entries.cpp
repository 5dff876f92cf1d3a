// wasm: serve's guards (cli/serve_guard.hpp) and runs (cli/serve_runs.hpp)
// for the Node CLI's server (src/js/engine-server.js): the same verdicts,
// the same grouping of the files and the same inputs as the native serve's,
// from the same code.
#include <optional>

#include "cli/serve_guard.hpp"
#include "cli/serve_runs.hpp"
#include "entries.hpp"
#include "js_io.hpp"

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

// files: the served files as prepared inputs (their names the paths as
// given); vs_at: how many come before `vs` (negative: no vs). The plan's
// JSON text (sv::plan_json), or the error opening them together.
val serve_plan(val files, double vs_at) {
  return guarded([&] {
    const auto n = files["length"].as<std::size_t>();
    std::vector<std::string> names;
    for (std::size_t i = 0; i < n; ++i) names.push_back(files[i]["name"].as<std::string>());
    std::optional<std::size_t> vs;
    if (vs_at >= 0) vs = static_cast<std::size_t>(vs_at);
    const sv::ServedRuns runs = sv::plan_served(names, vs, [&files](std::size_t i) {
      return read_input(files[i], ss::Progress(), ss::ReadPlan(ss::ReadDepth::index));
    });
    return val(sv::plan_json(runs).dump());
  });
}

// One request of a served page: its inputs the served files sv::served_file
// names (the request's "served" field, or by position in the plan's
// layout). The answer's bytes, as engine_dispatch gives them.
val serve_dispatch(std::string request, val files, double a_files, bool compare, val sink) {
  sv::ServedLayout layout;
  layout.files = files["length"].as<std::size_t>();
  layout.a_files = static_cast<std::size_t>(a_files);
  layout.compare = compare;
  const nlohmann::json r = nlohmann::json::parse(request, nullptr, false);
  ss::EngineIo io;
  io.read = [&](const std::string& which, const ss::Progress& progress, const ss::ReadPlan& plan) {
    return read_input(files[sv::served_file(layout, r, which)], progress, plan);
  };
  return dispatch_with(request, std::move(io), sink);
}

// What makes two opens the same timeline ("" for a request that opens none).
std::string serve_open_key(std::string request) {
  return sv::open_key(nlohmann::json::parse(request, nullptr, false));
}

}  // namespace scope_speedscope::wasm
