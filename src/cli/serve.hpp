// `scope-speedscope serve [RUN.h5 [OTHER.h5]]`: the page (dist/web) and,
// with a run, the native engine that answers it (cli/serve_engine.hpp),
// over HTTP (cpp-httplib) on 127.0.0.1. The guards (cli/serve_guard.hpp)
// run before every route: Host and Origin (403), then the token (401).
//   GET  /engine/run   {protocol, version, runs: [{name}], compare}
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
  std::vector<std::string> runs;  // none: the page alone
  std::optional<int> port;        // nullopt: 8080, else a free one
  std::string host;               // "" : 127.0.0.1
  std::string web_dir;            // "" : dist/web next to the build
};

// Serves until SIGINT or SIGTERM; returns the exit status (1 when a run or
// the page cannot be had, or the port cannot be bound: said on stderr).
int serve_command(const ServeOptions& options);

}  // namespace scope_speedscope::serve
