// read, schemas 2 and 3: shared event columns indexed by (rank, region) rows
// (spec 1.4, 1.5), the aggregate variant, and the thread/task tables.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string_view>
#include <unordered_map>

#include "read/h5_detail.hpp"
#include "text/unicode.hpp"

namespace scope_speedscope::h5 {
namespace {

// Region names in table order, each name once; `region_of_id[i]` is the
// region of table entry i.
struct RegionTable {
  std::vector<uint32_t> region_of_id;
};

RegionTable read_region_table(File& f, Run& run) {
  const std::vector<std::string> names = read_string_column(f, f.file.get(), "region_table/names");
  RegionTable table;
  table.region_of_id.reserve(names.size());
  run.regions.reserve(names.size());
  // scope-profiler lists each region once (the table is built from a
  // dict). A name listed twice means a damaged string (two entries reading
  // the same text): it would silently merge two regions under one name.
  std::unordered_map<std::string_view, std::size_t> row_of;
  row_of.reserve(names.size());
  for (std::size_t row = 0; row < names.size(); ++row) {
    const std::string& name = names[row];
    const auto [seen, first] = row_of.emplace(name, row);
    if (!first) {
      f.fail(Msg::duplicate_region_name, {{"dataset", "region_table/names"},
                                          {"row", std::to_string(row)},
                                          {"first", std::to_string(seen->second)},
                                          {"name", python_str_repr(name)}});
    }
    table.region_of_id.push_back(static_cast<uint32_t>(run.regions.size()));
    run.regions.push_back(Region{name, {}});
  }
  return table;
}

// map[name][rank] = slice; a later row for the same pair replaces the earlier
// one and keeps its position. Ranks are below 2^32 (validate_ranks).
class Attacher {
 public:
  explicit Attacher(Run& run) : run_(run) {}
  // Row p of the index: its source location is row p of run.sources.
  void attach(uint32_t region, RankSlice slice, std::size_t p) {
    if (run_.sources_read) slice.source = static_cast<uint32_t>(p);
    attach(region, slice);
  }
  void attach(uint32_t region, const RankSlice& slice) {
    auto& ranks = run_.regions[region].ranks;
    const uint64_t key = (uint64_t{region} << 32) | static_cast<uint64_t>(slice.rank);
    const auto [it, added] = slot_.emplace(key, ranks.size());
    if (added) {
      ranks.push_back(slice);
    } else {
      ranks[it->second] = slice;
    }
  }
  void attach(uint32_t region, int64_t rank, uint64_t offset, uint64_t count, std::size_t p) {
    attach(region, RankSlice{rank, offset, count}, p);
  }

