// compare: the `diff` command's report (see diff_report.hpp).
#include "compare/diff_report.hpp"

#include <cstdio>
#include <limits>
#include <unordered_map>
#include <vector>

#include "export/source_text.hpp"
#include "select/selection.hpp"
#include "text/table.hpp"
#include "text/time_text.hpp"
#include "write/speedscope_writer.hpp"

namespace scope_speedscope {

namespace {

constexpr std::size_t kTableRows = 30;

int64_t metric_of(const RegionTotals& t, DiffMetric m) {
  return m == DiffMetric::self ? t.self_ns : t.total_ns;
}

// Growth of the metric in percent; +inf from 0 to more, 0 from 0 to 0.
double growth_pct(const RegionDelta& r, DiffMetric m) {
  const int64_t a = metric_of(r.a, m), b = metric_of(r.b, m);
  if (a == 0) return b > 0 ? std::numeric_limits<double>::infinity() : 0.0;
  return 100.0 * (static_cast<double>(b) - static_cast<double>(a)) / static_cast<double>(a);
}

std::string signed_duration(int64_t ns) {
  const std::string t = format_duration_short(static_cast<double>(ns < 0 ? -ns : ns));
  return ns > 0 ? "+" + t : ns < 0 ? "-" + t : t;
}

std::string percent(double pct) {
  if (pct == std::numeric_limits<double>::infinity()) return "new";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f %%", pct);
  return buf;
}

// Each region's source (diff_report.hpp): B's, else A's.
class Sources {
 public:
  Sources(const Run& a, const Run& b) {
    for (const Run* run : {&a, &b}) {
      for (const Region& region : run->regions) {
        const SourceLocation* s = region_source(*run, region);
        if (s != nullptr) by_name_[region.name] = s;  // B's last: B's win
      }
    }
  }
  const SourceLocation* of(const std::string& name) const {
    const auto it = by_name_.find(name);
    return it == by_name_.end() ? nullptr : it->second;
  }

 private:
  std::unordered_map<std::string, const SourceLocation*> by_name_;
};

std::string table(const std::vector<RegionDelta>& rows, const std::string& heading,
                  const Sources* sources) {
  std::size_t name_width = 6;
  for (const auto& r : rows) name_width = std::max(name_width, r.name.size());
  name_width = std::min<std::size_t>(name_width, 40);
  std::string out = heading + "\n";
  if (rows.empty()) return out + "no calls in either run\n";
  out +=
      padded("region", name_width, false) +
      "   A calls   B calls     A self     B self     Δ self   Δ self %    A total    B total    "
      "Δ total" +
      (sources ? "  source\n" : "\n");
  for (std::size_t i = 0; i < rows.size() && i < kTableRows; ++i) {
    const RegionDelta& r = rows[i];
    const std::string pct = r.delta_self_pct  ? percent(*r.delta_self_pct)
                            : r.b.self_ns > 0 ? "new"
                                              : "";
    out += padded(r.name, name_width, false) + "  " + padded(std::to_string(r.a.calls), 8, true) +
           "  " + padded(std::to_string(r.b.calls), 8, true) + "  " +
           padded(format_duration_short(static_cast<double>(r.a.self_ns)), 9, true) + "  " +
           padded(format_duration_short(static_cast<double>(r.b.self_ns)), 9, true) + "  " +
           padded(signed_duration(r.delta_self_ns), 9, true) + "  " + padded(pct, 9, true) + "  " +
           padded(format_duration_short(static_cast<double>(r.a.total_ns)), 9, true) + "  " +
           padded(format_duration_short(static_cast<double>(r.b.total_ns)), 9, true) + "  " +
           padded(signed_duration(r.delta_total_ns), 9, true) +
           (sources ? "  " + source_cell(sources->of(r.name)) : std::string()) + "\n";
  }
  if (rows.size() > kTableRows) {
    out += "... " + std::to_string(rows.size() - kTableRows) + " more regions (--json lists all)\n";
  }
  return out;
}

void append_totals(std::string& out, const RegionTotals& t) {
  out += "{\"calls\": " + std::to_string(t.calls) + ", \"total\": " + std::to_string(t.total_ns) +
         ", \"self\": " + std::to_string(t.self_ns) + "}";
}

std::string json(const std::vector<RegionDelta>& rows, const std::vector<std::string>* regressions,
                 const Sources* sources) {
  std::string out = "{\"regions\": [";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const RegionDelta& r = rows[i];
    out += i ? ", {\"name\": " : "{\"name\": ";
    append_json_string(out, r.name);
    out += ", \"a\": ";
    append_totals(out, r.a);
    out += ", \"b\": ";
    append_totals(out, r.b);
    out += ", \"deltaTotal\": " + std::to_string(r.delta_total_ns) +
           ", \"deltaSelf\": " + std::to_string(r.delta_self_ns) + ", \"deltaSelfPct\": " +
           (r.delta_self_pct ? python_float_repr(*r.delta_self_pct) : std::string("null"));
    if (sources) append_source_json(out, sources->of(r.name));
    out += "}";
  }
  out += "]";
  if (regressions != nullptr) {
    out += ", \"regressions\": [";
    for (std::size_t i = 0; i < regressions->size(); ++i) {
      if (i) out += ", ";
      append_json_string(out, (*regressions)[i]);
    }
    out += "]";
  }
  return out + "}\n";
}

}  // namespace

DiffReport diff_report(const Run& a, const Run& b, const DiffReportOptions& given) {
  // No ranks named: rank 0, or the ranks both runs have when one lacks it
  // (each a job of per-process files, say).
  DiffReportOptions options = given;
  if (!options.selection.ranks && !options.selection.all_ranks) {
    options.selection.ranks = diff_default_ranks(a, b);
  }
  const std::vector<RegionDelta> rows = compare_regions(a, b, options.selection);
  DiffReport report;
  std::vector<std::string> regressions;
  std::string listed;
  const char* metric = options.metric == DiffMetric::self ? "self" : "total";
  if (options.max_regression_pct) {
    for (const RegionDelta& r : rows) {
      const double g = growth_pct(r, options.metric);
      if (!(g > *options.max_regression_pct)) continue;
      regressions.push_back(r.name);
      listed += "  " + r.name + ": " + percent(g) + " (" +
                format_duration_short(static_cast<double>(metric_of(r.a, options.metric))) +
                " -> " +
                format_duration_short(static_cast<double>(metric_of(r.b, options.metric))) + ")\n";
    }
    report.regressed = !regressions.empty();
  }
  std::optional<Sources> sources;
  if (options.source) sources.emplace(a, b);
  const Sources* shown = sources ? &*sources : nullptr;
  if (options.json) {
    report.text = json(rows, options.max_regression_pct ? &regressions : nullptr, shown);
    return report;
  }
  const std::vector<int64_t> ranks = requested_ranks(options.selection.ranks);
  const std::string which = options.selection.all_ranks
                                ? std::string("every rank of each run")
                                : (ranks.size() == 1 ? "rank " : "ranks ") + ranks_text(ranks);
  std::string heading =
      "A: " + a.path + "\nB: " + b.path + "\n" + which + "; regions by growth of self time";
  report.text = table(rows, heading, shown);
  if (options.max_regression_pct) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g %%", *options.max_regression_pct);
    report.text += regressions.empty() ? std::string("no region's ") + metric +
                                             " time grew by more than " + limit + "\n"
                                       : std::string("regions whose ") + metric +
                                             " time grew by more than " + limit + ":\n" + listed;
  }
  return report;
}

}  // namespace scope_speedscope
