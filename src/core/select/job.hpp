// select: a job written one file per process (scope-profiler's C API
// writes <prefix>_rank<NNNNN>.h5 for each process), read as one run. The
// rule of which files make one job lives here, once: every consumer (the
// CLIs' imbalance and diff, the engine's timeline-open, the package's
// openTimeline) reads its files through read_job and takes the one run.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "model/run.hpp"
#include "read/h5_reader.hpp"

namespace scope_speedscope {

// Several runs holding disjoint ranks of one job as one run, as the job
// written as one file reads: regions joined by name (first appearance,
// parts ordered by their lowest rank), each part's slices re-based onto the
// appended event columns, the lane column (-1 where a part recorded none),
// the thread and task tables and the source locations of every part. Parts
// are of one job when they record the same mpi_size, or none records one
// and each records its process's mpi_rank (the C API's per-process
// metadata). Throws job_same_rank (two parts hold the same rank, both
// named) or job_not_one_job (the first two parts that differ, named). One
// part is returned as it is.
Run merge_job(std::vector<Run> parts);

// Reads part `index` of a job (0 .. parts - 1) as `plan` says.
using ReadPart = std::function<Run(std::size_t index, const ReadPlan& plan)>;

// Reads the parts of a job with one plan and merges them (merge_job).
Run read_job(std::size_t parts, const ReadPart& read, const ReadPlan& plan);

// What a view (the timeline, the page) reads: with ranks listed, only those
// ranks' calls; with `every`, all; else rank 0's, and when the job has no
// rank 0 every rank's (its ranks, as view_ranks then chooses them).
Run read_job_for_view(std::size_t parts, const ReadPart& read, ReadPlan plan,
                      const std::optional<std::vector<int64_t>>& listed, bool every);

// The paths a run was read from: its job's files, or its own path.
std::vector<std::string> run_files(const Run& run);

}  // namespace scope_speedscope
