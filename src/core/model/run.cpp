#include "model/run.hpp"

#include <algorithm>
#include <utility>

#include "text/messages.hpp"

namespace scope_speedscope {
namespace {

// pathlib's PurePath.name and .stem.
std::string file_name(const std::string& path) {
  std::string p = path;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  const auto slash = p.rfind('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

std::string stem(const std::string& name) {
  const auto dot = name.rfind('.');
  if (dot != std::string::npos && dot > 0 && dot < name.size() - 1) return name.substr(0, dot);
  return name;
}

}  // namespace

struct Run::LaneIndex {
  // (rank, index) -> row in threads[rank] / tasks[rank] of the first one
  // with that index, as scope-profiler's search finds it.
  std::map<std::pair<int64_t, int64_t>, std::size_t> thread;
  std::map<std::pair<int64_t, int64_t>, std::size_t> task;
};

void Run::index_lanes() {
  auto index = std::make_shared<LaneIndex>();
  for (const auto& [rank, rows] : threads) {
    for (std::size_t r = 0; r < rows.size(); ++r)
      index->thread.emplace(std::make_pair(rank, rows[r].index), r);
  }
  for (const auto& [rank, rows] : tasks) {
    for (std::size_t r = 0; r < rows.size(); ++r)
      index->task.emplace(std::make_pair(rank, rows[r].index), r);
  }
  lane_index = std::move(index);
}

namespace {

// The first row of `table[rank]` whose index is `index`, or nullptr: from
// the index when there is one (and it still matches the table), else by
// searching.
template <class Row>
const Row* find_row(const std::map<int64_t, std::vector<Row>>& table,
                    const std::map<std::pair<int64_t, int64_t>, std::size_t>* index, int64_t rank,
                    int64_t wanted) {
  const auto rows = table.find(rank);
  if (rows == table.end()) return nullptr;
  if (index != nullptr) {
    const auto it = index->find({rank, wanted});
    if (it == index->end()) return nullptr;
    if (it->second < rows->second.size() && rows->second[it->second].index == wanted) {
      return &rows->second[it->second];
    }
  }
  for (const Row& row : rows->second) {
    if (row.index == wanted) return &row;
  }
  return nullptr;
}

std::string thread_label(const Run& run, int64_t index, int64_t rank) {
  const ThreadInfo* thread =
      find_row(run.threads, run.lane_index ? &run.lane_index->thread : nullptr, rank, index);
  if (thread != nullptr) return thread->name;
  return "thread " + std::to_string(index);
}

// scope-profiler's lane_label. A task's thread is lane_label(-2 -
// thread_index), taken apart here so that no value from the file overflows:
// thread_index >= 0 is that thread, -1 the unknown lane, below -1 a task.
std::string label_of_lane(const Run& run, int64_t lane, int64_t rank, int hops) {
  if (lane >= 0) {
    const TaskInfo* found =
        find_row(run.tasks, run.lane_index ? &run.lane_index->task : nullptr, rank, lane);
    if (found != nullptr && hops < 64) {
      const TaskInfo& task = *found;
      const auto dot = task.coro_name.rfind('.');
      const std::string tail =
          dot == std::string::npos ? task.coro_name : task.coro_name.substr(dot + 1);
      std::string on;
      if (task.thread_index >= 0) {
        on = thread_label(run, task.thread_index, rank);
      } else if (task.thread_index == -1) {
        on = "unknown lane";
      } else {  // -2 - thread_index >= 0 (no overflow: thread_index >= INT64_MIN)
        on = label_of_lane(run, -2 - task.thread_index, rank, hops + 1);
      }
      return task.name + " (" + tail + ") on " + on;
    }
    return "task " + std::to_string(lane);
  }
  if (lane == -1) return "unknown lane";
  return thread_label(run, -2 - lane, rank);  // lane <= -2: no overflow
}

}  // namespace

std::string Run::display_label() const {
  if (!label.empty()) return label;
  return stem(file_name(path));
}

std::string Run::lane_label(int64_t lane, int64_t rank) const {
  return label_of_lane(*this, lane, rank, 0);
}

int64_t lane_id(int64_t thread_id, const int64_t* task_id) {
  if (task_id != nullptr && *task_id >= 0) return *task_id;
  if (thread_id < 0) return -1;
  // -2 - thread_id, wrapping like numpy for INT64_MAX (which the reader
  // refuses as damage before it gets here).
  return static_cast<int64_t>(uint64_t{0} - 2 - static_cast<uint64_t>(thread_id));
}

Run run_header(const Run& run) {
  Run out;
  out.path = run.path;
  out.label = run.label;
  out.schema_version = run.schema_version;
  out.storage_layout = run.storage_layout;
  out.num_ranks = run.num_ranks;
  return out;
}

std::optional<int64_t> run_origin_ns(const Run& run) {
  if (run.file_first_start_ns) return run.file_first_start_ns;
  std::optional<int64_t> origin;
  for (const Region& region : run.regions) {
    for (const RankSlice& slice : region.ranks) {
      if (slice.count == 0) continue;
      const int64_t m = slice_min_start_ns(run, slice);
      if (!origin || m < *origin) origin = m;
    }
  }
  return origin;
}

int64_t slice_min_start_ns(const Run& run, const RankSlice& slice) {
  if (!slice.held) {
    if (!slice.min_start_ns) {
      throw Error(Msg::internal, {{"detail", "scope-speedscope: the first start of rank " +
                                                 std::to_string(slice.rank) +
                                                 " asked of a read that left it out"}});
    }
    return *slice.min_start_ns;
  }
  int64_t m = run.start_ns[slice.offset];
  for (uint64_t e = slice.offset + 1; e < slice.offset + slice.count; ++e) {
    m = std::min(m, run.start_ns[e]);
  }
  return m;
}

void require_held(const RankSlice& slice) {
  if (slice.held || slice.count == 0) return;
  throw Error(Msg::internal,
              {{"detail", "scope-speedscope: the calls of rank " + std::to_string(slice.rank) +
                              " asked of a read that left them out"}});
}

std::vector<int64_t> unread_ranks(const Run& run) {
  std::vector<int64_t> out;
  for (const Region& region : run.regions) {
    for (const RankSlice& slice : region.ranks) {
      if (!slice.held && slice.count > 0) out.push_back(slice.rank);
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

namespace {
const SourceLocation* known_source(const Run& run, uint32_t row) {
  if (row == RankSlice::kNoSource || row >= run.sources.size()) return nullptr;
  const SourceLocation& s = run.sources[row];
  return s.known() ? &s : nullptr;
}
}  // namespace

const SourceLocation* slice_source(const Run& run, const RankSlice& slice) {
  return known_source(run, slice.source);
}

const SourceLocation* region_source(const Run& run, const Region& region) {
  return known_source(run, region.source);
}

void choose_region_sources(Run& run) {
  for (Region& region : run.regions) {
    const RankSlice* lowest = nullptr;
    for (const RankSlice& slice : region.ranks) {
      if (lowest == nullptr || slice.rank < lowest->rank) lowest = &slice;
    }
    region.source = lowest != nullptr ? lowest->source : RankSlice::kNoSource;
  }
}

}  // namespace scope_speedscope
