// `scope-speedscope serve [FILE... [vs FILE...]]`: the page (dist/web) and,
// with files, the native engine that answers it (cli/serve_engine.hpp)
// over their runs (cli/serve_runs.hpp: a run, a job, two compared), over
// HTTP (cpp-httplib) on 127.0.0.1. The guards (cli/serve_guard.hpp) run
// before every route: Host and Origin (403), then the token (401).
//   GET  /engine/run   {protocol, version, engine, runs: [{name, size,
//                      info}], compare, sides}
//   POST /engine       a request of docs/engine-protocol.md -> its wire answer
//                      (convert, timeline-export: JSON {type, outputs: [{url,
//                      fileName, size, calls}]}, each document at its url)
//   GET  /engine/download/ID   a written document, once
//   GET  /...          the page's files
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace scope_speedscope::serve {

struct ServeOptions {
  std::vector<std::string> runs;  // the files; none: the page alone
  // How many files come before `vs` (nullopt: no vs).
  std::optional<std::size_t> vs_at;
  std::optional<int> port;  // nullopt: 8080, else a free one
  std::string host;         // "" : 127.0.0.1
  std::string web_dir;      // "" : dist/web next to the build
};

// Serves until SIGINT or SIGTERM; returns the exit status (1 when a file
// cannot be opened, files are not one job, the page cannot be had, or the
// port cannot be bound: said on stderr, before any URL).
int serve_command(const ServeOptions& options);

}  // namespace scope_speedscope::serve