 private:
  Run& run_;
  std::unordered_map<uint64_t, std::size_t> slot_;
};

uint32_t region_of(const File& f, const RegionTable& table, int64_t id) {
  if (id < 0 || static_cast<uint64_t>(id) >= table.region_of_id.size()) {
    f.fail("region id " + std::to_string(id) + " is out of range (the region table has " +
           std::to_string(table.region_of_id.size()) + " names)");
  }
  return table.region_of_id[static_cast<std::size_t>(id)];
}

void require_length(const File& f, const std::vector<int64_t>& column, uint64_t expected,
                    const std::string& what) {
  if (column.size() != expected) {
    f.fail("column '" + what + "' has " + std::to_string(column.size()) + " values where " +
           std::to_string(expected) + " were expected");
  }
}

void require_same_length(const File& f, const std::vector<int64_t>& column,
                         const std::vector<int64_t>& reference, const std::string& what) {
  require_length(f, column, reference.size(), what);
}

// Rows must lie inside the event columns and must not overlap (spec 1.4).
// Offsets and counts are checked one by one first: negative values (from a
// signed column, or an unsigned one past INT64_MAX) would wrap the sums.
void validate_event_index(const File& f, const std::vector<int64_t>& offsets,
                          const std::vector<int64_t>& counts, uint64_t events) {
  if (offsets.empty()) return;
  uint64_t max_end = 0;
  for (std::size_t p = 0; p < offsets.size(); ++p) {
    if (offsets[p] < 0) {
      f.fail(Msg::negative_index_value, {{"dataset", "rank_region_index/event_offsets"},
                                         {"row", std::to_string(p)},
                                         {"value", std::to_string(offsets[p])}});
    }
    if (counts[p] < 0) {
      f.fail(Msg::negative_index_value, {{"dataset", "rank_region_index/event_counts"},
                                         {"row", std::to_string(p)},
                                         {"value", std::to_string(counts[p])}});
    }
    // Both below 2^63: the sum fits in 64 unsigned bits.
    max_end =
        std::max(max_end, static_cast<uint64_t>(offsets[p]) + static_cast<uint64_t>(counts[p]));
  }
  if (max_end > events) {
    throw Error(
        Msg::truncated_index,
        {{"path", f.path}, {"claimed", std::to_string(max_end)}, {"held", std::to_string(events)}});
  }
  std::vector<std::size_t> order(offsets.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return offsets[a] < offsets[b]; });
  for (std::size_t k = 1; k < order.size(); ++k) {
    const int64_t prev_end = offsets[order[k - 1]] + counts[order[k - 1]];  // <= events
    if (offsets[order[k]] < prev_end) {
      throw Error(Msg::overlapping_index, {{"path", f.path}});
    }
  }
}

// MPI ranks are unsigned 32-bit numbers in every writer.
void validate_ranks(const File& f, const std::vector<int64_t>& ranks) {
  for (std::size_t p = 0; p < ranks.size(); ++p) {
    if (ranks[p] < 0 || ranks[p] > int64_t{UINT32_MAX}) {
      f.fail(Msg::rank_out_of_range, {{"dataset", "rank_region_index/ranks"},
                                      {"row", std::to_string(p)},
                                      {"value", std::to_string(ranks[p])}});
    }
  }
}

uint64_t length_of(File& f, const std::string& path) {
  Handle dset = open_dataset(f, f.file.get(), path);
  return dataset_length(f, dset.get(), path);
}

// The lane of each event: its thread (events/thread_ids), or its task
// (events/task_ids) when the run recorded tasks.
void read_lanes(File& f, Run& run, bool tasks, uint64_t events) {
  const hid_t root = f.file.get();
  run.lane_column = true;
  run.lane = read_int64_column(f, root, "events/thread_ids", true);
  require_length(f, run.lane, events, "events/thread_ids");
  for (std::size_t i = 0; i < run.lane.size(); ++i) {
    if (run.lane[i] == INT64_MAX) {  // -2 - thread_id would overflow
      f.fail(Msg::thread_id_out_of_range, {{"dataset", "events/thread_ids"},
                                           {"row", std::to_string(i)},
                                           {"value", std::to_string(run.lane[i])}});
    }
  }
  if (tasks) {
    const std::vector<int64_t> task_ids = read_int64_column(f, root, "events/task_ids", true);
    require_length(f, task_ids, events, "events/task_ids");
    for (std::size_t i = 0; i < run.lane.size(); ++i)
      run.lane[i] = lane_id(run.lane[i], &task_ids[i]);
  } else {
    for (int64_t& lane : run.lane) lane = lane_id(lane, nullptr);
  }
}

// A name listed without any row has no calls anywhere; scope-profiler
// cannot order it (min() of nothing). It cannot contribute; drop it.
void drop_regions_without_rows(Run& run) {
  run.regions.erase(std::remove_if(run.regions.begin(), run.regions.end(),
                                   [](const Region& r) { return r.ranks.empty(); }),
                    run.regions.end());
}

// The index's columns a read of events needs.
struct EventIndex {
  const RegionTable& table;
  const std::vector<int64_t>& region_ids;
  const std::vector<int64_t>& ranks;
  const std::vector<int64_t>& offsets;
  const std::vector<int64_t>& counts;
};

// One row of the index as a partial read sees it.
struct PlannedRow {
  std::size_t p;        // its row in the index
  uint64_t offset = 0;  // in the file's event columns
  uint64_t count = 0;
  bool held = false;     // its rank's calls are read
  uint64_t compact = 0;  // held: its offset in the run's columns
  int64_t acc = 0;       // not held: the decoded start so far (deltas)
  std::optional<int64_t> min;
};

// The rows' ranges of values, merged where they touch (rows ascending).
std::vector<ValueRange> ranges_of(const std::vector<PlannedRow*>& rows) {
  std::vector<ValueRange> out;
  for (const PlannedRow* r : rows) {
    if (!out.empty() && out.back().end == r->offset) {
      out.back().end += r->count;
    } else {
      out.push_back({r->offset, r->offset + r->count});
    }
  }
  return out;
}

// Hands each value of `rows` (ascending, as read) to fn(row, index in row).
class RowCursor {
 public:
  explicit RowCursor(const std::vector<PlannedRow*>& rows) : rows_(rows) {}
  template <class Fn>
  void each(uint64_t first, const int64_t* v, std::size_t n, Fn&& fn) {
    for (std::size_t k = 0; k < n; ++k) {
      const uint64_t i = first + k;
      while (rows_[at_]->offset + rows_[at_]->count <= i) ++at_;
      fn(*rows_[at_], i, v[k]);
    }
  }

