// The speedscope document scope-profiler writes, in one place: constants,
// key order and event kinds. The writer (speedscope_writer.cpp) and the
// tests use these names; nothing else spells them.
//
// {"$schema": SCHEMA_URL, "exporter": EXPORTER, "name": <run label>,
//  "activeProfileIndex": 0, "shared": {"frames": [{"name": <region>}, ...]},
//  (with --source-locations a frame is {"name": <region>, "file": <file>,
//   "line": <line>}, "file" only when known (not ""), "line" only when
//   known (>= 0): its region's lowest rank's row's, model/run.hpp)
//  "profiles": [{"type": "evented", "name": "rank R[ - lane]", "unit": TIME_UNIT,
//                "startValue": <first at>, "endValue": <last at>,
//                "events": [{"type": "O"|"C", "frame": <i>, "at": <seconds>}, ...]},
//               ...]}
#pragma once

#include <cstddef>
#include <cstdint>

namespace scope_speedscope {

#ifndef SCOPE_SPEEDSCOPE_VERSION
#error "SCOPE_SPEEDSCOPE_VERSION comes from package.json through CMakeLists.txt"
#endif
// The package version (package.json is the one source of it).
inline constexpr const char* VERSION = SCOPE_SPEEDSCOPE_VERSION;
inline constexpr int64_t NS_PER_SECOND = 1000000000;
inline constexpr const char* SCHEMA_URL = "https://www.speedscope.app/file-format-schema.json";
inline constexpr const char* TIME_UNIT = "seconds";
inline constexpr const char* EXPORTER_PREFIX = "scope-speedscope@";
inline constexpr const char* PROFILE_TYPE = "evented";
inline constexpr const char* OPEN_EVENT = "O";
inline constexpr const char* CLOSE_EVENT = "C";

// The keys of each object, in the order they are written.
namespace keys {
inline constexpr const char* document[] = {"$schema", "exporter", "name", "activeProfileIndex",
                                           "shared",  "profiles"};
inline constexpr const char* shared[] = {"frames"};
inline constexpr const char* frame[] = {"name"};
// With --source-locations, after "name", each only when known.
inline constexpr const char* frame_source[] = {"file", "line"};
inline constexpr const char* profile[] = {"type",       "name",     "unit",
                                          "startValue", "endValue", "events"};
inline constexpr const char* event[] = {"type", "frame", "at"};
}  // namespace keys

// An event's fixed text, as the writer copies it (its hot path): the keys of
// keys::event with Python's separators, the kind at kEventKindAt (a test
// checks both against keys::event and OPEN_EVENT).
inline constexpr char kEventHead[] = "{\"type\": \"O\", \"frame\": ";
inline constexpr std::size_t kEventKindAt = 10;
inline constexpr char kEventAt[] = ", \"at\": ";

}  // namespace scope_speedscope
