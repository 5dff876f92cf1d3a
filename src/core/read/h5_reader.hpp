// read: HDF5 file -> Run (columns). The only unit that sees HDF5 types.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/run.hpp"

namespace scope_speedscope {

// Where the bytes of a file come from. Every read of every file, in every
// build, goes through one HDF5 file driver of ours (h5_driver.cpp) that asks
// a source for bytes: a file descriptor (pread), bytes in memory, or, in the
// WebAssembly build, a JavaScript function that reads a slice of a File or
// of a file in Node. HDF5's own drivers (sec2, core) are never used: the core
// driver's largest address comes from size_t, 2^32 in WebAssembly, so the two
// builds judged the same file differently.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Bytes in the file.
  virtual uint64_t size() const = 0;
  // Copies `n` bytes at `offset` (offset + n <= size()) into `out`; returns
  // "" or why it could not ("the file was changed or removed", errno text).
  virtual std::string read(uint64_t offset, void* out, std::size_t n) = 0;
  // True when a read costs a call into something slow (a Blob, a file in
  // Node): the driver then reads whole blocks and keeps a few.
  virtual bool lazy() const { return false; }
};

// How much of a file a read takes. `calls`: everything the export needs.
// `index`: what the file holds without the calls' times (for schema 2 and 3
// the region table, the rank/region index and the lane columns and tables;
// a schema-1 file is read whole): what inspect_run needs, and nothing that
// reconstructs calls may take such a run (Run::times is false). Reading
// what a 1.5 GB job holds then reads a few MB, and damage in the times is
// found by the read that needs them.
enum class ReadDepth { calls, index };

// What a read takes: its depth and, for schema 2 and 3 files, whose calls.
// With `ranks`, only those ranks' calls are read (times and lanes), so that
// opening rank 0 of a 64-rank job reads a 64th of its calls; the index, the
// tables and what the region order and the origin need of the other ranks
// (each of their rows' earliest start: their start column, nothing else)
// are read as for every rank, unless `others_first_starts` is false (a read
// that only checks the rest of a file whose order is known). Their other
// columns are not read, so damage there is found by the read that needs
// them. Schema-1 and aggregate files are read whole. The run is `partial`
// when a rank with calls was left out (RankSlice::held).
struct ReadPlan {
  ReadPlan(ReadDepth d = ReadDepth::calls) : depth(d) {}  // NOLINT: a depth is a plan
  ReadDepth depth = ReadDepth::calls;
  std::optional<std::vector<int64_t>> ranks;
  bool others_first_starts = true;
  // With `ranks`: false reads their calls only to check them (every check
  // of a whole read, block by block) and keeps none (their slices are not
  // held): what a timeline's export needs of the ranks it left out.
  bool keep = true;
  // Each region row's source location too (Run::sources; off: nothing of
  // it is read). A bad value is read as unknown with one warning
  // (Run::warnings), never a failure: see h5_source.cpp.
  bool sources = false;
};

// The most memory the columns and tables read from one file may take.
// By default 2 GiB in every build (kMemoryPerFileBytes): the WebAssembly
// build cannot address more than 4 GiB in all, and the page, Node and the
// fuzzer keep that limit and its words (too_large). The native CLI, which
// has the machine, raises it to the machine's memory (`machine`: true), and
// a file past that is refused as more than the machine has
// (too_large_for_machine). Process-wide; set before reading.
struct MemoryLimit {
  uint64_t bytes;
  bool machine = false;  // the limit is the machine's memory, not the build's
};
MemoryLimit memory_per_file();
void set_memory_per_file(MemoryLimit limit);
// The machine's physical memory as a limit (`machine` true), or the
// default limit when it is unknown or smaller.
MemoryLimit machine_memory();

// How many threads decode a compressed column's chunks (read/h5_chunks.cpp):
// 1 by default and at most in the WebAssembly build (our decoders, on the
// reading thread); the native CLI asks for every core (machine_threads());
// 0 leaves it to HDF5's own pipeline (what the tests compare ours with).
// Process-wide; set before reading.
void set_decode_threads(unsigned threads);
unsigned machine_threads();
// How many chunks partial reads took from those an earlier one decoded
// where it ended midway (read/h5_chunks.cpp's EdgeChunks), since the
// process started: a read a group of ranks at a time decodes each edge once.
uint64_t edge_chunks_reused();
// Gives back the chunks kept for a next partial read (a read in groups ended).
void forget_edge_chunks();

// Reads a scope-profiler file (schema 1, 2, 3 or aggregate) from a path.
// Throws Error (file_not_found, corrupt_profile, schema) with scope-profiler's
// messages; `path` appears in them as given, or `display_name` when set
// (a browser's mounted file shows its own name, not the mount path).
Run read_run(const std::string& path, const Progress& progress = {},
             const std::string& display_name = {}, const ReadPlan& plan = {});

// The same from bytes in memory; `name` stands for the path in messages and
// in the display label.
Run read_run_from_memory(const void* data, std::size_t size, const std::string& name,
                         const Progress& progress = {}, const ReadPlan& plan = {});

// The same from any source; `name` as for read_run_from_memory.
Run read_run_from_source(ByteSource& source, const std::string& name, const Progress& progress = {},
                         const ReadPlan& plan = {});

}  // namespace scope_speedscope
