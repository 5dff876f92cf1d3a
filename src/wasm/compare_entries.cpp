// wasm: the entry points of two runs compared (compareRuns): both timelines
// open, B's calls lined up with A's.
#include "entries.hpp"
#include "handles.hpp"
#include "js_io.hpp"
#include "options_in.hpp"
#include "values_out.hpp"

namespace scope_speedscope::wasm {

// Timelines a and b (ids of openTimeline): {id, regions, partnerLanes, memoryBytes}.
val compare_open(int a, int b) {
  return guarded([&] {
    auto entry = std::make_unique<OpenComparison>();
    entry->a = a;
    entry->b = b;
    entry->runs =
        std::make_unique<ss::AlignedRuns>(timeline_of(a).timeline, timeline_of(b).timeline);
    static int next_id = 0;
    const int id = ++next_id;
    val out = val::object();
    out.set("id", id);
    out.set("regions", rows_value(entry->runs->regions()));
    val partners = val::array();
    const auto& lanes = entry->runs->partner_lanes();
    for (std::size_t i = 0; i < lanes.size(); ++i) partners.set(i, static_cast<double>(lanes[i]));
    out.set("partnerLanes", partners);
    out.set("frames", array_of(entry->runs->frames()));
    const auto& of_a = entry->runs->frame_of_a();
    val frame_of_a = val::global("Int32Array").new_(of_a.size());
    frame_of_a.call<void>("set", val(emscripten::typed_memory_view(of_a.size(), of_a.data())));
    out.set("frameOfA", frame_of_a);
    out.set("memoryBytes", static_cast<double>(entry->runs->memory_bytes()));
    open_comparisons().emplace(id, std::move(entry));
    return out;
  });
}

val compare_aligned(int id, double lane, double start, double end, double width) {
  return guarded([&] {
    OpenComparison& c = comparison_of(id);
    const NsWindow window = ns_window(start, end);
    c.runs->aligned(lane_of(lane), window.start, window.end, width_of(width), c.bars);
    const ss::Timeline::Bars& bars = c.bars.bars;
    const std::size_t n = bars.size();
    c.start.assign(bars.start.begin(), bars.start.end());
    c.end.assign(bars.end.begin(), bars.end.end());
    val out = val::object();
    out.set("start", val(emscripten::typed_memory_view(n, c.start.data())));
    out.set("end", val(emscripten::typed_memory_view(n, c.end.data())));
    out.set("depth", val(emscripten::typed_memory_view(n, bars.depth.data())));
    out.set("frame", val(emscripten::typed_memory_view(n, bars.frame.data())));
    out.set("count", val(emscripten::typed_memory_view(n, bars.count.data())));
    out.set("ratio", val(emscripten::typed_memory_view(n, c.bars.ratio.data())));
    out.set("rows", val(emscripten::typed_memory_view(bars.rows.size(), bars.rows.data())));
    return out;
  });
}

// The rows of [start, end) of each run (AlignedRuns::regions(start, end)).
val compare_regions_in(int id, double start, double end) {
  return guarded([&] {
    const NsWindow window = ns_window(start, end);
    return rows_value(comparison_of(id).runs->regions(window.start, window.end), true);
  });
}

bool compare_close(int id) { return open_comparisons().erase(id) > 0; }

}  // namespace scope_speedscope::wasm
