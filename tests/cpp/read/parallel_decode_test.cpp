// read/h5_chunks: a compressed column decoded by us, on this thread or on
// every core, reads as HDF5's own pipeline reads it. Every fixture and
// every file of the damaged campaign (compressed twins, hostile chunks,
// damaged files) gives the same columns, or the same error, through HDF5
// (decode threads 0), and with our decoders on one thread and on four.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "read/h5_reader.hpp"
#include "test_support.hpp"

namespace scope_speedscope::test {
namespace {

struct Read {
  std::string error;
  std::vector<int64_t> start, end, lane;
  // Per region row: rank, held, offset, count, earliest start (or -1).
  std::vector<std::vector<int64_t>> slices;
};

Read read_with(const std::string& path, unsigned threads, const ReadPlan& plan = {}) {
  set_decode_threads(threads);
  Read r;
  try {
    Run run = read_run(path, {}, {}, plan);
    r.start = run.start_ns.to_vector();
    r.end = run.end_ns.to_vector();
    r.lane = std::move(run.lane);
    for (const Region& region : run.regions) {
      for (const RankSlice& s : region.ranks) {
        r.slices.push_back({s.rank, s.held, static_cast<int64_t>(s.offset),
                            static_cast<int64_t>(s.count), s.min_start_ns.value_or(-1)});
      }
    }
  } catch (const Error& e) {
    r.error = std::string(e.kind_name()) + ": " + e.what();
  }
  set_decode_threads(1);
  return r;
}

std::vector<std::string> every_h5_file() {
  std::vector<std::string> files;
  for (const std::string& dir :
       {std::string(SCOPE_TEST_FIXTURES_DIR), std::string(SCOPE_TEST_MUTATIONS_DIR)}) {
    for (const std::string& f : files_under(dir)) {
      if (f.size() > 3 && f.compare(f.size() - 3, 3, ".h5") == 0) files.push_back(dir + "/" + f);
    }
  }
  return files;
}

TEST(parallel_decode, every_file_reads_as_with_one_thread) {
  const std::vector<std::string> files = every_h5_file();
  ASSERT_GT(files.size(), 100u);
  std::size_t compressed = 0;
  for (const std::string& path : files) {
    const Read hdf5 = read_with(path, 0);
    for (unsigned threads : {1u, 4u}) {
      const Read ours = read_with(path, threads);
      EXPECT_EQ(ours.error, hdf5.error) << path << ", " << threads;
      EXPECT_EQ(ours.start, hdf5.start) << path << ", " << threads;
      EXPECT_EQ(ours.end, hdf5.end) << path << ", " << threads;
      EXPECT_EQ(ours.lane, hdf5.lane) << path << ", " << threads;
    }
    if (path.find("/compressed/") != std::string::npos) ++compressed;
  }
  EXPECT_GT(compressed, 40u);  // the twins and the hostile chunks were among them
}

// Some ranks read (their rows' values and the others' earliest starts,
// taken range by range): the same slices, columns and errors through HDF5
// and with our decoders on one thread and on three (batches of six chunks,
// so a read goes on over batches and stops at a damaged chunk in any).
TEST(parallel_decode, some_ranks_read_as_with_one_thread) {
  std::size_t held = 0;
  for (const std::string& path : every_h5_file()) {
    for (const std::vector<int64_t>& ranks : {std::vector<int64_t>{0}, {1, 3}}) {
      ReadPlan plan;
      plan.ranks = ranks;
      const Read hdf5 = read_with(path, 0, plan);
      for (unsigned threads : {1u, 3u}) {
        const Read ours = read_with(path, threads, plan);
        EXPECT_EQ(ours.error, hdf5.error) << path << ", " << threads;
        EXPECT_EQ(ours.start, hdf5.start) << path << ", " << threads;
        EXPECT_EQ(ours.end, hdf5.end) << path << ", " << threads;
        EXPECT_EQ(ours.lane, hdf5.lane) << path << ", " << threads;
        EXPECT_EQ(ours.slices, hdf5.slices) << path << ", " << threads;
      }
      if (hdf5.error.empty() && !hdf5.start.empty()) ++held;
    }
  }
  EXPECT_GT(held, 100u);
}

// A job of 6 ranks whose rows each span several chunks of 1,000 values
// (bench/make_big_job.py OUT 6 4000 1 1000): rank 2's calls and every
// other rank's earliest starts taken on every core, as HDF5 gives them.
TEST(parallel_decode, other_ranks_earliest_starts_over_many_chunks) {
  const std::string path =
      std::string(SCOPE_TEST_FIXTURES_DIR) + "/h5/chunked/job_6x4000_gzip_s3.h5";
  ReadPlan plan;
  plan.ranks = std::vector<int64_t>{2};
  const Read one = read_with(path, 0, plan);
  const Read two = read_with(path, 2, plan);
  ASSERT_EQ(one.error, "");
  EXPECT_EQ(two.slices, one.slices);
  EXPECT_EQ(two.start, one.start);
  EXPECT_EQ(two.end, one.end);
  EXPECT_EQ(one.start.size(), 3990u);
  std::size_t others = 0;
  for (const std::vector<int64_t>& s : one.slices) others += s[1] == 0 && s[4] > 0 ? 1 : 0;
  EXPECT_EQ(others, 20u);  // 5 ranks x 4 regions
  // Read whole, the same job's earliest starts are its rows' smallest.
  const Read whole = read_with(path, 0);
  ASSERT_EQ(whole.error, "");
  for (std::size_t k = 0; k < one.slices.size(); ++k) {
    if (one.slices[k][1] != 0) continue;
    const auto from = whole.start.begin() + whole.slices[k][2];
    EXPECT_EQ(one.slices[k][4], *std::min_element(from, from + whole.slices[k][3])) << k;
  }
}

// A gzip + shuffle column of many chunks, read whole: the values HDF5 gives.
TEST(parallel_decode, many_chunks_of_gzip_and_shuffle) {
  const std::string path = std::string(SCOPE_TEST_FIXTURES_DIR) + "/h5/gzip_s3.h5";  // 15 chunks
  const Read one = read_with(path, 0);
  const Read two = read_with(path, 2);
  ASSERT_EQ(one.error, "");
  EXPECT_EQ(two.start, one.start);
  EXPECT_EQ(two.end, one.end);
  EXPECT_EQ(one.start.size(), 60577u);
}

}  // namespace
}  // namespace scope_speedscope::test