 private:
  const std::vector<PlannedRow*>& rows_;
  std::size_t at_ = 0;
};

// Events of the held ranks' rows only (File::held_ranks); the other rows
// give their earliest start when others_first_starts is set.
class HeldRead {
 public:
  HeldRead(File& f, Run& run, const EventIndex& ix, bool deltas, uint64_t events)
      : f_(f),
        run_(run),
        ix_(ix),
        deltas_(deltas),
        events_(events),
        start_path_(deltas ? "events/start_deltas" : "events/start_times"),
        end_path_(deltas ? "events/durations" : "events/end_times") {}

  void read(bool threads, bool tasks) {
    plan_rows();
    uint64_t start_values = 0;
    for (const PlannedRow* r : starts_) start_values += r->count;
    f_.events_total = start_values + held_values_ * (1 + (threads ? 1 : 0) + (tasks ? 1 : 0));
    read_starts();
    require_column(end_path_);
    read_held(end_path_, run_.end_ns);
    if (threads) read_lanes(tasks);
    attach();
  }

  // The same checks without keeping anything (ReadPlan::keep false): the
  // held rows' values are read block by block, decoded and dropped, and
  // their slices left not held: every value read() reads, so damage in
  // any of them fails here as it fails there.
  void check(bool threads, bool tasks) {
    plan_rows();
    f_.events_total = held_values_ * (2 + (threads ? 1 : 0) + (tasks ? 1 : 0));
    require_column(end_path_);
    if (threads) require_column("events/thread_ids");
    if (threads && tasks) require_column("events/task_ids");
    std::vector<int64_t> starts, ends, ignored;
    for (const ValueRange& range : ranges_of(held_)) {
      for (uint64_t at = range.begin; at < range.end;) {
        const uint64_t stop = std::min<uint64_t>(range.end, (at / kCheckBlock + 1) * kCheckBlock);
        const std::vector<ValueRange> block = {{at, stop}};
        take(start_path_, block, starts);
        take(end_path_, block, ends);
        if (deltas_) decode_block(at, starts, ends);
        if (threads) {
          take("events/thread_ids", block, ignored);
          for (std::size_t k = 0; k < ignored.size(); ++k) {
            if (ignored[k] == INT64_MAX) {
              f_.fail(Msg::thread_id_out_of_range, {{"dataset", "events/thread_ids"},
                                                    {"row", std::to_string(at + k)},
                                                    {"value", std::to_string(ignored[k])}});
            }
          }
        }
        if (threads && tasks) take("events/task_ids", block, ignored);
        at = stop;
      }
    }
    for (PlannedRow& r : plan_) r.held = false;
    attach();
  }

