// A run: what the reader hands to the rest of the pipeline. Plain columns,
// no HDF5 types. One run is one scope-profiler file.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/column.hpp"

namespace scope_speedscope {

// The calls one region recorded on one rank: events [offset, offset + count)
// of the run's event columns.
struct RankSlice {
  RankSlice(int64_t r = 0, uint64_t o = 0, uint64_t n = 0) : rank(r), offset(o), count(n) {}
  int64_t rank = 0;
  uint64_t offset = 0;
  uint64_t count = 0;
  // False for a rank whose calls a read left out (ReadPlan::ranks): the
  // columns do not hold them and offset means nothing; min_start_ns is then
  // the earliest start of these calls when the read took it (what the
  // region order and the origin need of every rank), else nullopt.
  bool held = true;
  std::optional<int64_t> min_start_ns;
  // The row's place in Run::sources (kNoSource: none read, or unknown).
  uint32_t source = kNoSource;
  static constexpr uint32_t kNoSource = UINT32_MAX;
};

// Where in the code a region row was recorded, as the layout stores it
// (schema 1: the region group's @source_file, @source_lineno, @source_text;
// schemas 2 and 3: rank_region_index/source_files, source_lines,
// source_texts). Read only when asked (ReadPlan::sources). Unknown parts:
// file "" , line -1, text "" (a bad value is read as unknown: see
// read/h5_source.cpp).
struct SourceLocation {
  std::string file;
  int64_t line = -1;
  std::string text;
  bool known() const { return !file.empty() || line >= 0 || !text.empty(); }
  bool operator==(const SourceLocation& o) const {
    return file == o.file && line == o.line && text == o.text;
  }
};

struct Region {
  std::string name;
  std::vector<RankSlice> ranks;  // in the order the file supplied them
  // The region's source location in Run::sources: its lowest rank's row's
  // (set by the read that read sources; kept by a narrowed run's copy).
  uint32_t source = RankSlice::kNoSource;
};

struct ThreadInfo {
  int64_t index = 0;
  std::string name;
};

struct TaskInfo {
  int64_t index = 0;
  int64_t thread_index = 0;
  std::string name;
  std::string coro_name;
};

struct Run {
  std::string path;   // the file as the user named it
  std::string label;  // metadata "label"; empty when absent or falsy
  int64_t schema_version = 1;
  std::string storage_layout;  // "columnar", "aggregate" or "" (schema 1)
  int64_t num_ranks = 0;
  // What says which job a file belongs to (select/job.hpp): metadata
  // mpi_size as scope-profiler takes it (int(...)), when the file has one;
  // metadata mpi_rank, which scope-profiler's C API writes in each
  // process's own file (<prefix>_rank<NNNNN>.h5) instead of mpi_size.
  std::optional<int64_t> mpi_size;
  std::optional<int64_t> mpi_rank;
  // A job read from several files (select/job.hpp): their paths as the
  // user named them, in the job's order (lowest rank first); empty for a
  // run of one file.
  std::vector<std::string> job_files;
  std::vector<Region> regions;  // each name once, first-appearance order

  // Event columns, shared by all regions and ranks (nanoseconds). A
  // timeline may take them over (timeline/build.cpp).
  Column<int64_t> start_ns;
  Column<int64_t> end_ns;
  // Lane of each event (threads <= -2, tasks >= 0, -1 unknown); empty when
  // the file recorded no thread_ids column (then a rank is one stack).
  std::vector<int64_t> lane;

  // The source locations of the region rows (RankSlice::source), when the
  // read was asked for them (sources_read); empty otherwise.
  std::vector<SourceLocation> sources;
  bool sources_read = false;
  // What the read found wrong but read on ("source_lines[3] is -7: read as
  // unknown"), each kind once: the shells print them as warnings.
  std::vector<std::string> warnings;

  std::map<int64_t, std::vector<ThreadInfo>> threads;  // per rank, row order
  std::map<int64_t, std::vector<TaskInfo>> tasks;      // per rank, row order

  // label if set, else the file name without its last suffix.
  std::string display_label() const;
  // "MainThread", "Task-2 (job) on MainThread", "thread 3", "task 7", ...
  std::string lane_label(int64_t lane, int64_t rank) const;
  bool has_lanes() const { return lane_column; }

  bool lane_column = false;  // true when the file has a thread_ids column

  // False for a run read without its calls' times (ReadDepth::index): its
  // slices and lanes are the file's, start_ns and end_ns are empty. Only
  // inspect_run takes such a run; reconstructing calls refuses it.
  bool times = true;

  // True for a run read with only some ranks' calls (ReadPlan::ranks): some
  // slice with calls is not held. Its region order and origin are still the
  // file's (each left-out slice keeps its earliest start).
  bool partial = false;

  // Set on a run holding only some of its file's calls (a timeline's, given
  // back as a run): the file's first start, which run_origin_ns answers.
  std::optional<int64_t> file_first_start_ns;
  // Set on such a run too: each region's order key (its first start in
  // seconds over every rank of the file, as order_regions computes it), so
  // that its regions sort as the file's do whichever ranks it holds.
  std::vector<double> region_order_keys;

  // The row of the first thread and task of each (rank, index), so that
  // labelling every lane of a run with 100,000 asyncio tasks is not
  // quadratic. index_lanes() builds it (the reader calls it once the tables
  // are read); without it lane_label searches the tables row by row.
  struct LaneIndex;
  std::shared_ptr<const LaneIndex> lane_index;
  void index_lanes();
};

// A run with `run`'s header and nothing else: its path, label, schema,
// layout and rank count (what a run made from it, a narrowing, a timeline's
// description or a job's part, says of its file).
Run run_header(const Run& run);

// A region's source location (Region::source: its lowest rank's row's; the
// frame's file and line with --source-locations); nullptr when none was
// read or it is unknown.
const SourceLocation* region_source(const Run& run, const Region& region);
// The source location of one row; nullptr as above.
const SourceLocation* slice_source(const Run& run, const RankSlice& slice);
// Sets each region's source to its lowest rank's row's (the reader, once).
void choose_region_sources(Run& run);

// The earliest start over every call of the run (all regions, ranks and
// lanes), in ns: the zero of a time window, whatever is selected; nullopt
// when the run has no call. (file_first_start_ns when set.)
std::optional<int64_t> run_origin_ns(const Run& run);

// The earliest start of a slice with calls: from the columns when it is
// held, else what the read kept (Error internal when it kept nothing).
int64_t slice_min_start_ns(const Run& run, const RankSlice& slice);

// Error internal unless the run's columns hold the slice's calls.
void require_held(const RankSlice& slice);

// The ranks with calls whose calls a partial read left out, ascending.
std::vector<int64_t> unread_ranks(const Run& run);

// Lane id of one call from its thread and task ids (task_id < 0 or absent:
// the thread's lane).
int64_t lane_id(int64_t thread_id, const int64_t* task_id);

// Progress of a long step: phase is "read", "reconstruct" or "write".
using Progress = std::function<void(std::string_view phase, uint64_t done, uint64_t total)>;

}  // namespace scope_speedscope
