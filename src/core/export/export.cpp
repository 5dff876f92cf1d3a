// export: scope-profiler's export_speedscope (spec 5.1): each run selected,
// narrowed, reconstructed and written to its output, with the errors in
// scope-profiler's order; outputs committed only when every run succeeded.
// Names are in naming.cpp, files in files.cpp.
#include "export/export.hpp"

#include <iostream>

#include "export/narrow.hpp"
#include "reconstruct/profiles.hpp"
#include "text/messages.hpp"

namespace scope_speedscope {

Sink& OutputTarget::resume() {
  throw Error(Msg::internal,
              {{"detail", "scope-speedscope: this engine writes a download in one request"}});
}

// ---- export_speedscope -------------------------------------------------------

namespace {

// The message when narrowing left nothing although the selection had calls:
// it names the option that emptied it (both when only together they do).
[[noreturn]] void nothing_left(const std::vector<Run>& runs,
                               const std::vector<std::vector<int64_t>>& ranks_of_run,
                               const ExportOptions& options) {
  const Narrowing& n = options.narrowing;
  bool by_min = n.min_duration_ns.has_value();
  bool by_window = n.window;
  if (by_min && by_window) {
    // Does either option alone leave nothing? Then it alone is named.
    auto keeps_some = [&](const Narrowing& alone) {
      for (std::size_t i = 0; i < runs.size(); ++i) {
        const Run& run = runs[i];
        const std::vector<uint32_t> regions =
            filter_regions(run, options.include, options.exclude, nullptr);
        const Clip clip = clip_of(alone, alone.window ? run_origin_ns(run) : std::nullopt);
        const bool none = for_each_selected_event(run, regions, ranks_of_run[i], [&](uint64_t e) {
          return !clip.keep(run.start_ns[e], run.end_ns[e]);
        });
        if (!none) return true;
      }
      return false;
    };
    Narrowing only_min = n, only_window = n;
    only_min.window = false;
    only_window.min_duration_ns.reset();
    if (!keeps_some(only_min)) {
      by_window = false;
    } else if (!keeps_some(only_window)) {
      by_min = false;
    }
  }
  Error e(by_min && by_window ? Msg::nothing_left_both
          : by_min            ? Msg::nothing_left_min
                              : Msg::nothing_left_window,
          {{"min", n.min_duration_text}, {"window", n.window_text}});
  e.on_field(by_min ? "minDuration" : "timeWindow");
  if (runs.size() == 1) e.in_file(runs.front().path);
  throw e;
}

// Each run's ranks (with every_rank, its own).
std::vector<std::vector<int64_t>> ranks_of_runs(const std::vector<Run>& runs,
                                                const ExportOptions& options) {
  std::vector<std::vector<int64_t>> out;
  for (const Run& run : runs) out.push_back(chosen_ranks(run, options.ranks, options.every_rank));
  return out;
}

// The profiles reconstructed from the run's calls (export_speedscope's own).
ProfileSet reconstructed(const Run& run, const std::vector<uint32_t>& regions,
                         const std::vector<int64_t>& ranks, const ExportOptions& options,
                         uint64_t& step, uint64_t steps) {
  auto selected = std::make_shared<SelectedProfiles>(
      reconstruct_profiles(run, regions, ranks, CallStorage::streamed, [&](std::size_t) {
        if (options.progress) options.progress("reconstruct", ++step, steps);
      }));
  ProfileSet set;
  set.named = selected->named();
  set.keep = std::move(selected);
  return set;
}

}  // namespace

// export_speedscope's run after run, a document at a time and each document
// a slice of events at a time (ExportJob::step): every rule of the export
// lives here once, whether it is written at once or in slices.
struct ExportJob::State {
  State(std::vector<Run> owned_runs, const std::vector<Run>* given, const std::string& filepath,
        const ExportOptions& opts, OutputTarget& out, ProfilesOf of)
      : owned(std::move(owned_runs)),
        runs(given != nullptr ? *given : owned),
        options(opts),
        target(out),
        profiles_of(std::move(of)) {
    if (runs.empty()) throw Error(Msg::no_profiling_data);
    ranks_of_run = ranks_of_runs(runs, options);
    for (const auto& ranks : ranks_of_run) steps += ranks.size();
    std::vector<std::string> display;
    display.reserve(runs.size());
    for (const Run& run : runs) display.push_back(run.display_label());
    labels = unique_labels(display);
    // scope-profiler names files after validating every run; keep that
    // order of errors while writing run by run.
    try {
      paths = output_paths(filepath, labels);
    } catch (const Error& e) {
      naming_error = e;
    }
  }

  // Run `next`'s document begun (its output opened, its writer made), or
  // skipped when it writes nothing; false once every run was seen.
  bool begin_next() {
    for (; next < runs.size(); ++next) {
      const std::size_t i = next;
      try {
        const Run& original = runs[i];
        const std::vector<int64_t>& ranks = ranks_of_run[i];
        std::vector<uint32_t> regions =
            selected_regions(original, options.include, options.exclude);
        // Narrowing: from here on, the run is the file holding only the kept calls.
        narrowed.reset();
        if (options.narrowing.active())
          narrowed.emplace(narrow_run(original, regions, options.narrowing));
        const Run& run = narrowed ? *narrowed : original;
        regions = order_regions(run, std::move(regions));
        selected = profiles_of && !narrowed
                       ? profiles_of(run, regions, ranks)
                       : reconstructed(run, regions, ranks, options, step, steps);
        if (selected.named.empty()) {  // a run without calls is skipped
          if (narrowed && selection_calls(original, regions, ranks) > 0) narrowed_away = true;
          continue;
        }
        if (naming_error) {
          written.push_back("");
          continue;
        }
        Sink& sink = target.open(paths[i]);
        writer = std::make_unique<DocumentWriter>(sink, run, labels[i], selected.named,
                                                  options.flush_size, options.progress,
                                                  options.source_locations);
        ++next;
        return true;
      } catch (Error& e) {
        if (e.kind() != ErrorKind::io) e.in_file(runs[i].path);  // not the output's failures
        throw;
      }
    }
    return false;
  }

