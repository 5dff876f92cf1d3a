// read: the HDF5 filters the reader accepts, and the decoders of the three
// that compress: deflate (1, zlib), LZF (32000, liblzf) and Zstandard (32015,
// libzstd), registered with H5Zregister (deflate replaces HDF5's own), linked
// in: no plugin is loaded at run time. Shuffle (2) is HDF5's own.
//
// A decoder turns one stored chunk into exactly the bytes of one chunk of
// the dataset being read (ChunkSize), never more: a chunk that claims or
// decodes to more, a frame cut short, a window larger than the chunk needs
// or a stream that runs past its data fails with a sentence of ours
// (take_decode_failure), which the reader's message ends with.
// Private to the reader units: nothing here appears in a public header.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <string>

namespace scope_speedscope::h5 {

// Registers the decoders with HDF5, once per process.
void register_filters();

// "gzip", "shuffle", "lzf", "zstd", "blosc", ... or "unknown".
const char* filter_name(H5Z_filter_t id);
// Whether the reader reads datasets through this filter (gzip, shuffle, lzf,
// zstd: what scope-profiler writes).
bool filter_supported(H5Z_filter_t id);
// How many times its stored size a chunk can grow through this filter: the
// bound on what a dataset of that many stored bytes may declare.
uint64_t filter_expansion(H5Z_filter_t id);

// Decodes `nbytes` stored bytes of one chunk through `id` (gzip, lzf or
// zstd) into exactly `expected` bytes at `out`, as the registered decoder
// does: "" or why not, in the same words. Calls nothing of HDF5, so any
// thread may run it (h5_chunks.cpp decodes chunks on every core).
std::string decode_into(H5Z_filter_t id, const void* in, size_t nbytes, void* out,
                        uint64_t expected);

// Why the last chunk could not be decoded ("a zstd chunk of 31 bytes ends
// before its frame does"), or "" when no decoder failed since; clears it.
std::string take_decode_failure();

// While one lives, the decoders produce chunks of exactly `bytes` (the size
// of one chunk of the dataset being read, as the file declares it). Without
// one, they refuse to decode.
class ChunkSize {
 public:
  explicit ChunkSize(uint64_t bytes);
  ~ChunkSize();
  ChunkSize(const ChunkSize&) = delete;
  ChunkSize& operator=(const ChunkSize&) = delete;

 private:
  uint64_t previous_;
};

}  // namespace scope_speedscope::h5
