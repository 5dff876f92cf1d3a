// The speedscope document as an object, for small runs and for callers that
// want to inspect it (scope-profiler's build_speedscope_profile,
// build_speedscope_document, write_speedscope_file). Large runs go through
// write_speedscope_document, which streams the same bytes.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "call_stack.hpp"
#include "run.hpp"
#include "speedscope_writer.hpp"

namespace scope_speedscope {

using Document = nlohmann::ordered_json;

// One evented profile; adds frames it meets to `frames` ([{"name": ...}])
// and `frame_indices` (region -> frame, -1 unseen).
Document build_speedscope_profile(const Run& run, const NamedCalls& calls,
                                  std::vector<int64_t>& frame_indices, Document& frames,
                                  double origin);
// The whole document for one run.
Document build_speedscope_document(const Run& run, const std::vector<NamedCalls>& named_calls,
                                   const std::string& name);
// Serialises a document as json.dump does (no trailing newline).
void dump_python_json(const Document& document, Sink& sink);
// Writes a document to a file, atomically (temporary name, then rename).
void write_speedscope_file(const std::string& filepath, const Document& document);

}  // namespace scope_speedscope
