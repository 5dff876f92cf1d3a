// select: a job written one file per process, read as one run (job.hpp).
#include "select/job.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>

#include "select/selection.hpp"
#include "text/messages.hpp"

namespace scope_speedscope {

namespace {

// The events a part's slices index: its columns, or (a run read without
// times and lanes) the end of its last held slice.
uint64_t event_extent(const Run& part) {
  if (part.times) return part.start_ns.size();
  if (part.lane_column) return part.lane.size();
  uint64_t end = 0;
  for (const Region& region : part.regions) {
    for (const RankSlice& slice : region.ranks) {
      if (slice.held) end = std::max(end, slice.offset + slice.count);
    }
  }
  return end;
}

// What makes a part one of a job: "mpi_size 64", or "per-process" (the C
// API's mpi_rank without mpi_size), or "" (neither).
std::string job_key(const Run& part) {
  if (part.mpi_size) return "mpi_size " + std::to_string(*part.mpi_size);
  if (part.mpi_rank) return "per-process";
  return "";
}

// Why two parts are not of one job, in a few words.
std::string why_not_one_job(const Run& a, const Run& b) {
  const std::string ka = job_key(a), kb = job_key(b);
  auto said = [](const Run& r, const std::string& key) {
    if (key == "per-process") return r.path + " is one process's file (no mpi_size)";
    if (key.empty()) return r.path + " records neither mpi_size nor its process's mpi_rank";
    return r.path + " records " + key;
  };
  if (ka.empty()) return said(a, ka);
  if (kb.empty()) return said(b, kb);
  return said(a, ka) + ", " + said(b, kb);
}

// The label the job's document carries: the parts' own when they agree,
// else the first part's display label without its "_rank<digits>" tail.
std::string job_label(const std::vector<Run>& parts) {
  bool same = true;
  for (const Run& p : parts) same = same && p.label == parts.front().label;
  if (same && !parts.front().label.empty()) return parts.front().label;
  std::string label = parts.front().display_label();
  const auto cut = label.rfind("_rank");
  if (cut != std::string::npos && cut + 5 < label.size() &&
      std::all_of(label.begin() + static_cast<std::ptrdiff_t>(cut + 5), label.end(),
                  [](char c) { return c >= '0' && c <= '9'; })) {
    label.erase(cut);
  }
  return label;
}

void check_one_job(const std::vector<Run>& parts) {
  const std::string key = job_key(parts.front());
  for (std::size_t i = 1; i < parts.size(); ++i) {
    if (key.empty() || job_key(parts[i]) != key) {
      throw Error(Msg::job_not_one_job, {{"first", parts.front().path},
                                         {"second", parts[i].path},
                                         {"why", why_not_one_job(parts.front(), parts[i])}})
          .in_file(parts[i].path);
    }
  }
  std::map<int64_t, std::size_t> holder;  // rank -> the part holding it
  for (std::size_t i = 0; i < parts.size(); ++i) {
    for (int64_t rank : run_ranks(parts[i])) {
      const auto [it, fresh] = holder.emplace(rank, i);
      if (!fresh) {
        throw Error(Msg::job_same_rank, {{"first", parts[it->second].path},
                                         {"second", parts[i].path},
                                         {"rank", std::to_string(rank)}})
            .in_file(parts[i].path);
      }
    }
  }
}

}  // namespace

Run merge_job(std::vector<Run> parts) {
  if (parts.empty()) throw Error(Msg::no_profiling_data);
  if (parts.size() == 1) return std::move(parts.front());
  for (const Run& p : parts) {
    if (p.file_first_start_ns || !p.region_order_keys.empty()) {
      throw Error(Msg::internal, {{"detail", "scope-speedscope: a job's part is a file's run"}});
    }
  }
  check_one_job(parts);
  // The job's order: lowest rank first (a part without rows last, in the
  // order given), whatever order the files were named in.
  auto lowest = [](const Run& r) {
    const std::vector<int64_t> ranks = run_ranks(r);
    return ranks.empty() ? INT64_MAX : ranks.front();
  };
  std::stable_sort(parts.begin(), parts.end(),
                   [&](const Run& a, const Run& b) { return lowest(a) < lowest(b); });

  Run job;
  const Run& first = parts.front();
  job.path = first.path + " + " + std::to_string(parts.size() - 1) +
             (parts.size() == 2 ? " more file" : " more files");
  job.label = job_label(parts);
  job.schema_version = first.schema_version;
  job.storage_layout = first.storage_layout;
  job.mpi_size = first.mpi_size;
  job.times = true;
  for (const Run& p : parts) {
    job.job_files.push_back(p.path);
    job.num_ranks = std::max(job.num_ranks, p.num_ranks);
    job.lane_column = job.lane_column || p.lane_column;
    job.times = job.times && p.times;
    job.partial = job.partial || p.partial;
    job.sources_read = job.sources_read || p.sources_read;
  }

  std::unordered_map<std::string, std::size_t> region_of;  // name -> job.regions
  for (Run& p : parts) {
    const uint64_t base = job.times ? job.start_ns.size() : job.lane_column ? job.lane.size() : 0;
    const uint64_t extent = event_extent(p);
    const auto source_base = static_cast<uint32_t>(job.sources.size());
    for (Region& region : p.regions) {
      auto [it, fresh] = region_of.emplace(region.name, job.regions.size());
      if (fresh) {
        job.regions.push_back(Region{region.name, {}, RankSlice::kNoSource});
      }
      for (RankSlice slice : region.ranks) {
        if (slice.held) slice.offset += base;
        if (slice.source != RankSlice::kNoSource) slice.source += source_base;
        job.regions[it->second].ranks.push_back(slice);
      }
    }
    if (job.times) {
      job.start_ns.insert(job.start_ns.end(), p.start_ns.begin(), p.start_ns.end());
      job.end_ns.insert(job.end_ns.end(), p.end_ns.begin(), p.end_ns.end());
    }
    if (job.lane_column) {
      if (p.lane_column) {
        job.lane.insert(job.lane.end(), p.lane.begin(), p.lane.end());
      } else {
        job.lane.insert(job.lane.end(), extent, -1);  // as scope-profiler fills a column
      }
    }
    job.sources.insert(job.sources.end(), p.sources.begin(), p.sources.end());
    job.warnings.insert(job.warnings.end(), p.warnings.begin(), p.warnings.end());
    for (auto& [rank, rows] : p.threads) job.threads[rank] = std::move(rows);
    for (auto& [rank, rows] : p.tasks) job.tasks[rank] = std::move(rows);
  }
  if (!job.times) {  // only lanes or nothing: the columns mean nothing joined
    job.start_ns.clear();
    job.end_ns.clear();
  }
  choose_region_sources(job);
  job.index_lanes();
  return job;
}

Run read_job(std::size_t parts, const ReadPart& read, const ReadPlan& plan) {
  std::vector<Run> runs;
  runs.reserve(parts);
  for (std::size_t i = 0; i < parts; ++i) runs.push_back(read(i, plan));
  return merge_job(std::move(runs));
}

Run read_job_for_view(std::size_t parts, const ReadPart& read, ReadPlan plan,
                      const std::optional<std::vector<int64_t>>& listed, bool every) {
  if (!every) plan.ranks = listed.value_or(std::vector<int64_t>{0});
  Run run = read_job(parts, read, plan);
  if (every || listed || !run.partial) return run;
  const std::vector<int64_t> ranks = run_ranks(run);
  if (ranks.empty() || ranks.front() == 0) return run;
  // No rank 0: the view opens the ranks the job has, so all of them are read.
  plan.ranks.reset();
  return read_job(parts, read, plan);
}

std::vector<std::string> run_files(const Run& run) {
  if (!run.job_files.empty()) return run.job_files;
  return {run.path};
}

}  // namespace scope_speedscope
