// select: a job written one file per process, read as one run (job.hpp).
#include "select/job.hpp"

#include <algorithm>
#include <map>
#include <optional>
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

// Joins parts as they come (each part's columns appended, then dropped, so
// that reading a job holds its columns and one file's, not every file
// twice), checking each against those before it; finish() puts the regions
// and their slices in the job's order (parts by lowest rank).
class JobMerge {
 public:
  // The job's events expected, if known: its columns are reserved once.
  void expect(uint64_t events) { expected_ = events; }

  void add(Run&& p) {
    if (p.file_first_start_ns || !p.region_order_keys.empty()) {
      throw Error(Msg::internal, {{"detail", "scope-speedscope: a job's part is a file's run"}});
    }
    check(p);
    const std::size_t index = parts_.size();
    const std::vector<int64_t> ranks = run_ranks(p);
    parts_.push_back({p.path,
                      p.label,
                      p.display_label(),
                      job_key(p),
                      p.mpi_size,
                      p.mpi_rank,
                      ranks.empty() ? INT64_MAX : ranks.front(),
                      {}});
    if (index == 0) {
      job_.schema_version = p.schema_version;
      job_.storage_layout = p.storage_layout;
      job_.mpi_size = p.mpi_size;
      job_.times = p.times;
    } else if (p.times != job_.times) {
      throw Error(Msg::internal, {{"detail", "scope-speedscope: a job's parts read unlike"}});
    }
    job_.job_files.push_back(p.path);
    job_.num_ranks = std::max(job_.num_ranks, p.num_ranks);
    job_.partial = job_.partial || p.partial;
    job_.sources_read = job_.sources_read || p.sources_read;

    const uint64_t base = job_.times ? job_.start_ns.size() : events_;
    const uint64_t extent = event_extent(p);
    if (p.lane_column && !job_.lane_column) {
      job_.lane_column = true;
      job_.lane.assign(base, -1);  // the parts before had none: as scope-profiler fills a column
    }
    const auto source_base = static_cast<uint32_t>(job_.sources.size());
    for (Region& region : p.regions) {
      auto [it, fresh] = region_of_.emplace(region.name, job_.regions.size());
      if (fresh) {
        job_.regions.push_back(Region{region.name, {}, RankSlice::kNoSource});
        slice_part_.emplace_back();
      }
      parts_.back().regions.push_back(it->second);
      for (RankSlice slice : region.ranks) {
        if (slice.held) slice.offset += base;
        if (slice.source != RankSlice::kNoSource) slice.source += source_base;
        job_.regions[it->second].ranks.push_back(slice);
        slice_part_[it->second].push_back(index);
      }
    }
    if (job_.times) {
      append(job_.start_ns, p.start_ns);
      append(job_.end_ns, p.end_ns);
    }
    if (job_.lane_column) {
      if (p.lane_column) {
        append(job_.lane, p.lane);
      } else {
        job_.lane.insert(job_.lane.end(), extent, -1);  // as scope-profiler fills a column
      }
    }
    events_ = base + extent;
    job_.sources.insert(job_.sources.end(), p.sources.begin(), p.sources.end());
    job_.warnings.insert(job_.warnings.end(), p.warnings.begin(), p.warnings.end());
    for (auto& [rank, rows] : p.threads) job_.threads[rank] = std::move(rows);
    for (auto& [rank, rows] : p.tasks) job_.tasks[rank] = std::move(rows);
  }

