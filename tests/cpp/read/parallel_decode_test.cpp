// read/h5_chunks: a compressed column decoded on every core reads as
// HDF5's own pipeline reads it. Every fixture and every file of the damaged
// campaign (compressed twins, hostile chunks, damaged files) gives the same
// columns, or the same error, with one decoding thread and with four.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "read/h5_reader.hpp"
#include "test_support.hpp"

namespace scope_speedscope::test {
namespace {

struct Read {
  std::string error;
  std::vector<int64_t> start, end, lane;
};

Read read_with(const std::string& path, unsigned threads) {
  set_decode_threads(threads);
  Read r;
  try {
    Run run = read_run(path);
    r.start = run.start_ns.to_vector();
    r.end = run.end_ns.to_vector();
    r.lane = std::move(run.lane);
  } catch (const Error& e) {
    r.error = std::string(e.kind_name()) + ": " + e.what();
  }
  set_decode_threads(1);
  return r;
}

TEST(parallel_decode, every_file_reads_as_with_one_thread) {
  std::vector<std::string> files;
  for (const std::string& dir :
       {std::string(SCOPE_TEST_FIXTURES_DIR), std::string(SCOPE_TEST_MUTATIONS_DIR)}) {
    for (const std::string& f : files_under(dir)) {
      if (f.size() > 3 && f.compare(f.size() - 3, 3, ".h5") == 0) files.push_back(dir + "/" + f);
    }
  }
  ASSERT_GT(files.size(), 100u);
  std::size_t compressed = 0;
  for (const std::string& path : files) {
    const Read one = read_with(path, 1);
    const Read four = read_with(path, 4);
    EXPECT_EQ(four.error, one.error) << path;
    EXPECT_EQ(four.start, one.start) << path;
    EXPECT_EQ(four.end, one.end) << path;
    EXPECT_EQ(four.lane, one.lane) << path;
    if (path.find("/compressed/") != std::string::npos) ++compressed;
  }
  EXPECT_GT(compressed, 40u);  // the twins and the hostile chunks were among them
}

// A gzip + shuffle column of many chunks, read whole: the values HDF5 gives.
TEST(parallel_decode, many_chunks_of_gzip_and_shuffle) {
  const std::string path = std::string(SCOPE_TEST_FIXTURES_DIR) + "/h5/gzip_s3.h5";  // 15 chunks
  const Read one = read_with(path, 1);
  const Read two = read_with(path, 2);
  ASSERT_EQ(one.error, "");
  EXPECT_EQ(two.start, one.start);
  EXPECT_EQ(two.end, one.end);
  EXPECT_EQ(one.start.size(), 60577u);
}

}  // namespace
}  // namespace scope_speedscope::test
