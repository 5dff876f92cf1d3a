#include "cli/serve.hpp"

#include <httplib.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "cli/serve_engine.hpp"
#include "cli/serve_guard.hpp"
#include "engine/engine.hpp"
#include "text/messages.hpp"

namespace scope_speedscope::serve {

namespace {

using nlohmann::json;

const char* content_type(const std::string& path) {
  static const std::pair<const char*, const char*> types[] = {
      {".html", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".json", "application/json"},
      {".webmanifest", "application/manifest+json"},
      {".wasm", "application/wasm"},
      {".png", "image/png"},
      {".ico", "image/x-icon"},
      {".svg", "image/svg+xml"},
      {".woff2", "font/woff2"},
      {".ttf", "font/ttf"},
      {".txt", "text/plain; charset=utf-8"},
      {".md", "text/plain; charset=utf-8"},
      {".h5", "application/octet-stream"},
  };
  for (const auto& [ext, type] : types) {
    const std::string e = ext;
    if (path.size() >= e.size() && path.compare(path.size() - e.size(), e.size(), e) == 0)
      return type;
  }
  return "application/octet-stream";
}

void refuse(httplib::Response& res, int status, const std::string& message) {
  res.status = status;
  res.set_header("Cache-Control", "no-store");
  res.set_content(json{{"type", "error"}, {"status", status}, {"message", message}}.dump(),
                  "application/json");
}

// The page's folder: --web DIR, else dist/web of the repository this
// build lives in (build/native/scope-speedscope -> dist/web).
std::string web_root(const ServeOptions& o) {
  std::string dir = o.web_dir;
  if (dir.empty()) {
    char exe[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
    std::string here = n > 0 ? std::string(exe, static_cast<std::size_t>(n)) : std::string(".");
    here = here.substr(0, here.find_last_of('/'));
    dir = here + "/../../dist/web";
  }
  char real[PATH_MAX];
  const std::string index = dir + "/index.html";
  if (!::realpath(dir.c_str(), real) || ::access(index.c_str(), R_OK) != 0) {
    throw std::runtime_error("the page is not built (no " + index +
                             "): run npm run build in the repository, or give --web DIR");
  }
  return real;
}

struct Served {
  ServeOptions options;
  std::string root;
  std::string token;  // empty: the page alone, no token asked
  std::unique_ptr<EngineHost> engine;
};

// Host, Origin, the body's length, then the token (and its cookie, on the
// first URL): serve_guard's one verdict.
httplib::Server::HandlerResponse guard(const Served& s, const httplib::Request& req,
                                       httplib::Response& res) {
  const std::string host = req.get_header_value("Host");
  const std::string origin = req.get_header_value("Origin");
  const std::string cookie = req.get_header_value("Cookie");
  const std::string token = req.get_param_value("token");
  RequestHead head{host, origin, cookie, token};
  head.chunked = req.has_header("Transfer-Encoding");
  head.content_length = req.get_header_value<uint64_t>("Content-Length");
  const Verdict v = check_request(head, s.options.host, s.token);
  if (v.status != 0) {
    refuse(res, v.status, v.message);
    return httplib::Server::HandlerResponse::Handled;
  }
  if (v.set_cookie) res.set_header("Set-Cookie", token_cookie(s.token));
  return httplib::Server::HandlerResponse::Unhandled;
}

void run_info(const Served& s, httplib::Response& res) {
  json body = {{"runs", json::array()}, {"compare", false}, {"sides", json::array()}};
  if (s.engine) {
    std::vector<std::string> names;
    std::vector<uint64_t> sizes;
    for (const std::string& run : s.engine->runs()) {
      struct stat st {};
      names.push_back(run.substr(run.find_last_of('/') + 1));
      sizes.push_back(::stat(run.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0);
    }
    body = runs_json(s.engine->served(), names, sizes);
  }
  body["protocol"] = kEngineProtocol;
  body["version"] = SCOPE_SPEEDSCOPE_VERSION;
  body["engine"] = "native";
  res.set_header("Cache-Control", "no-store");
  res.set_content(body.dump(), "application/json");
}

// An answer that wrote documents is JSON naming them; the client fetches
// each (GET engine/download/ID, once).
void engine_request(Served& s, const httplib::Request& req, httplib::Response& res) {
  if (!s.engine) return refuse(res, 404, "no run is open: serve was started without one");
  const std::string id = req.get_header_value("X-Scope-Request");
  if (!id.empty() && !EngineHost::watch_id_ok(id)) {
    return refuse(res, 400, "X-Scope-Request must be 1 to 64 hex digits");
  }
  Answer a = s.engine->ask(req.body, id);
  res.set_header("Cache-Control", "no-store");
  if (a.downloads.empty()) {
    res.status = a.bad_request ? 400 : 200;
    res.set_content(std::string(a.bytes.begin(), a.bytes.end()), "application/octet-stream");
    return;
  }
  json outputs = json::array();
  for (const auto& [id, d] : a.downloads) {
    outputs.push_back({{"url", "engine/download/" + id},
                       {"fileName", d->name},
                       {"size", d->size},
                       {"calls", d->calls}});
  }
  res.set_content(json{{"type", "result"}, {"outputs", outputs}}.dump(), "application/json");
}

// A named request's progress while it waits or runs (asking it keeps the
// request wanted: engine/progress/ID), or its cancellation.
void watch_request(Served& s, const httplib::Request& req, httplib::Response& res, bool cancel) {
  if (!s.engine) return refuse(res, 404, "no run is open: serve was started without one");
  const std::string id = req.matches[1];
  res.set_header("Cache-Control", "no-store");
  if (cancel) {
    if (!s.engine->cancel(id)) return refuse(res, 404, "no such request is waiting or running");
    res.set_content("{}", "application/json");
    return;
  }
  const json p = s.engine->progress(id);
  if (p.is_null()) return refuse(res, 404, "no such request is waiting or running");
  res.set_content(p.dump(), "application/json");
}

// A written document, streamed from its temporary file (removed after).
void download(Served& s, const httplib::Request& req, httplib::Response& res) {
  std::shared_ptr<Download> d = s.engine ? s.engine->take_download(req.matches[1]) : nullptr;
  if (!d) return refuse(res, 404, "no such download (each is given once)");
  auto file = std::make_shared<std::ifstream>(d->path, std::ios::binary);
  res.set_header("Cache-Control", "no-store");
  res.set_content_provider(
      d->size, "application/json",
      [file, d](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
        static constexpr std::size_t kPiece = 1 << 20;
        std::vector<char> buf(std::min(length, kPiece));
        file->seekg(static_cast<std::streamoff>(offset));
        file->read(buf.data(), static_cast<std::streamsize>(buf.size()));
        const auto got = static_cast<std::size_t>(file->gcount());
        return got > 0 && sink.write(buf.data(), got);
      },
      [file, d](bool) { file->close(); });
}

void static_file(const Served& s, const httplib::Request& req, httplib::Response& res) {
  const std::string target = req.target.substr(0, req.target.find('?'));
  const auto path = web_file(s.root, target);
  if (!path) return refuse(res, 404, "no such file of the page: " + req.path);
  std::ifstream in(*path, std::ios::binary);
  std::ostringstream body;
  body << in.rdbuf();
  res.set_header("Cache-Control", "no-cache");
  res.set_content(body.str(), content_type(*path));
}

void route(httplib::Server& svr, Served& s) {
  svr.set_payload_max_length(static_cast<std::size_t>(kMaxRequestBytes));
  // An answer is written as its head, then its body: without TCP_NODELAY
  // Nagle's algorithm holds the body until the client's delayed ACK
  // (40 ms on Linux), each query's latency.
  svr.set_tcp_nodelay(true);
  svr.set_pre_routing_handler(
      [&s](const httplib::Request& req, httplib::Response& res) { return guard(s, req, res); });
  svr.Get("/engine/run",
          [&s](const httplib::Request&, httplib::Response& res) { run_info(s, res); });
  svr.Post("/engine", [&s](const httplib::Request& req, httplib::Response& res) {
    engine_request(s, req, res);
  });
  svr.Get("/engine/progress/([0-9a-f]{1,64})",
          [&s](const httplib::Request& req, httplib::Response& res) {
            watch_request(s, req, res, false);
          });
  svr.Post("/engine/cancel/([0-9a-f]{1,64})",
           [&s](const httplib::Request& req, httplib::Response& res) {
             watch_request(s, req, res, true);
           });
  svr.Get("/engine/download/([0-9a-f]+)",
          [&s](const httplib::Request& req, httplib::Response& res) { download(s, req, res); });
  svr.Get(".*",
          [&s](const httplib::Request& req, httplib::Response& res) { static_file(s, req, res); });
  // Statuses the library sets itself (413, 400, 405...) get a JSON body too.
  svr.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return;
    const std::string words = res.status == 413   ? "the request is larger than 1 MiB"
                              : res.status == 404 ? "not found"
                              : res.status == 405 ? "this method is not served"
                                                  : "the request is malformed";
    refuse(res, res.status, words);
  });
  svr.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
        std::string what = "internal error";
        try {
          std::rethrow_exception(ep);
        } catch (const std::exception& e) {
          what = e.what();
        } catch (...) {
        }
        refuse(res, 500, what);
      });
}