  Run finish() && {
    // The job's order: lowest rank first (a part without rows last, in the
    // order given), whatever order the files were named in.
    std::vector<std::size_t> order(parts_.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return parts_[a].lowest < parts_[b].lowest;
    });
    std::vector<std::size_t> place(parts_.size());  // part -> its place in the job's order
    for (std::size_t i = 0; i < order.size(); ++i) place[order[i]] = i;
    // Regions in first appearance over the parts in that order; each
    // region's slices in that order too.
    std::vector<Region> regions;
    std::vector<char> taken(job_.regions.size(), 0);
    for (std::size_t part : order) {
      for (std::size_t r : parts_[part].regions) {
        if (taken[r]) continue;
        taken[r] = 1;
        Region region = std::move(job_.regions[r]);
        std::vector<std::size_t> by(region.ranks.size());
        for (std::size_t k = 0; k < by.size(); ++k) by[k] = k;
        std::stable_sort(by.begin(), by.end(), [&](std::size_t a, std::size_t b) {
          return place[slice_part_[r][a]] < place[slice_part_[r][b]];
        });
        std::vector<RankSlice> slices;
        slices.reserve(by.size());
        for (std::size_t k : by) slices.push_back(region.ranks[k]);
        region.ranks = std::move(slices);
        regions.push_back(std::move(region));
      }
    }
    job_.regions = std::move(regions);
    job_.job_files.clear();
    for (std::size_t part : order) job_.job_files.push_back(parts_[part].path);
    const Part& first = parts_[order.front()];
    job_.path = first.path + " + " + std::to_string(parts_.size() - 1) +
                (parts_.size() == 2 ? " more file" : " more files");
    job_.label = label(first);
    if (!job_.times) {  // only lanes or nothing: the columns mean nothing joined
      job_.start_ns.clear();
      job_.end_ns.clear();
    }
    choose_region_sources(job_);
    job_.index_lanes();
    return std::move(job_);
  }

 private:
  struct Part {
    std::string path, label, display_label, key;
    std::optional<int64_t> mpi_size, mpi_rank;
    int64_t lowest;
    std::vector<std::size_t> regions;  // its regions in job_.regions, in its order
  };

  // The column a part appends, its memory given back at once (reserved
  // for the events expected, when known, so that it grows once).
  void append(std::vector<int64_t>& to, std::vector<int64_t>& from) {
    if (to.capacity() < expected_) to.reserve(expected_);
    to.insert(to.end(), from.begin(), from.end());
    std::vector<int64_t>().swap(from);
  }
  void append(Column<int64_t>& to, Column<int64_t>& from) {
    if (to.capacity() < expected_) to.reserve(expected_);
    to.append(from.begin(), from.end());
    from = Column<int64_t>();
  }

  // job_not_one_job against the first part; job_same_rank against the
  // parts before.
  void check(const Run& p) {
    const std::string key = job_key(p);
    if (!parts_.empty() && (parts_.front().key.empty() || key != parts_.front().key)) {
      const Part& first = parts_.front();
      Run said;  // what why_not_one_job reads of the first part
      said.path = first.path;
      said.mpi_size = first.mpi_size;
      said.mpi_rank = first.mpi_rank;
      throw Error(Msg::job_not_one_job,
                  {{"first", first.path}, {"second", p.path}, {"why", why_not_one_job(said, p)}})
          .in_file(p.path);
    }
    for (int64_t rank : run_ranks(p)) {
      const auto [it, fresh] = holder_.emplace(rank, parts_.size());
      if (!fresh) {
        throw Error(Msg::job_same_rank, {{"first", parts_[it->second].path},
                                         {"second", p.path},
                                         {"rank", std::to_string(rank)}})
            .in_file(p.path);
      }
    }
  }

  // The parts' own label when they agree, else the first part's display
  // label without its "_rank<digits>" tail.
  std::string label(const Part& first) const {
    bool same = true;
    for (const Part& p : parts_) same = same && p.label == parts_.front().label;
    if (same && !first.label.empty()) return first.label;
    std::string label = first.display_label;
    const auto cut = label.rfind("_rank");
    if (cut != std::string::npos && cut + 5 < label.size() &&
        std::all_of(label.begin() + static_cast<std::ptrdiff_t>(cut + 5), label.end(),
                    [](char c) { return c >= '0' && c <= '9'; })) {
      label.erase(cut);
    }
    return label;
  }

  uint64_t expected_ = 0;
  Run job_;
  uint64_t events_ = 0;  // the job's events so far (its columns' length)
  std::vector<Part> parts_;
  std::unordered_map<std::string, std::size_t> region_of_;  // name -> job_.regions
  std::vector<std::vector<std::size_t>> slice_part_;        // per region, per slice: its part
  std::map<int64_t, std::size_t> holder_;                   // rank -> the part holding it
};

}  // namespace

Run merge_job(std::vector<Run> parts) {
  if (parts.empty()) throw Error(Msg::no_profiling_data);
  if (parts.size() == 1) return std::move(parts.front());
  JobMerge merge;
  uint64_t events = 0;
  for (const Run& p : parts) events += p.times ? p.start_ns.size() : p.lane.size();
  merge.expect(events);
  for (Run& p : parts) merge.add(std::move(p));
  return std::move(merge).finish();
}

Run read_job(std::size_t parts, const ReadPart& read, const ReadPlan& plan) {
  if (parts == 0) throw Error(Msg::no_profiling_data);
  if (parts == 1) return read(0, plan);
  JobMerge merge;
  for (std::size_t i = 0; i < parts; ++i) {
    Run part = read(i, plan);
    // Every rank read: each process's file holds about as many calls as
    // the first (a read of some ranks holds some files' calls only).
    if (i == 0 && !plan.ranks)
      merge.expect((part.times ? part.start_ns.size() : part.lane.size()) * parts);
    merge.add(std::move(part));
  }
  return std::move(merge).finish();
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
