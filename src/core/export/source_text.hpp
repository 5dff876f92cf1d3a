// export: a region's source location as the reports show it (imbalance
// --source, diff --source): one cell of text, one JSON object.
#pragma once

#include <string>

#include "model/run.hpp"

namespace scope_speedscope {

// "solver/cg.py:217  x = solve(a, b)": the file, ":" and the line (or "line
// 217" without a file), two spaces and the text on one line (its ends
// trimmed, each control character a space); "-" when unknown.
std::string source_cell(const SourceLocation* source);

// `"source": {"file": ..., "line": ..., "text": ...}` (each null when
// unknown; the whole object's values null when `source` is nullptr),
// preceded by ", ".
void append_source_json(std::string& out, const SourceLocation* source);

// The source of the region named `name` in `run` (region_source), or nullptr.
const SourceLocation* source_of_name(const Run& run, const std::string& name);

}  // namespace scope_speedscope
