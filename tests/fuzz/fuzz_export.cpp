// libFuzzer target: one input is the bytes of an HDF5 file. It goes through
// the in-memory reader (what the page and the npm package use), first
// without the calls' times as the page's inspection reads it (a file that
// read refuses must be refused whole too), the inspection the page shows, and the whole export of
// every rank with calls (at most four) into a sink that only checks the JSON is well formed enough
// to end where it should. Every input is also read with its compressed
// columns decoded on two threads (read/h5_chunks.cpp, what the native CLI
// does): the same columns or the same refusal, or it is a finding. A refusal
// (scope_speedscope::Error) is the normal outcome; anything else is a finding: a crash or sanitizer
// report, an exception of another type (std::bad_alloc from a buffer sized by the file, a
// std::length_error, ...), a hang (-timeout) or memory beyond -rss_limit_mb / -malloc_limit_mb.
//
// Build: cmake --preset fuzz && cmake --build --preset fuzz; run: scripts/fuzz.sh
// (docs/reliability.md).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "export/export.hpp"
#include "read/h5_reader.hpp"
#include "select/inspect.hpp"
#include "text/messages.hpp"
#include "write/speedscope_writer.hpp"

namespace ss = scope_speedscope;

namespace {

// Counts bytes; a document must start with '{' and end with '}'.
class CheckingSink final : public ss::Sink {
 public:
  void write(const char* data, std::size_t size) override {
    if (size == 0) return;
    if (bytes_ == 0 && data[0] != '{') std::abort();
    bytes_ += size;
    last_ = data[size - 1];
  }
  void finish() const {
    if (bytes_ > 0 && last_ != '}') std::abort();
  }

 private:
  std::size_t bytes_ = 0;
  char last_ = 0;
};

class CheckingTarget final : public ss::OutputTarget {
 public:
  ss::Sink& open(const std::string&) override {
    sink_ = CheckingSink();
    return sink_;
  }
  void close() override { sink_.finish(); }
  void commit() override {}
  void abort() noexcept override {}

 private:
  CheckingSink sink_;
};

}  // namespace

namespace {

// The columns read, or the refusal's words.
std::string read_outcome(const uint8_t* data, std::size_t size, unsigned threads,
                         std::vector<int64_t>& start, std::vector<int64_t>& end) {
  ss::set_decode_threads(threads);
  std::string error;
  try {
    ss::Run run = ss::read_run_from_memory(data, size, "fuzz.h5");
    start = run.start_ns.to_vector();
    end = run.end_ns.to_vector();
  } catch (const ss::Error& e) {
    error = e.what();
  }
  ss::set_decode_threads(1);
  return error;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  {  // HDF5's pipeline decoding, or ours on two threads: the same read
    std::vector<int64_t> s1, e1, s2, e2;
    if (read_outcome(data, size, 0, s1, e1) != read_outcome(data, size, 2, s2, e2)) std::abort();
    if (s1 != s2 || e1 != e2) std::abort();
  }
  // What the page asks first: what the file holds, read without the calls'
  // times. A file refused so must be refused when read whole too.
  bool index_refused = false;
  try {
    ss::inspect_run(ss::read_run_from_memory(data, size, "fuzz.h5", {}, ss::ReadDepth::index));
  } catch (const ss::Error&) {
    index_refused = true;
  }
  try {
    std::vector<ss::Run> runs;
    runs.push_back(ss::read_run_from_memory(data, size, "fuzz.h5"));
    if (index_refused) std::abort();  // read whole, but not what it holds
    const ss::Inspection info = ss::inspect_run(runs.front());
    std::vector<int64_t> ranks;
    for (const auto& rank : info.ranks) {
      if (ranks.size() < 4) ranks.push_back(rank.rank);
    }
    if (ranks.empty()) ranks.push_back(0);
    ss::ExportOptions options;
    options.verbose = false;
    options.ranks = ranks;
    CheckingTarget target;
    ss::export_speedscope(runs, "profile.speedscope.json", options, target);
  } catch (const ss::Error&) {
    // A clean refusal.
  }
  return 0;
}
