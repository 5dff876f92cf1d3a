// What `serve FILE... [vs FILE...]` serves (serve_runs.hpp).
#include "cli/serve_runs.hpp"

#include <algorithm>
#include <iterator>
#include <set>
#include <utility>

#include "engine/answers.hpp"
#include "select/inspect.hpp"
#include "select/job.hpp"
#include "select/selection.hpp"
#include "text/messages.hpp"

namespace scope_speedscope::serve {

namespace {

using nlohmann::json;

[[noreturn]] void refuse(const std::string& detail) {
  throw Error(Msg::bad_argument, {{"detail", "scope-speedscope engine: " + detail}});
}

// What merge_job checks of a part (its path, label, job metadata and which
// ranks it holds), without its lane column, tables and sources: checking
// the runs of a job of 512 files holds their slices, not their lanes.
Run job_part(const Run& index) {
  Run part = run_header(index);
  part.mpi_size = index.mpi_size;
  part.mpi_rank = index.mpi_rank;
  part.times = false;
  part.regions = index.regions;
  for (Region& region : part.regions) {
    region.source = RankSlice::kNoSource;
    for (RankSlice& slice : region.ranks) slice.source = RankSlice::kNoSource;
  }
  return part;
}

// Whether two files hold disjoint ranks, each at least one (the page's
// jobOf: files of one job written one file per process).
bool disjoint_ranks(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  if (a.empty() || b.empty()) return false;
  const std::set<int64_t> seen(a.begin(), a.end());
  return std::none_of(b.begin(), b.end(), [&](int64_t r) { return seen.count(r) > 0; });
}

// "run.h5"; "a.h5 and b.h5 (one job)"; "a.h5 and 63 more files (one job)".
std::string run_words(const std::vector<std::string>& files, std::size_t first, std::size_t n) {
  if (n == 1) return files[first];
  const std::string rest = n == 2 ? files[first + 1] : std::to_string(n - 1) + " more files";
  return files[first] + " and " + rest + " (one job)";
}

}  // namespace

ServedLayout layout_of_arguments(std::size_t files, std::optional<std::size_t> vs_at) {
  ServedLayout layout;
  layout.files = files;
  layout.a_files = files;
  if (vs_at) {
    layout.a_files = *vs_at;
    layout.compare = true;
  } else if (files == 2) {
    layout.a_files = 1;
    layout.compare = true;
  }
  return layout;
}

ServedRuns plan_served(const std::vector<std::string>& files, std::optional<std::size_t> vs_at,
                       const ReadIndex& read) {
  if (vs_at && (*vs_at == 0 || *vs_at >= files.size())) {
    throw Error(Msg::internal, {{"detail", "serve: vs must have files on both sides"}});
  }
  ServedRuns out;
  out.layout = layout_of_arguments(files.size(), vs_at);
  std::vector<Run> parts;
  std::vector<std::vector<int64_t>> ranks;
  parts.reserve(files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    const Run index = read(i);
    out.infos.push_back(engine::inspection_json(inspect_run(index)));
    ranks.push_back(run_ranks(index));
    parts.push_back(job_part(index));
  }
  // Two files holding disjoint ranks: one job's, as the page opens them.
  if (!vs_at && files.size() == 2 && disjoint_ranks(ranks[0], ranks[1])) {
    out.layout = ServedLayout{2, 2, false};
  }
  const ServedLayout& l = out.layout;
  const std::vector<std::pair<std::size_t, std::size_t>> sides =
      l.compare
          ? std::vector<std::pair<std::size_t, std::size_t>>{{0, l.a_files}, {l.a_files, l.files}}
          : std::vector<std::pair<std::size_t, std::size_t>>{{0, l.files}};
  for (const auto& [first, last] : sides) {
    if (last - first < 2) continue;
    std::vector<Run> job(
        std::make_move_iterator(parts.begin() + static_cast<std::ptrdiff_t>(first)),
        std::make_move_iterator(parts.begin() + static_cast<std::ptrdiff_t>(last)));
    merge_job(std::move(job));  // throws what opening them as one job would
  }
  out.names = l.compare ? run_words(files, l.a_files, l.files - l.a_files) + " against " +
                              run_words(files, 0, l.a_files)
                        : run_words(files, 0, l.files);
  return out;
}

json plan_json(const ServedRuns& runs) {
  return {{"aFiles", runs.layout.a_files},
          {"compare", runs.layout.compare},
          {"infos", runs.infos},
          {"names", runs.names}};
}

json runs_json(const ServedRuns& runs, const std::vector<std::string>& names,
               const std::vector<uint64_t>& sizes) {
  json list = json::array();
  for (std::size_t i = 0; i < names.size(); ++i) {
    list.push_back({{"name", names[i]},
                    {"size", i < sizes.size() ? sizes[i] : 0},
                    {"info", i < runs.infos.size() ? runs.infos[i] : json()}});
  }
  const ServedLayout& l = runs.layout;
  json sides = json::array();
  auto side = [&](std::size_t first, std::size_t last) {
    json s = json::array();
    for (std::size_t i = first; i < last; ++i) s.push_back(i);
    sides.push_back(std::move(s));
  };
  if (l.compare) {
    side(0, l.a_files);
    side(l.a_files, l.files);
  } else if (l.files > 0) {
    side(0, l.files);
  }
  return {{"runs", list}, {"compare", l.compare}, {"sides", sides}};
}

std::size_t served_file(const ServedLayout& layout, const json& request, const std::string& which) {
  const auto served = request.is_object() ? request.find("served") : request.end();
  if (request.is_object() && served != request.end()) {
    const std::string words =
        "'served' must give each input a served file (a whole number from 0 to " +
        std::to_string(layout.files == 0 ? 0 : layout.files - 1) + ")";
    if (!served->is_object()) refuse(words);
    const auto file = served->find(which);
    if (file != served->end()) {
      if (!file->is_number_unsigned() || file->get<uint64_t>() >= layout.files) refuse(words);
      return file->get<std::size_t>();
    }
  }
  const auto none = [&which]() -> std::size_t {
    refuse("this server has no input '" + which + "'");
  };
  if (which.compare(0, 4, "file") != 0) return none();
  std::string rest = which.substr(4);
  std::size_t first = 0, count = layout.files;
  if (!rest.empty() && (rest[0] == 'A' || rest[0] == 'B')) {
    const bool b = rest[0] == 'B';
    rest.erase(0, 1);
    if (b && !layout.compare) return none();
    if (layout.compare) {
      first = b ? layout.a_files : 0;
      count = b ? layout.files - layout.a_files : layout.a_files;
    }
  }
  std::size_t k = 0;
  if (!rest.empty()) {
    const bool digits =
        std::all_of(rest.begin(), rest.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits || rest.size() > 6 || (rest.size() > 1 && rest[0] == '0')) return none();
    k = std::stoul(rest);
  }
  if (k >= count) return none();
  return first + k;
}

std::string open_key(const json& r) {
  if (!r.is_object()) return {};
  const auto type = r.find("type");
  if (type == r.end() || (*type != "timeline-open" && *type != "timeline-compare-open")) return {};
  json key = json::array({*type});
  for (const char* name : {"options", "count", "countA", "countB", "served"}) {
    const auto v = r.find(name);
    json value = v == r.end() ? json() : *v;
    if (value.is_object() && std::string(name) == "options") {
      // sameFileAs says how the engine may read (a group at a time), not
      // what it opens: the page sends it for All ranks after its first view.
      for (auto it = value.begin(); it != value.end();) {
        it = it->is_null() || it.key() == "sameFileAs" ? value.erase(it) : std::next(it);
      }
    }
    key.push_back(std::move(value));
  }
  return key.dump();
}

std::vector<json> first_opens(const ServedRuns& runs) {
  const ServedLayout& l = runs.layout;
  if (l.compare || l.files == 0) return {};
  std::set<int64_t> ranks;
  for (const json& info : runs.infos) {
    const auto list = info.find("ranks");
    if (list == info.end() || !list->is_array()) continue;
    for (const json& r : *list) {
      if (r.is_object() && r.contains("rank") && r["rank"].is_number_integer()) {
        ranks.insert(r["rank"].get<int64_t>());
      }
    }
  }
  json served = json::object();
  if (l.files == 1) {
    served["file"] = std::size_t{0};
  } else {
    for (std::size_t i = 0; i < l.files; ++i) served["file" + std::to_string(i)] = i;
  }
  auto open = [&](json ranks_option) {
    json r = {{"type", "timeline-open"},
              {"options", {{"ranks", std::move(ranks_option)}, {"sourceLocations", true}}},
              {"served", served}};
    if (l.files > 1) r["count"] = l.files;
    return r;
  };
  std::vector<json> out;
  if (ranks.empty()) return out;
  out.push_back(open(json::array({ranks.count(0) ? int64_t{0} : *ranks.begin()})));
  if (ranks.size() > 1) out.push_back(open("all"));
  return out;
}

bool opens_every_rank(const json& r) {
  if (!r.is_object()) return false;
  const auto options = r.find("options");
  if (options == r.end() || !options->is_object()) return false;
  const auto ranks = options->find("ranks");
  return ranks != options->end() && *ranks == "all";
}

}  // namespace scope_speedscope::serve