 private:
  static constexpr uint64_t kCheckBlock = uint64_t{1} << 20;

  void take(const std::string& path, const std::vector<ValueRange>& block,
            std::vector<int64_t>& into) {
    into.clear();
    read_int64_ranges(
        f_, f_.file.get(), path, block,
        [&](uint64_t, const int64_t* v, std::size_t n) { into.insert(into.end(), v, v + n); });
  }

  // Decodes a block of delta-encoded starts and durations of held rows
  // (from event `first`), each row's running start kept across blocks.
  void decode_block(uint64_t first, const std::vector<int64_t>& starts,
                    const std::vector<int64_t>& ends) {
    for (std::size_t k = 0; k < starts.size(); ++k) {
      const uint64_t i = first + k;
      while (held_[check_at_]->offset + held_[check_at_]->count <= i) ++check_at_;
      PlannedRow& r = *held_[check_at_];
      if (i == r.offset) r.acc = 0;
      if (__builtin_add_overflow(r.acc, starts[k], &r.acc)) {
        f_.fail(Msg::decoded_time_overflow, {{"dataset", start_path_}, {"row", std::to_string(i)}});
      }
      int64_t end = 0;
      if (__builtin_add_overflow(r.acc, ends[k], &end)) {
        f_.fail(Msg::decoded_time_overflow, {{"dataset", end_path_}, {"row", std::to_string(i)}});
      }
    }
  }

  void plan_rows() {
    const std::vector<int64_t>& held_ranks = *f_.held_ranks;
    plan_.resize(ix_.region_ids.size());
    std::vector<PlannedRow*> by_offset;
    for (std::size_t p = 0; p < plan_.size(); ++p) {
      PlannedRow& r = plan_[p];
      r.p = p;
      r.offset = static_cast<uint64_t>(ix_.offsets[p]);
      r.count = static_cast<uint64_t>(ix_.counts[p]);
      r.held = std::binary_search(held_ranks.begin(), held_ranks.end(), ix_.ranks[p]);
      if (r.count > 0) by_offset.push_back(&r);
    }
    std::stable_sort(
        by_offset.begin(), by_offset.end(),
        [](const PlannedRow* a, const PlannedRow* b) { return a->offset < b->offset; });
    for (PlannedRow* r : by_offset) {
      if (r->held) {
        r->compact = held_values_;
        held_values_ += r->count;
        held_.push_back(r);
      }
      if (r->held || f_.others_first_starts) starts_.push_back(r);
    }
  }

  void claim(const std::string& path) {
    f_.claim_memory(held_values_ * 8, "dataset '" + path + "' (" + std::to_string(held_values_) +
                                          " values of the ranks read)");
  }

  // A column read beside the start column must be as long as it.
  void require_column(const std::string& path) {
    const uint64_t length = length_of(f_, path);
    if (path == end_path_ && length < events_) {
      f_.fail("column '" + path + "' has " + std::to_string(length) + " values but '" +
              start_path_ + "' has " + std::to_string(events_));
    }
    if (path != end_path_ && length != events_) {
      f_.fail("column '" + path + "' has " + std::to_string(length) + " values where " +
              std::to_string(events_) + " were expected");
    }
  }

  // The held rows' starts as stored; each other row's earliest start.
  void read_starts() {
    claim(start_path_);
    run_.start_ns.resize(held_values_);
    RowCursor cursor(starts_);
    read_int64_ranges(f_, f_.file.get(), start_path_, ranges_of(starts_),
                      [&](uint64_t first, const int64_t* v, std::size_t n) {
                        cursor.each(first, v, n, [&](PlannedRow& r, uint64_t i, int64_t value) {
                          if (r.held) {
                            run_.start_ns[r.compact + (i - r.offset)] = value;
                          } else {
                            other_start(r, i, value);
                          }
                        });
                      });
  }

