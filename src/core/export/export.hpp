// export: scope-profiler's export_speedscope. Region filters, ranks, lanes,
// labels and file names, errors; each document streamed to its output.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "export/narrow.hpp"
#include "export/overview.hpp"
#include "model/run.hpp"
#include "select/selection.hpp"
#include "write/speedscope_writer.hpp"

namespace scope_speedscope {

struct ExportOptions {
  std::optional<std::vector<int64_t>> ranks;  // nullopt: [0]; used as given
  bool every_rank = false;                    // every rank of each run instead (--ranks all)
  Patterns include;                           // nullopt: no filter
  Patterns exclude;
  // min-duration / time-window (ours; none by default: the output is then
  // scope-profiler's). See narrow.hpp.
  Narrowing narrowing;
  // --source-locations (ours; off by default): each frame carries its
  // region's "file" and "line" where known. The runs must have been read
  // with their sources (ReadPlan::sources); without, no frame has them.
  bool source_locations = false;
  bool verbose = true;  // print "Wrote <path> (view at https://www.speedscope.app)"
  Progress progress;
  std::size_t flush_size = 1 << 16;
  // Where verbose lines go; default: standard output.
  std::function<void(const std::string&)> log;
};

// Where the documents go. The export opens one output per written file, in
// order, writes it, and commits all of them only when every run succeeded;
// on any error it aborts, and nothing may be left behind.
class OutputTarget {
 public:
  virtual ~OutputTarget() = default;
  virtual Sink& open(const std::string& path) = 0;  // path as export_speedscope names it
  virtual void close() = 0;                         // the open output is complete
  virtual void commit() = 0;                        // all outputs are complete
  virtual void abort() noexcept = 0;                // drop every output
  // The open output's sink again, in a later request of an export written
  // in slices (the engine's timeline-export-more): for a shell whose
  // outputs outlive a request. By default there is none.
  virtual Sink& resume();
};

// Files: each written to a temporary name beside its target and renamed on
// commit; parent directories are created.
class FileOutputTarget final : public OutputTarget {
 public:
  FileOutputTarget();
  ~FileOutputTarget() override;  // aborts what was not committed
  Sink& open(const std::string& path) override;
  void close() override;
  void commit() override;
  void abort() noexcept override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Exports runs (one document per run) and returns the written paths.
std::vector<std::string> export_speedscope(const std::vector<Run>& runs,
                                           const std::string& filepath,
                                           const ExportOptions& options, OutputTarget& target);
// The same, to files.
std::vector<std::string> export_speedscope(const std::vector<Run>& runs,
                                           const std::string& filepath,
                                           const ExportOptions& options = {});

// The profiles a run's selection (its regions in order, its ranks) writes,
// and what keeps their calls alive. By default reconstructed from the run's
// calls; export_timeline (timeline_export.hpp) gives an open timeline's
// lanes instead, streamed from its columns.
struct ProfileSet {
  std::vector<NamedCalls> named;
  std::shared_ptr<const void> keep;
};
using ProfilesOf = std::function<ProfileSet(const Run& run, const std::vector<uint32_t>& regions,
                                            const std::vector<int64_t>& ranks)>;
// export_speedscope with the profiles of each run from `profiles_of`
// (without narrowing: a narrowing selects calls of the run's columns).
std::vector<std::string> export_speedscope(const std::vector<Run>& runs,
                                           const std::string& filepath,
                                           const ExportOptions& options, OutputTarget& target,
                                           const ProfilesOf& profiles_of);

// export_speedscope a slice at a time, so that an engine answers other
// requests between the slices: step(events) writes about that many more
// events of the document being written (DocumentWriter), and goes on to the
// next run's when one is complete; true once every output is committed. The
// same checks, errors in the same order, bytes and outputs as
// export_speedscope (which is this, in one step). A failure aborts every
// output, and so does destroying a job that did not finish. The target must
// outlive it.
class ExportJob {
 public:
  struct Borrowed {};
  ExportJob(std::vector<Run> runs, const std::string& filepath, const ExportOptions& options,
            OutputTarget& target, ProfilesOf profiles_of = {});
  // The runs borrowed: they must outlive it.
  ExportJob(const std::vector<Run>& runs, const std::string& filepath, const ExportOptions& options,
            OutputTarget& target, const ProfilesOf& profiles_of, Borrowed);
  ~ExportJob();
  ExportJob(const ExportJob&) = delete;
  ExportJob& operator=(const ExportJob&) = delete;
  bool step(uint64_t events);
  uint64_t done() const;                            // events written of the document being written
  uint64_t total() const;                           // its events (0 between documents)
  const std::vector<std::string>& written() const;  // the paths, once finished

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// The pieces, public for the shells and the tests.

// "run", "run", "run" -> "run", "run (2)", "run (3)".
std::vector<std::string> unique_labels(const std::vector<std::string>& labels);
// "my run 128 ranks" -> "my_run_128_ranks"; "!!!" -> "!!!".
std::string filename_slug(const std::string& label);
// The file names export_speedscope writes for these (unique) labels.
std::vector<std::string> output_paths(const std::string& filepath,
                                      const std::vector<std::string>& labels);
// str(pathlib.Path(p)): "a//b/./c/" -> "a/b/c".
std::string normalize_path(const std::string& path);

}  // namespace scope_speedscope
