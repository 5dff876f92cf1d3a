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
#include "model/run.hpp"
#include "write/speedscope_writer.hpp"

namespace scope_speedscope {

struct ExportOptions {
  std::optional<std::vector<int64_t>> ranks;         // nullopt: [0]; used as given
  std::optional<std::vector<std::string>> include;   // nullopt: no filter
  std::optional<std::vector<std::string>> exclude;   // nullopt: no filter
  // min-duration / time-window (ours; none by default: the output is then
  // scope-profiler's). See narrow.hpp.
  Narrowing narrowing;
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
  virtual void close() = 0;                          // the open output is complete
  virtual void commit() = 0;                         // all outputs are complete
  virtual void abort() noexcept = 0;                 // drop every output
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
                                           const ExportOptions& options,
                                           OutputTarget& target);
// The same, to files.
std::vector<std::string> export_speedscope(const std::vector<Run>& runs,
                                           const std::string& filepath,
                                           const ExportOptions& options = {});

// The pieces, public for the shells and the tests.

// Indices into run.regions kept by the filters (Python re.match: anchored at
// the start only), stably sorted by their earliest first start in seconds.
std::vector<uint32_t> get_regions(const Run& run,
                                  const std::optional<std::vector<std::string>>& include,
                                  const std::optional<std::vector<std::string>>& exclude);
// The regions kept by the filters, in file order; when none is kept,
// *emptied_by (if given) says which filter emptied the list: "include" (no
// region matched it), "exclude", or "" (the run has no regions).
std::vector<uint32_t> filter_regions(const Run& run,
                                     const std::optional<std::vector<std::string>>& include,
                                     const std::optional<std::vector<std::string>>& exclude,
                                     const char** emptied_by);
// Regions stably sorted by their earliest first start in seconds (ties in
// file order).
std::vector<uint32_t> order_regions(const Run& run, std::vector<uint32_t> regions);

// Throws invalid_rank (on the field "ranks", at <index>) unless <rank> is one
// of the run's ranks: the export and the timeline take ranks by this rule.
void require_rank(const Run& run, int64_t rank, std::size_t index);
// True when `pattern` matches at the start of `text` (Python re.match).
bool regex_match_at_start(const std::string& pattern, const std::string& text);
// "run", "run", "run" -> "run", "run (2)", "run (3)".
std::vector<std::string> unique_labels(const std::vector<std::string>& labels);
// "my run 128 ranks" -> "my_run_128_ranks"; "!!!" -> "!!!".
std::string filename_slug(const std::string& label);
// The file names export_speedscope writes for these (unique) labels.
std::vector<std::string> output_paths(const std::string& filepath,
                                      const std::vector<std::string>& labels);
// "rank 0" or "rank 0 - <lane label>".
std::string profile_name(const Run& run, int64_t rank, int64_t lane);
// str(pathlib.Path(p)): "a//b/./c/" -> "a/b/c".
std::string normalize_path(const std::string& path);

}  // namespace scope_speedscope