bool loopback(const std::string& host) {
  return host.empty() || host == "127.0.0.1" || host == "localhost" || host == "::1" ||
         host == "[::1]";
}

// Binds as asked: --port N (0: any free one), else 8080, else a free one.
int bind(httplib::Server& svr, const ServeOptions& o, const std::string& host) {
  if (o.port && *o.port == 0) return svr.bind_to_any_port(host);
  if (o.port) return svr.bind_to_port(host, *o.port) ? *o.port : -1;
  if (svr.bind_to_port(host, 8080)) return 8080;
  return svr.bind_to_any_port(host);
}

std::string url_of(const std::string& host, int port, const std::string& token) {
  std::string name = host;
  if (host == "0.0.0.0" || host == "::" || host.empty()) name = "127.0.0.1";
  if (name.find(':') != std::string::npos && name.front() != '[') name = "[" + name + "]";
  std::string url = "http://" + name + ":" + std::to_string(port) + "/";
  if (!token.empty()) url += "?token=" + token;
  return url;
}

}  // namespace

int serve_command(const ServeOptions& options) {
  Served s;
  s.options = options;
  try {
    // The files first: one that cannot be opened, or files that are not
    // one job, is the message to give, whether or not the page is built.
    if (!options.runs.empty()) {
      s.engine = std::make_unique<EngineHost>(options.runs, options.vs_at);
      s.engine->check_runs();
      s.token = new_token();
    }
    s.root = web_root(options);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 1;
  }
  // SIGINT and SIGTERM are taken by one thread (sigwait), which stops the
  // server: blocked here, before the library starts its threads.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  httplib::Server svr;
  route(svr, s);
  const std::string host = options.host.empty() ? "127.0.0.1" : options.host;
  const int port = bind(svr, options, host);
  if (port <= 0) {
    std::cerr << "error: cannot listen on " << host
              << (options.port ? ":" + std::to_string(*options.port) : std::string()) << '\n';
    return 1;
  }
  if (!loopback(options.host)) {
    std::cerr << "warning: listening on " << host
              << ": other machines can reach this server (the token still guards it)\n";
  }
  std::atomic<bool> signalled{false}, listened{false};
  std::thread stopper([&svr, &s, &signalled, &listened, stop_signals] {
    int sig = 0;
    sigwait(&stop_signals, &sig);
    signalled = true;
    // Requests still running stop at their next progress.
    if (s.engine) s.engine->stop();
    // A signal right after the URL was printed may come before the server
    // listens, when stop() would do nothing.
    while (!svr.is_running() && !listened)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    svr.stop();
  });
  if (s.engine) {
    std::cout << "Serving " << s.engine->served().names << " in the native engine at "
              << url_of(host, port, s.token) << "\nPress Ctrl+C to stop.\n"
              << std::flush;
  } else {
    std::cout << "Serving the scope-speedscope page at " << url_of(host, port, "")
              << "\nPress Ctrl+C to stop.\n"
              << std::flush;
  }
  if (s.engine) {
    s.engine->open_ahead([](uint64_t calls, double seconds) {
      char line[160];
      std::snprintf(line, sizeof line, "Every rank is open (%llu calls, %.1f s).\n",
                    static_cast<unsigned long long>(calls), seconds);
      std::cout << line << std::flush;
    });
  }
  svr.listen_after_bind();
  listened = true;
  // Stopped otherwise (a listening error): wake the thread (the signal is
  // blocked everywhere, so only its sigwait takes it).
  if (!signalled) ::kill(::getpid(), SIGTERM);
  stopper.join();
  return 0;
}

}  // namespace scope_speedscope::serve
