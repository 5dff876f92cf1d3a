// engine: what the engine holds between requests (engine.cpp opens and
// closes it, queries.cpp answers from it). One run, or two compared: B is
// the one drawn (its lanes first), A's lanes follow with their frames
// renumbered into the comparison's.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "compare/aligned_runs.hpp"
#include "engine/engine.hpp"
#include "engine/request.hpp"
#include "engine/wire.hpp"
#include "export/export.hpp"
#include "export/overview.hpp"
#include "timeline/timeline.hpp"

namespace scope_speedscope {

// A sliced download's target across its requests: each request lends its
// own output (the shell's, over the same sink), and the bytes go to the one
// lent now; between requests none is lent.
class RelayTarget final : public OutputTarget {
 public:
  void lend(OutputTarget* to) {
    to_ = to;
    relay_.to = to != nullptr && opened_ ? &to->resume() : nullptr;
  }
  Sink& open(const std::string& path) override {
    relay_.to = &lent().open(path);
    opened_ = true;
    return relay_;
  }
  void close() override {
    lent().close();
    opened_ = false;
    relay_.to = nullptr;
  }
  void commit() override { lent().commit(); }
  void abort() noexcept override {
    if (to_ != nullptr) to_->abort();
  }

 private:
  struct Relay final : Sink {
    Sink* to = nullptr;
    void write(const char* data, std::size_t size) override { to->write(data, size); }
  };
  OutputTarget& lent() {
    if (to_ == nullptr) engine::refuse("this request has nowhere to write a download");
    return *to_;
  }
  OutputTarget* to_ = nullptr;
  Relay relay_;
  bool opened_ = false;
};

struct Engine::State {
  int next_id = 1;
  int id = 0;                         // the open timeline's id (0: none)
  std::optional<Timeline> tl;         // the run; comparing, B
  std::optional<Timeline> a;          // comparing: run A
  std::unique_ptr<AlignedRuns> runs;  // comparing: B lined up with A
  std::size_t lanes_b = 0;            // comparing: B's lanes come first
  bool rest_read = false;             // the ranks it did not read were checked for an export
  // Of those ranks, the ones timeline-check read without error (a check
  // that failed empties it: the export then reads them all at once, so its
  // error is the file's whatever the slices were).
  std::set<int64_t> checked;
  // The inputs the open run (comparing: B) was read from: "file", or a
  // job's "file0" .. (timeline-open's count), for a download's rest.
  std::vector<std::string> inputs;
  // Opened provisionally (timeline-open's "provisional"): its region order
  // and origin in the run are its own ranks', until timeline-complete (or
  // an export) reads the other ranks' first starts. The request it was
  // opened with, for that read.
  bool provisional = false;
  nlohmann::json open_request;
  // The open's read's warnings (sourceLocations: values read as unknown).
  std::vector<std::string> warnings;
  // The last answer's scratch memory, reused. (The heatmap's grid and the
  // lateness hold no aligned answer: they are walked step by step.)
  Timeline::Bars bars;
  AlignedRuns::Bars aligned_bars;

  // A sliced open between its steps (timeline-open's options.slices, then
  // timeline-open-more): the timeline open before it, when kept, answers
  // meanwhile. `opening_token` names it to the requests that go on with it.
  std::unique_ptr<GroupedOpen> opening;
  int opening_token = 0;
  std::vector<std::string> opening_inputs;
  nlohmann::json opening_request;
  std::vector<std::string> opening_warnings;
  bool opening_laid_out = false;  // every rank in: the next step indexes it
  // Every rank of the file was read without error before it began (else
  // what fails in a step sends it back to the one read: engine.cpp).
  bool opening_read_before = true;

  // An overview in slices (timeline-overview's options.slices, then
  // timeline-overview-more) of the timeline `overviewing_timeline`;
  // `overviewing_token` names it. A newer overview, a close, any open or
  // timeline-complete drops it.
  std::unique_ptr<TimelineOverview> overviewing;
  int overviewing_timeline = 0;
  int overviewing_token = 0;
  uint64_t overviewing_slice = 0;  // calls a slice
  std::optional<uint64_t> overviewing_max;

  // A download in slices (timeline-export's options.slices, then
  // timeline-export-more) of the timeline `exporting_timeline`; a close,
  // any open, timeline-complete or a newer download gives it up (its
  // outputs aborted).
  std::unique_ptr<RelayTarget> exporting_target;
  std::unique_ptr<ExportJob> exporting;  // destroyed before its target
  int exporting_timeline = 0;
  int exporting_token = 0;
  uint64_t exporting_slice = 0;  // events a slice
  Progress exporting_progress;   // the request's that goes on

  bool comparing() const { return runs != nullptr; }
  void drop_export() {
    exporting.reset();
    exporting_target.reset();
    exporting_timeline = 0;
    exporting_progress = nullptr;
  }
  void drop_overview() {
    overviewing.reset();
    overviewing_timeline = 0;
  }
  void drop_opening() {
    if (opening) forget_edge_chunks();  // kept for its next group's read
    opening.reset();
    opening_inputs.clear();
    opening_request = nullptr;
    opening_warnings.clear();
    opening_laid_out = false;
    opening_read_before = true;
  }
  void close() {
    drop_opening();
    drop_overview();
    drop_export();
    runs.reset();
    a.reset();
    tl.reset();
    id = 0;
    lanes_b = 0;
    rest_read = false;
    checked.clear();
    inputs.clear();
    provisional = false;
    open_request = nullptr;
    warnings.clear();
  }
};

namespace engine {

using nlohmann::json;

// The open timeline a request names (its "timeline" field); refused when it
// is not the open one.
Timeline& timeline_of(Engine::State& s, const json& request);

// The queries of an open timeline (queries.cpp): each returns the result's
// fields, its columns added to `out`.
json bars(Engine::State& s, const json& r, WireAnswer& out);
json busy(Engine::State& s, const json& r, WireAnswer& out);
json band(Engine::State& s, const json& r, WireAnswer& out);
json stack(Engine::State& s, const json& r, WireAnswer& out);
json regions(Engine::State& s, const json& r, WireAnswer& out);
json fit(Engine::State& s, const json& r, WireAnswer& out);
json imbalance(Engine::State& s, const json& r, WireAnswer& out);
json aligned(Engine::State& s, const json& r, WireAnswer& out);
json lateness(Engine::State& s, const json& r, WireAnswer& out);
json compare_regions(Engine::State& s, const json& r, WireAnswer& out);
json compare_partner(Engine::State& s, const json& r, WireAnswer& out);
json overview(Engine::State& s, const json& r, const EngineIo& io, WireAnswer& out);
json overview_more(Engine::State& s, const json& r, WireAnswer& out);

// A download in slices (engine.cpp): the next slice of the one that goes on.
json export_more(Engine::State& s, const json& r, const EngineIo& io);
json export_cancel(Engine::State& s, const json& r);

// The requests about files (files.cpp): what a file holds, its overview, the
// filters checked, the files' documents.
json inspect(const json& r, const EngineIo& io);

// Makes a provisional timeline exact (engine.cpp): reads what the order
// and the origin need of the other ranks; returns whether the frames'
// order changed (then the timeline was opened anew, under a new id).
bool complete(Engine::State& s, const EngineIo& io);
json file_overview(const json& r, const EngineIo& io);
json check(const json& r);
json convert(const json& r, const EngineIo& io);
// A download's narrowing (minDuration, timeWindow) from its options.
Narrowing narrowing_of(const json& options);

}  // namespace engine
}  // namespace scope_speedscope
