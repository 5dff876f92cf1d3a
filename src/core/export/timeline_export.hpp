// export: a narrowing of an open timeline written as the file's would be.
// The page opens a window of what it shows in speedscope without reading
// the file again: the timeline's calls that the narrowing keeps are given
// back as a run, which export_speedscope then narrows and writes exactly as
// it does the file (the same rule, the same code: narrow.hpp).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "export/export.hpp"
#include "timeline/timeline.hpp"

namespace scope_speedscope {

// The run holding the timeline's calls that `narrowing` keeps (unclipped),
// plus its longest call (so a narrowing that keeps nothing is refused as it
// is for the file), with the file's origin: narrowed by narrow_run, it is
// the file narrowed, whichever ranks the timeline holds (the run keeps the
// file's region order and first start).
Run timeline_calls_as_run(const Timeline& tl, const Narrowing& narrowing);

// export_speedscope of the timeline's file with the timeline's ranks,
// include and exclude and options.narrowing (the other selection fields of
// `options` are ignored): the same bytes, errors and output names. Without
// a narrowing the lanes are streamed from the columns (no copy of the
// calls); with one, the kept calls are given back as a run (above).
//
// The export of a file fails on damage anywhere in it; a timeline read
// with only some ranks' calls (Timeline::unread_ranks) has not seen the
// others': `read_rest(ranks)` must read those ranks' calls (and throw the
// file's error) before anything is written. Without one such a timeline's
// export is refused (Error internal).
using ReadRest = std::function<void(const std::vector<int64_t>& ranks)>;
std::vector<std::string> export_timeline(const Timeline& tl, const std::string& filepath,
                                         ExportOptions options, OutputTarget& target,
                                         const ReadRest& read_rest = {});
// The same in slices (ExportJob::step): everything before the first byte is
// done here (the other ranks read, the options checked, a narrowing's calls
// kept); the timeline must outlive the job.
std::unique_ptr<ExportJob> begin_timeline_export(const Timeline& tl, const std::string& filepath,
                                                 ExportOptions options, OutputTarget& target,
                                                 const ReadRest& read_rest = {});

}  // namespace scope_speedscope