  void other_start(PlannedRow& r, uint64_t i, int64_t value) {
    int64_t start = value;
    if (deltas_) {
      if (__builtin_add_overflow(r.acc, value, &r.acc)) {
        f_.fail(Msg::decoded_time_overflow, {{"dataset", start_path_}, {"row", std::to_string(i)}});
      }
      start = r.acc;
    }
    if (!r.min || start < *r.min) r.min = start;
  }

  template <class Out>
  void read_held(const std::string& path, Out& into) {
    claim(path);
    into.resize(held_values_);
    RowCursor cursor(held_);
    read_int64_ranges(f_, f_.file.get(), path, ranges_of(held_),
                      [&](uint64_t first, const int64_t* v, std::size_t n) {
                        cursor.each(first, v, n, [&](PlannedRow& r, uint64_t i, int64_t value) {
                          into[r.compact + (i - r.offset)] = value;
                        });
                      });
  }

  void read_lanes(bool tasks) {
    run_.lane_column = true;
    require_column("events/thread_ids");
    read_held("events/thread_ids", run_.lane);
    for (const PlannedRow* r : held_) {
      for (uint64_t j = 0; j < r->count; ++j) {
        if (run_.lane[r->compact + j] == INT64_MAX) {
          f_.fail(Msg::thread_id_out_of_range,
                  {{"dataset", "events/thread_ids"},
                   {"row", std::to_string(r->offset + j)},
                   {"value", std::to_string(run_.lane[r->compact + j])}});
        }
      }
    }
    if (!tasks) {
      for (int64_t& lane : run_.lane) lane = lane_id(lane, nullptr);
      return;
    }
    require_column("events/task_ids");
    std::vector<int64_t> task_ids;
    read_held("events/task_ids", task_ids);
    for (std::size_t i = 0; i < run_.lane.size(); ++i)
      run_.lane[i] = lane_id(run_.lane[i], &task_ids[i]);
  }

  // As read_columnar decodes, at each held row's place in the run.
  void decode_held(const PlannedRow& r) {
    int64_t acc = 0;
    for (uint64_t j = 0; j < r.count; ++j) {
      const uint64_t i = r.compact + j;
      if (__builtin_add_overflow(acc, run_.start_ns[i], &acc)) {
        f_.fail(Msg::decoded_time_overflow,
                {{"dataset", start_path_}, {"row", std::to_string(r.offset + j)}});
      }
      run_.start_ns[i] = acc;
      if (__builtin_add_overflow(acc, run_.end_ns[i], &run_.end_ns[i])) {
        f_.fail(Msg::decoded_time_overflow,
                {{"dataset", end_path_}, {"row", std::to_string(r.offset + j)}});
      }
    }
  }

  void attach() {
    Attacher slices(run_);
    for (PlannedRow& r : plan_) {
      const uint32_t region = region_of(f_, ix_.table, ix_.region_ids[r.p]);
      RankSlice slice{ix_.ranks[r.p], r.compact, r.count};
      if (!r.held) {
        slice.offset = 0;
        slice.held = false;
        slice.min_start_ns = r.min;
        if (r.count > 0) run_.partial = true;
      } else if (deltas_) {
        decode_held(r);
      }
      slices.attach(region, slice, r.p);
    }
  }

  File& f_;
  Run& run_;
  const EventIndex& ix_;
  const bool deltas_;
  const uint64_t events_;
  const std::string start_path_, end_path_;
  std::vector<PlannedRow> plan_;
  std::vector<PlannedRow*> held_, starts_;  // ascending offsets
  uint64_t held_values_ = 0;
  std::size_t check_at_ = 0;  // check(): the held row being decoded
};

}  // namespace

