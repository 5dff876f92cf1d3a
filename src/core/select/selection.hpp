// select: which calls a request covers, by scope-profiler's rules (spec
// 2.2 and 5.1): the regions the include and exclude filters keep, ordered by
// their first call; the ranks asked for, each checked; the rows and events
// of both. The export, the narrowing, the overview, the inspection and the
// timeline all select through here, with the same errors in the same order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/run.hpp"

namespace scope_speedscope {

using Patterns = std::optional<std::vector<std::string>>;  // nullopt: no filter

// The regions kept by the filters (Python re.match: anchored at the start
// only), in file order. A bad pattern fails only once a region name reaches
// it (as Python compiles patterns inside any(...)). When none is kept,
// *emptied_by (if given) says which filter emptied the list: "include" (no
// region matched it), "exclude", or "" (the run has no regions).
std::vector<uint32_t> filter_regions(const Run& run, const Patterns& include,
                                     const Patterns& exclude, const char** emptied_by);
// The same, or Error(no_regions_matched) on the filter that emptied it.
std::vector<uint32_t> selected_regions(const Run& run, const Patterns& include,
                                       const Patterns& exclude);
// Regions stably sorted by their earliest first start in seconds (ties in
// file order): the order of get_regions.
std::vector<uint32_t> order_regions(const Run& run, std::vector<uint32_t> regions);
// The key order_regions sorts each region of the run by (run.region_order_keys
// when set): for a run that keeps only some ranks' calls.
std::vector<double> region_order_keys(const Run& run);
// For a run read without the other ranks' first starts
// (ReadPlan::others_first_starts false): sets its order keys and its first
// start from the slices it knows (held, or with a kept first start), as if
// the others had no calls: a provisional order and origin, the file's only
// when no other rank starts a region earlier (the engine's provisional
// open; timeline-complete reads the rest).
void provisional_order_and_origin(Run& run);
// scope-profiler's get_regions: filter_regions, then order_regions.
std::vector<uint32_t> get_regions(const Run& run, const Patterns& include, const Patterns& exclude);
// True when `pattern` matches at the start of `text` (Python re.match).
bool regex_match_at_start(const std::string& pattern, const std::string& text);

// The ranks a request asks for: [0] when it names none, else as given
// (repeats and order kept, as export_speedscope takes them).
std::vector<int64_t> requested_ranks(const std::optional<std::vector<int64_t>>& ranks);
// Every rank with a row in the run, ascending: what "all ranks" selects.
std::vector<int64_t> run_ranks(const Run& run);
// The one place a request's rank choice is resolved: `every` (the CLIs'
// `--ranks all`, the package's ranks: 'all') is every rank of the run;
// else the ranks listed, as given; else the command's default: every rank
// when `every_by_default` (imbalance), [0] otherwise (the export, diff, the
// timeline, as scope-profiler's default).
std::vector<int64_t> chosen_ranks(const Run& run, const std::optional<std::vector<int64_t>>& listed,
                                  bool every, bool every_by_default = false);
// The ranks a view opens (the timeline, the page): as chosen_ranks, but
// by default rank 0 only when the run has it, else every rank it has (a
// process's own file of a job, or some of them).
std::vector<int64_t> view_ranks(const Run& run, const std::optional<std::vector<int64_t>>& listed,
                                bool every);
// The ranks diff adds up by default: rank 0 when both runs have it, else
// the ranks both have (nullopt when they share none: then [0], refused as
// before).
std::optional<std::vector<int64_t>> diff_default_ranks(const Run& a, const Run& b);
// Throws invalid_rank (on the field "ranks", at <index>) unless <rank> is one
// of the run's ranks.
void require_rank(const Run& run, int64_t rank, std::size_t index);

// "rank 0" or "rank 0 - <lane label>": the name of a lane's profile.
std::string profile_name(const Run& run, int64_t rank, int64_t lane);

// Calls fn(slice) for every row of `regions` (in their order) on every rank.
template <class Fn>
void for_each_row(const Run& run, const std::vector<uint32_t>& regions, Fn&& fn) {
  for (uint32_t r : regions) {
    for (const RankSlice& slice : run.regions[r].ranks) fn(slice);
  }
}

// Calls fn(slice) for every row of `regions` on one of `ranks` (a rank
// listed twice counts once).
template <class Fn>
void for_each_selected_row(const Run& run, const std::vector<uint32_t>& regions,
                           const std::vector<int64_t>& ranks, Fn&& fn) {
  const std::set<int64_t> wanted(ranks.begin(), ranks.end());
  for_each_row(run, regions, [&](const RankSlice& slice) {
    if (wanted.count(slice.rank) != 0) fn(slice);
  });
}

// Calls fn(event) for every event of those rows; stops early when fn
// returns false (and then returns false).
template <class Fn>
bool for_each_selected_event(const Run& run, const std::vector<uint32_t>& regions,
                             const std::vector<int64_t>& ranks, Fn&& fn) {
  bool going = true;
  for_each_selected_row(run, regions, ranks, [&](const RankSlice& slice) {
    require_held(slice);
    for (uint64_t e = slice.offset; going && e < slice.offset + slice.count; ++e) going = fn(e);
  });
  return going;
}

// Calls of `regions` on `ranks` (each rank once).
uint64_t selection_calls(const Run& run, const std::vector<uint32_t>& regions,
                         const std::vector<int64_t>& ranks);

}  // namespace scope_speedscope
