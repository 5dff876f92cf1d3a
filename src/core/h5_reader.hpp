// read: HDF5 file -> Run (columns). The only unit that sees HDF5 types.
#pragma once

#include <cstddef>
#include <string>

#include "run.hpp"

namespace scope_speedscope {

// Reads a scope-profiler file (schema 1, 2, 3 or aggregate) from a path.
// Throws Error (file_not_found, corrupt_profile, schema) with scope-profiler's
// messages; `path` appears in them as given, or `display_name` when set
// (a browser's mounted file shows its own name, not the mount path).
Run read_run(const std::string& path, const Progress& progress = {},
             const std::string& display_name = {});

// The same from bytes in memory; `name` stands for the path in messages and
// in the display label.
Run read_run_from_memory(const void* data, std::size_t size, const std::string& name,
                         const Progress& progress = {});

}  // namespace scope_speedscope