void read_columnar(File& f, Run& run) {
  const hid_t root = f.file.get();
  const RegionTable table = read_region_table(f, run);
  const std::vector<int64_t> region_ids =
      read_int64_column(f, root, "rank_region_index/region_ids");
  const std::vector<int64_t> ranks = read_int64_column(f, root, "rank_region_index/ranks");
  const std::vector<int64_t> offsets =
      read_int64_column(f, root, "rank_region_index/event_offsets");
  const std::vector<int64_t> counts = read_int64_column(f, root, "rank_region_index/event_counts");
  require_same_length(f, ranks, region_ids, "rank_region_index/ranks");
  require_same_length(f, offsets, region_ids, "rank_region_index/event_offsets");
  require_same_length(f, counts, region_ids, "rank_region_index/event_counts");
  validate_ranks(f, ranks);
  if (f.sources) read_index_sources(f, run, region_ids.size());

  // The encoding is chosen by column name, not by schema number (spec 1.5).
  const bool deltas = link_exists(root, "events/start_deltas");
  const std::string start_path = deltas ? "events/start_deltas" : "events/start_times";
  const std::string end_path = deltas ? "events/durations" : "events/end_times";
  const bool threads = is_dataset(root, "events/thread_ids");
  const bool tasks = threads && is_dataset(root, "events/task_ids");

  const uint64_t events =
      region_ids.empty() && !link_exists(root, start_path) ? 0 : length_of(f, start_path);
  validate_event_index(f, offsets, counts, events);
  if (f.times && f.held_ranks && (events > 0 || link_exists(root, start_path))) {
    const EventIndex ix{table, region_ids, ranks, offsets, counts};
    HeldRead held(f, run, ix, deltas, events);
    if (f.keep_calls) {
      held.read(threads, tasks);
    } else {
      held.check(threads, tasks);
    }
    drop_regions_without_rows(run);
    return;
  }
  f.events_total = events * ((f.times ? 2 : 0) + (threads ? 1 : 0) + (tasks ? 1 : 0));

  if (f.times && (events > 0 || link_exists(root, start_path))) {
    run.start_ns = read_event_column(f, root, start_path);
    run.end_ns = read_event_column(f, root, end_path);
    if (run.end_ns.size() < run.start_ns.size()) {
      f.fail("column '" + end_path + "' has " + std::to_string(run.end_ns.size()) +
             " values but '" + start_path + "' has " + std::to_string(run.start_ns.size()));
    }
    run.end_ns.resize(run.start_ns.size());
  }
  if (!f.times) run.times = false;
  if (threads) read_lanes(f, run, tasks, f.times ? run.start_ns.size() : events);

  Attacher slices(run);
  for (std::size_t p = 0; p < region_ids.size(); ++p) {
    const uint32_t region = region_of(f, table, region_ids[p]);
    const auto offset = static_cast<uint64_t>(offsets[p]);
    const auto count = static_cast<uint64_t>(counts[p]);
    if (deltas && f.times) {  // per row: cumulative sum of deltas; end = start + duration
      // numpy would wrap around silently; a time beyond 64 bits is damage.
      int64_t acc = 0;
      for (uint64_t i = offset; i < offset + count; ++i) {
        if (__builtin_add_overflow(acc, run.start_ns[i], &acc)) {
          f.fail(Msg::decoded_time_overflow, {{"dataset", start_path}, {"row", std::to_string(i)}});
        }
        run.start_ns[i] = acc;
        if (__builtin_add_overflow(acc, run.end_ns[i], &run.end_ns[i])) {
          f.fail(Msg::decoded_time_overflow, {{"dataset", end_path}, {"row", std::to_string(i)}});
        }
      }
    }
    slices.attach(region, ranks[p], offset, count, p);
  }
  drop_regions_without_rows(run);
}

