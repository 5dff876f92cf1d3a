// engine: core answers as JSON values (answers.hpp).
#include "engine/answers.hpp"

#include "engine/wire.hpp"
#include "text/time_text.hpp"

namespace scope_speedscope::engine {

using nlohmann::json;

namespace {

json min_duration_json(const Suggestion& s) {
  if (!s.has_min_duration) return nullptr;
  return {{"value", s.min_duration_text},
          {"seconds", wire_number(duration_edge_seconds(s.min_duration_edge))},
          {"calls", s.min_duration_calls},
          {"events", 2.0 * static_cast<double>(s.min_duration_calls)}};
}

json window_json(const Suggestion& s) {
  if (!s.has_window) return nullptr;
  return {{"value",
           json::array({format_seconds_ns(s.window_start_ns), format_seconds_ns(s.window_end_ns)})},
          {"text", s.window_text},
          {"start", static_cast<double>(s.window_start_ns) / 1e9},
          {"end", static_cast<double>(s.window_end_ns) / 1e9},
          {"calls", s.window_calls},
          {"events", 2.0 * static_cast<double>(s.window_calls)}};
}

json time_json(const Overview& o) {
  json edges = json::array();
  for (std::size_t i = 0; i <= o.starts.size() && !o.starts.empty(); ++i) {
    edges.push_back(
        static_cast<double>(o.first_edge_ns + static_cast<int64_t>(i) * o.bin_width_ns) / 1e9);
  }
  return {{"firstEdgeNs", o.first_edge_ns},
          {"binWidthNs", o.bin_width_ns},
          {"binWidth", static_cast<double>(o.bin_width_ns) / 1e9},
          {"edges", edges},
          {"starts", o.starts},
          {"ends", o.ends}};
}

json durations_json(const Overview& o) {
  json edges = json::array(), labels = json::array(), at_least = json::array();
  for (std::size_t j = 0; j + 1 < o.duration_counts.size(); ++j) {
    edges.push_back(wire_number(duration_edge_seconds(static_cast<int>(j))));
    labels.push_back(duration_edge_text(static_cast<int>(j)));
    at_least.push_back(o.calls_at_least(static_cast<int>(j)));
  }
  return {
      {"edges", edges}, {"labels", labels}, {"counts", o.duration_counts}, {"atLeast", at_least}};
}

json totals_json(const RegionTotals& t) {
  return {{"calls", t.calls}, {"total", t.total_ns}, {"self", t.self_ns}};
}

json pct_json(const std::optional<double>& pct) { return pct ? wire_number(*pct) : json(nullptr); }

}  // namespace

json suggestion_json(const Suggestion& s) {
  using Pick = Suggestion::Pick;
  return {{"fits", s.fits},
          {"calls", s.calls},
          {"events", 2.0 * static_cast<double>(s.calls)},
          {"maxCalls", s.max_calls},
          {"minDuration", min_duration_json(s)},
          {"timeWindow", window_json(s)},
          {"preferred", s.preferred == Pick::min_duration ? json("minDuration")
                        : s.preferred == Pick::window     ? json("timeWindow")
                                                          : json(nullptr)}};
}

json overview_json(const Overview& o, std::optional<uint64_t> max_events) {
  json out = {{"calls", o.calls},
              {"events", 2.0 * static_cast<double>(o.calls)},
              {"firstStart", o.calls ? json(static_cast<double>(o.first_start_ns) / 1e9) : json()},
              {"lastEnd", o.calls ? json(static_cast<double>(o.last_end_ns) / 1e9) : json()},
              {"time", time_json(o)},
              {"durations", durations_json(o)}};
  if (max_events) out["suggestion"] = suggestion_json(suggest_narrowing(o, *max_events));
  return out;
}

json rows_json(const std::vector<RegionDelta>& rows, bool with_total_pct) {
  json out = json::array();
  for (const RegionDelta& r : rows) {
    json row = {{"name", r.name},
                {"a", totals_json(r.a)},
                {"b", totals_json(r.b)},
                {"deltaTotal", r.delta_total_ns},
                {"deltaSelf", r.delta_self_ns},
                {"deltaSelfPct", pct_json(r.delta_self_pct)}};
    if (with_total_pct) row["deltaTotalPct"] = pct_json(r.delta_total_pct);
    out.push_back(std::move(row));
  }
  return out;
}

json inspection_json(const Inspection& info) {
  json regions = json::array();
  for (const auto& r : info.regions) {
    regions.push_back({{"name", r.name}, {"calls", r.calls}, {"ranks", r.ranks}});
  }
  json ranks = json::array();
  for (const auto& r : info.ranks) {
    json lanes = json::array();
    for (const auto& l : r.lanes) {
      lanes.push_back({{"lane", l.lane},
                       {"label", l.label},
                       {"profileName", l.profile_name},
                       {"calls", l.calls}});
    }
    ranks.push_back({{"rank", r.rank}, {"calls", r.calls}, {"lanes", lanes}});
  }
  return {{"label", info.label},
          {"displayLabel", info.display_label},
          {"schemaVersion", info.schema_version},
          {"storageLayout", info.storage_layout},
          {"numRanks", info.num_ranks},
          {"calls", info.calls},
          {"regions", regions},
          {"ranks", ranks}};
}

}  // namespace scope_speedscope::engine