  // The document begun written on; whether it is complete (then closed).
  bool write(uint64_t events) {
    const std::size_t i = next - 1;
    try {
      if (!writer->write(events)) return false;
      writer.reset();
      target.close();
      written.push_back(paths[i]);
      return true;
    } catch (Error& e) {
      if (e.kind() != ErrorKind::io) e.in_file(runs[i].path);
      throw;
    }
  }

  // Every run seen: the errors that only the whole says, then the outputs committed.
  void finish() {
    if (written.empty()) {
      if (narrowed_away) nothing_left(runs, ranks_of_run, options);
      Error e(Msg::no_calls_recorded);
      e.on_field("ranks");
      if (runs.size() == 1) e.in_file(runs.front().path);
      throw e;
    }
    if (naming_error) throw *naming_error;
    target.commit();
    if (!options.verbose) return;
    for (const std::string& path : written) {
      const std::string line = "Wrote " + path + " (view at https://www.speedscope.app)";
      if (options.log) {
        options.log(line);
      } else {
        std::cout << line << '\n';
      }
    }
  }

  std::vector<Run> owned;
  const std::vector<Run>& runs;
  ExportOptions options;
  OutputTarget& target;
  ProfilesOf profiles_of;
  std::vector<std::vector<int64_t>> ranks_of_run;
  uint64_t steps = 0, step = 0;  // progress: a step a rank of a run
  std::vector<std::string> labels, paths, written;
  std::optional<Error> naming_error;
  bool narrowed_away = false;  // narrowing left nothing of calls the selection had
  std::size_t next = 0;        // the next run to begin
  std::optional<Run> narrowed;
  ProfileSet selected;
  std::unique_ptr<DocumentWriter> writer;  // the document being written
  bool finished = false, failed = false;
};

ExportJob::ExportJob(std::vector<Run> runs, const std::string& filepath,
                     const ExportOptions& options, OutputTarget& target, ProfilesOf profiles_of) {
  try {
    s_ = std::make_unique<State>(std::move(runs), nullptr, filepath, options, target,
                                 std::move(profiles_of));
  } catch (...) {
    target.abort();
    throw;
  }
}

ExportJob::ExportJob(const std::vector<Run>& runs, const std::string& filepath,
                     const ExportOptions& options, OutputTarget& target,
                     const ProfilesOf& profiles_of, Borrowed) {
  try {
    s_ = std::make_unique<State>(std::vector<Run>{}, &runs, filepath, options, target, profiles_of);
  } catch (...) {
    target.abort();
    throw;
  }
}

ExportJob::~ExportJob() {
  if (s_ && !s_->finished && !s_->failed) s_->target.abort();
}

bool ExportJob::step(uint64_t events) {
  State& s = *s_;
  if (s.finished) return true;
  if (s.failed)
    throw Error(Msg::internal, {{"detail", "scope-speedscope: an export that failed went on"}});
  try {
    while (true) {
      if (!s.writer && !s.begin_next()) {
        s.finish();
        s.finished = true;
        return true;
      }
      if (!s.write(events)) return false;
    }
  } catch (...) {
    s.failed = true;
    s.writer.reset();
    s.target.abort();
    throw;
  }
}

uint64_t ExportJob::done() const { return s_->writer ? s_->writer->done() : 0; }
uint64_t ExportJob::total() const { return s_->writer ? s_->writer->total() : 0; }
const std::vector<std::string>& ExportJob::written() const { return s_->written; }

namespace {

std::vector<std::string> export_runs(const std::vector<Run>& runs, const std::string& filepath,
                                     const ExportOptions& options, OutputTarget& target,
                                     const ProfilesOf& profiles_of) {
  ExportJob job(runs, filepath, options, target, profiles_of, ExportJob::Borrowed{});
  job.step(UINT64_MAX);
  return job.written();
}

}  // namespace

std::vector<std::string> export_speedscope(const std::vector<Run>& runs,
                                           const std::string& filepath,
                                           const ExportOptions& options, OutputTarget& target) {
  return export_speedscope(runs, filepath, options, target, ProfilesOf{});
}

std::vector<std::string> export_speedscope(const std::vector<Run>& runs,
                                           const std::string& filepath,
                                           const ExportOptions& options, OutputTarget& target,
                                           const ProfilesOf& profiles_of) {
  return export_runs(runs, filepath, options, target, profiles_of);  // aborts on failure
}

std::vector<std::string> export_speedscope(const std::vector<Run>& runs,
                                           const std::string& filepath,
                                           const ExportOptions& options) {
  FileOutputTarget target;
  return export_speedscope(runs, filepath, options, target);
}

}  // namespace scope_speedscope