void read_aggregate(File& f, Run& run) {
  // Regions and ranks exist, events do not (spec 1.4, "Aggregate variant").
  const hid_t root = f.file.get();
  const RegionTable table = read_region_table(f, run);
  const std::vector<int64_t> region_ids =
      read_int64_column(f, root, "rank_region_index/region_ids");
  const std::vector<int64_t> ranks = read_int64_column(f, root, "rank_region_index/ranks");
  require_same_length(f, ranks, region_ids, "rank_region_index/ranks");
  validate_ranks(f, ranks);
  if (f.sources) read_index_sources(f, run, region_ids.size());
  Attacher slices(run);
  for (std::size_t p = 0; p < region_ids.size(); ++p) {
    slices.attach(region_of(f, table, region_ids[p]), ranks[p], 0, 0, p);
  }
  run.regions.erase(std::remove_if(run.regions.begin(), run.regions.end(),
                                   [](const Region& r) { return r.ranks.empty(); }),
                    run.regions.end());
}

namespace {

// One column of a lane table, or a default per row when it is absent. A
// column that is there must be readable and as long as the table: these are
// the labels of the profiles, and a name silently replaced by a default
// would be a wrong label (the other columns of the tables are never read).
std::vector<int64_t> optional_ints(File& f, const std::string& path, std::size_t rows,
                                   int64_t fill) {
  if (!link_exists(f.file.get(), path)) return std::vector<int64_t>(rows, fill);
  std::vector<int64_t> v = read_int64_column(f, f.file.get(), path);
  if (v.size() != rows) {
    f.fail("column '" + path + "' has " + std::to_string(v.size()) + " values where " +
           std::to_string(rows) + " were expected");
  }
  return v;
}

std::vector<std::string> optional_strings(File& f, const std::string& path, std::size_t rows) {
  if (!link_exists(f.file.get(), path)) return std::vector<std::string>(rows);
  std::vector<std::string> v = read_string_column(f, f.file.get(), path);
  if (v.size() != rows) {
    f.fail("column '" + path + "' has " + std::to_string(v.size()) + " values where " +
           std::to_string(rows) + " were expected");
  }
  return v;
}

std::size_t table_rows(File& f, const std::string& table) {
  for (const char* column : {"/ranks", "/index", "/name"}) {
    const std::string path = table + column;
    if (is_dataset(f.file.get(), path)) return length_of(f, path);
  }
  return 0;
}

// Row order within a rank, ranks ascending.
std::vector<std::size_t> rows_by_rank(const std::vector<int64_t>& ranks) {
  std::vector<std::size_t> order(ranks.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return ranks[a] < ranks[b]; });
  return order;
}

}  // namespace

void read_lane_tables(File& f, Run& run) {
  if (is_group(f.file.get(), "thread_table")) {
    const std::size_t rows = table_rows(f, "thread_table");
    const auto ranks = optional_ints(f, "thread_table/ranks", rows, 0);
    const auto index = optional_ints(f, "thread_table/index", rows, 0);
    const auto name = optional_strings(f, "thread_table/name", rows);
    for (std::size_t r : rows_by_rank(ranks)) {
      run.threads[ranks[r]].push_back(ThreadInfo{index[r], name[r]});
    }
  }
  if (is_group(f.file.get(), "task_table")) {
    const std::size_t rows = table_rows(f, "task_table");
    const auto ranks = optional_ints(f, "task_table/ranks", rows, 0);
    const auto index = optional_ints(f, "task_table/index", rows, 0);
    const auto thread_index = optional_ints(f, "task_table/thread_index", rows, 0);
    const auto name = optional_strings(f, "task_table/name", rows);
    const auto coro = optional_strings(f, "task_table/coro_name", rows);
    for (std::size_t r : rows_by_rank(ranks)) {
      run.tasks[ranks[r]].push_back(TaskInfo{index[r], thread_index[r], name[r], coro[r]});
    }
  }
  run.index_lanes();
}

}  // namespace scope_speedscope::h5
