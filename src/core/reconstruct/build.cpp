// reconstruct: build_call_arrays (see calls.hpp).
#include "reconstruct/calls.hpp"
#include "reconstruct/rows.hpp"
#include "reconstruct/streams.hpp"
#include "text/messages.hpp"

namespace scope_speedscope {

std::size_t RankCalls::size() const {
  if (streams.empty()) return calls.size();
  std::size_t n = 0;
  for (const auto& s : streams) n += static_cast<std::size_t>(s->size());
  return n;
}

namespace {

void check_ends_after_starts(const Run& run, const detail::Rows& g) {
  for (const auto& row : g.rows) {
    for (uint64_t e = row.offset; e < row.offset + row.count; ++e) {
      if (run.end_ns[e] < run.start_ns[e]) throw Error(Msg::ends_before_starts);
    }
  }
}

bool rows_in_order(const Run& run, const detail::Rows& g) {
  for (const auto& row : g.rows) {
    if (!detail::row_in_order(run, row)) return false;
  }
  return true;
}

}  // namespace

RankCalls build_call_arrays(const Run& run, const std::vector<uint32_t>& regions, int64_t rank,
                            CallStorage storage) {
  RankCalls out;
  out.rank = rank;
  const detail::Rows g = detail::gather_rows(run, regions, rank);
  if (g.size == 0) return out;
  check_ends_after_starts(run, g);
  // Event indices are 32 bits (a run that large would not fit in memory).
  if (run.start_ns.size() > UINT32_MAX) throw Error(Msg::too_many_calls);
  const std::vector<int64_t> lanes = detail::distinct_lanes(run, g);

  // One lane and every row in call order: merged from the columns when
  // written, after a first merge here proves the nesting.
  if (storage == CallStorage::streamed && lanes.size() == 1 && rows_in_order(run, g)) {
    auto merged = std::make_shared<MergedCalls>(run, g.rows);
    if (!merged->summarize(run.regions.size())) {
      return detail::build_call_arrays_literal(run, regions, rank);
    }
    out.streams.push_back(std::move(merged));
    out.lanes.push_back(Lane{lanes[0], 0, static_cast<std::size_t>(g.size)});
    return out;
  }
  // Otherwise the call order as event indices.
  std::shared_ptr<const IndexedCalls::Order> order = detail::index_calls(run, g, lanes, out.lanes);
  for (const Lane& lane : out.lanes) {
    auto stream = std::make_shared<IndexedCalls>(order, lane.begin, lane.end);
    if (!stream->summarize(run.regions.size())) {
      return detail::build_call_arrays_literal(run, regions, rank);
    }
    out.streams.push_back(std::move(stream));
  }
  return out;
}

}  // namespace scope_speedscope
