// engine: core answers as JSON values, the one spelling of each that the
// engine's answers and the package's (src/wasm/values_out.hpp) share: an
// overview and its suggested narrowing, the rows of a comparison as
// diff --json prints them.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "compare/compare.hpp"
#include "export/overview.hpp"
#include "select/inspect.hpp"

namespace scope_speedscope::engine {

// {fits, calls, events, maxCalls, minDuration, timeWindow, preferred}.
nlohmann::json suggestion_json(const Suggestion& s);
// {calls, events, firstStart, lastEnd, time, durations} and, given
// max_events, its suggestion.
nlohmann::json overview_json(const Overview& o, std::optional<uint64_t> max_events);
// {label, displayLabel, schemaVersion, storageLayout, numRanks, calls,
// regions: [{name, calls, ranks}], ranks: [{rank, calls, lanes: [{lane,
// label, profileName, calls}]}]}: what a file holds.
nlohmann::json inspection_json(const Inspection& info);
// diff --json's rows; with_total_pct adds deltaTotalPct (a window's rows).
nlohmann::json rows_json(const std::vector<RegionDelta>& rows, bool with_total_pct);

}  // namespace scope_speedscope::engine
