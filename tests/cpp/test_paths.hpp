// Where the tests find their fixtures, folders and programs: defined in the
// build folder's generated test_paths.cpp (tests/cpp/CMakeLists.txt), so that
// no test file's compile command holds a clone's absolute paths.
#pragma once

namespace scope_test_paths {
extern const char* const fixtures_dir;
extern const char* const generated_dir;
extern const char* const tables_dir;
extern const char* const tmp_dir;
extern const char* const mutations_dir;
extern const char* const cli;
extern const char* const python;
extern const char* const gen_dir;
}  // namespace scope_test_paths

#define SCOPE_TEST_FIXTURES_DIR (scope_test_paths::fixtures_dir)
#define SCOPE_TEST_GENERATED_DIR (scope_test_paths::generated_dir)
#define SCOPE_TEST_TABLES_DIR (scope_test_paths::tables_dir)
#define SCOPE_TEST_TMP_DIR (scope_test_paths::tmp_dir)
#define SCOPE_TEST_MUTATIONS_DIR (scope_test_paths::mutations_dir)
#define SCOPE_TEST_CLI (scope_test_paths::cli)
#define SCOPE_TEST_PYTHON (scope_test_paths::python)
#define SCOPE_TEST_GEN_DIR (scope_test_paths::gen_dir)
