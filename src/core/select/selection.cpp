// select: regions, ranks and the rows they cover (see selection.hpp).
#include "select/selection.hpp"

#include <algorithm>
#include <iterator>
#include <optional>

#include "text/messages.hpp"
#include "text/pattern.hpp"

namespace scope_speedscope {

namespace {

// Patterns compiled when first used, as Python's re.match compiles them
// inside `any(...)`: a bad pattern fails the export only once a region name
// reaches it (and never behind a pattern that already matched).
class Matcher {
 public:
  // `field`: "include" or "exclude", named in errors with the pattern's index.
  Matcher(const std::vector<std::string>& patterns, const char* field)
      : texts_(patterns), field_(field) {
    compiled_.resize(texts_.size());
  }
  bool any(const std::string& text) {
    for (std::size_t i = 0; i < texts_.size(); ++i) {
      try {
        if (!compiled_[i]) compiled_[i].emplace(texts_[i]);
        if (compiled_[i]->match_at_start(text)) return true;
      } catch (Error& e) {
        e.on_field(field_, static_cast<long long>(i));
        throw;
      }
    }
    return false;
  }

 private:
  std::vector<std::string> texts_;
  const char* field_;
  std::vector<std::optional<Pattern>> compiled_;
};

double first_start_seconds(const Run& run, const Region& region) {
  bool any = false;
  double best = 0.0;
  for (const RankSlice& slice : region.ranks) {
    // a rank with no calls counts as 0.0
    const double first =
        slice.count > 0 ? static_cast<double>(slice_min_start_ns(run, slice)) / 1e9 : 0.0;
    if (!any || first < best) best = first;
    any = true;
  }
  return best;
}

}  // namespace

bool regex_match_at_start(const std::string& pattern, const std::string& text) {
  return Matcher({pattern}, "include").any(text);
}

std::vector<uint32_t> filter_regions(const Run& run, const Patterns& include,
                                     const Patterns& exclude, const char** emptied_by) {
  std::optional<Matcher> inc, exc;
  if (include) inc.emplace(*include, "include");
  if (exclude) exc.emplace(*exclude, "exclude");
  std::vector<uint32_t> kept;
  bool any_included = false;
  for (uint32_t r = 0; r < run.regions.size(); ++r) {
    const std::string& name = run.regions[r].name;
    if (inc && !inc->any(name)) continue;
    any_included = true;
    if (exc && exc->any(name)) continue;
    kept.push_back(r);
  }
  if (emptied_by != nullptr) {
    *emptied_by = !kept.empty() ? "" : (inc && !any_included) ? "include" : exc ? "exclude" : "";
  }
  return kept;
}

void require_rank(const Run& run, int64_t rank, std::size_t index) {
  if (rank < 0 || rank >= run.num_ranks) {
    throw Error(Msg::invalid_rank,
                {{"rank", std::to_string(rank)}, {"valid", messages::valid_ranks(run.num_ranks)}})
        .on_field("ranks", static_cast<long long>(index));
  }
}

std::vector<uint32_t> order_regions(const Run& run, std::vector<uint32_t> regions) {
  // Every path to calls orders the regions first, by their calls' times.
  if (!run.times) {
    throw Error(Msg::internal,
                {{"detail", "scope-speedscope: calls asked of a run read without their times"}});
  }
  std::sort(regions.begin(), regions.end());  // file order breaks ties
  std::vector<std::pair<double, uint32_t>> keyed;
  keyed.reserve(regions.size());
  const bool kept = !run.region_order_keys.empty();
  for (uint32_t r : regions)
    keyed.emplace_back(
        kept ? run.region_order_keys.at(r) : first_start_seconds(run, run.regions[r]), r);
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t i = 0; i < keyed.size(); ++i) regions[i] = keyed[i].second;
  return regions;
}

void provisional_order_and_origin(Run& run) {
  std::vector<double> keys;
  keys.reserve(run.regions.size());
  std::optional<int64_t> origin;
  for (const Region& region : run.regions) {
    bool any = false;
    double best = 0.0;
    for (const RankSlice& slice : region.ranks) {
      if (slice.count > 0 && !slice.held && !slice.min_start_ns) continue;  // not read
      double first = 0.0;  // a rank with no calls counts as 0.0, as for the file
      if (slice.count > 0) {
        const int64_t m = slice_min_start_ns(run, slice);
        if (!origin || m < *origin) origin = m;
        first = static_cast<double>(m) / 1e9;
      }
      if (!any || first < best) best = first;
      any = true;
    }
    keys.push_back(best);
  }
  run.region_order_keys = std::move(keys);
  run.file_first_start_ns = origin;
}

std::vector<double> region_order_keys(const Run& run) {
  if (!run.region_order_keys.empty()) return run.region_order_keys;
  std::vector<double> keys;
  keys.reserve(run.regions.size());
  for (const Region& region : run.regions) keys.push_back(first_start_seconds(run, region));
  return keys;
}

std::vector<uint32_t> get_regions(const Run& run, const Patterns& include,
                                  const Patterns& exclude) {
  return order_regions(run, filter_regions(run, include, exclude, nullptr));
}

std::vector<uint32_t> selected_regions(const Run& run, const Patterns& include,
                                       const Patterns& exclude) {
  const char* emptied_by = "";
  std::vector<uint32_t> regions = filter_regions(run, include, exclude, &emptied_by);
  if (regions.empty()) throw Error(Msg::no_regions_matched).on_field(emptied_by);
  return regions;
}

std::vector<int64_t> requested_ranks(const std::optional<std::vector<int64_t>>& ranks) {
  return ranks ? *ranks : std::vector<int64_t>{0};
}

std::vector<int64_t> run_ranks(const Run& run) {
  std::set<int64_t> ranks;
  for (const Region& region : run.regions) {
    for (const RankSlice& slice : region.ranks) ranks.insert(slice.rank);
  }
  return {ranks.begin(), ranks.end()};
}

std::vector<int64_t> chosen_ranks(const Run& run, const std::optional<std::vector<int64_t>>& listed,
                                  bool every, bool every_by_default) {
  if (every || (!listed && every_by_default)) return run_ranks(run);
  return requested_ranks(listed);
}

std::vector<int64_t> view_ranks(const Run& run, const std::optional<std::vector<int64_t>>& listed,
                                bool every) {
  if (every || listed) return chosen_ranks(run, listed, every);
  std::vector<int64_t> ranks = run_ranks(run);
  if (ranks.empty() || ranks.front() == 0) return {0};
  return ranks;
}

std::optional<std::vector<int64_t>> diff_default_ranks(const Run& a, const Run& b) {
  const std::vector<int64_t> ra = run_ranks(a), rb = run_ranks(b);
  std::vector<int64_t> both;
  std::set_intersection(ra.begin(), ra.end(), rb.begin(), rb.end(), std::back_inserter(both));
  if (both.empty() || both.front() == 0) return std::nullopt;
  return both;
}

std::string profile_name(const Run& run, int64_t rank, int64_t lane) {
  std::string name = "rank " + std::to_string(rank);
  if (lane != -1) name += " - " + run.lane_label(lane, rank);
  return name;
}

uint64_t selection_calls(const Run& run, const std::vector<uint32_t>& regions,
                         const std::vector<int64_t>& ranks) {
  uint64_t n = 0;
  for_each_selected_row(run, regions, ranks, [&](const RankSlice& slice) { n += slice.count; });
  return n;
}

}  // namespace scope_speedscope
