// What `serve FILE... [vs FILE...]` serves, for both servers (the native
// cli/serve.cpp and, compiled into the wasm module, the Node CLI's
// src/js/engine-server.js): which runs the named files make (one file, one
// job written one file per process, or two runs compared) and which served
// file each of the engine's inputs reads. Rules of the page for picked
// files (web/flow-choose.js), checked once at the start with the core's
// errors (select/job.hpp), so that a server never starts on files that
// cannot be opened together.
#pragma once

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "model/run.hpp"

namespace scope_speedscope::serve {

// How the served files make runs. Without `compare` every file is of the
// one run (one file, or one job's files); with it files [0, a_files) are
// run A's, the rest run B's (each one file or one job's files), and B is
// compared against A (as diff A B).
struct ServedLayout {
  std::size_t files = 0;
  std::size_t a_files = 0;
  bool compare = false;
};

// The layout the arguments give before any file is read: `vs` after
// vs_at files, else two files compared (as serve RUN OTHER always did),
// else one run. plan_served refines two files holding disjoint ranks.
ServedLayout layout_of_arguments(std::size_t files, std::optional<std::size_t> vs_at);

// The served files' runs, each file's inspect info (what the engine's
// `inspect` answers for it) and the words that name them.
struct ServedRuns {
  ServedLayout layout;
  std::vector<nlohmann::json> infos;
  std::string names;  // "run.h5", "a.h5 and 63 more files (one job)", "b.h5 against a.h5"
};

// Reads the index of served file `index` (ReadDepth::index); throws the
// reader's errors naming it.
using ReadIndex = std::function<Run(std::size_t index)>;

// Reads every file's index and groups them as the page groups picked files:
// with vs_at (`A... vs B...`), the files before it are run A, the rest run
// B; else one file is a run, two files holding disjoint ranks (each at
// least one) one job and any other two compared (B against A), three or
// more one job. Each run of several files must be one job: throws
// merge_job's job_same_rank or job_not_one_job naming the files, as given.
ServedRuns plan_served(const std::vector<std::string>& files, std::optional<std::size_t> vs_at,
                       const ReadIndex& read);

// {"aFiles", "compare", "infos", "names"}: the plan as the Node CLI's server
// takes it from the wasm module.
nlohmann::json plan_json(const ServedRuns& runs);

// The runs of GET /engine/run: {"runs": [{name, size, info}], "compare",
// "sides"} (`sides`: the served files' indices per run, A's then B's).
nlohmann::json runs_json(const ServedRuns& runs, const std::vector<std::string>& names,
                         const std::vector<uint64_t>& sizes);

// The served file the engine's input `which` reads for `request`: the one
// its "served" field gives (an object of input names and served files,
// e.g. {"file0": 3, "file1": 4}: what the page sends for the files it
// holds), else by position: "file", "file<k>" the k-th served file;
// "fileA", "fileA<k>" run A's k-th (without a comparison, the run's);
// "fileB", "fileB<k>" run B's. Throws Error(bad_argument) for an input the
// server has not ("this server has no input 'fileB'") and for a "served"
// that is not such an object.
std::size_t served_file(const ServedLayout& layout, const nlohmann::json& request,
                        const std::string& which);

// What makes two opens of these runs the same timeline (another tab's:
// the run is held once): the request's type, options (an option given as
// null is one not given; sameFileAs, how it may be read, left out), counts
// and "served"; "" for a request that opens none.
std::string open_key(const nlohmann::json& request);

// What a page of one served run (one file or one job; none for a
// comparison) opens first, as it asks: its default rank (0, else the
// lowest) with source locations; then, when the run holds several ranks,
// every rank (All ranks). A server opens them before any page asks
// (serve_engine.hpp).
std::vector<nlohmann::json> first_opens(const ServedRuns& runs);

// Whether an open asks for every rank of its runs (ranks "all").
bool opens_every_rank(const nlohmann::json& request);

}  // namespace scope_speedscope::serve
