// read: a compressed column decoded on every core. HDF5 as built is not
// thread-safe and decodes a dataset's chunks one after another; natively a
// column of scope-profiler's (1-D, 64-bit little-endian integers, chunked,
// through shuffle and gzip, LZF or Zstandard) is read instead by asking
// HDF5 for each chunk's stored bytes (H5Dread_chunk, on this thread) and
// decoding a batch of chunks at once on worker threads with the same
// decoders (h5_filters.cpp's decode_into) and an unshuffle of ours. Any
// chunk that is not as expected (unwritten, skipped filters we do not know,
// a decoder's refusal) ends this path: the caller reads the column through
// HDF5 again, whose error is the one every build gives.
#include <hdf5.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "read/h5_detail.hpp"
#include "read/h5_filters.hpp"

namespace scope_speedscope {

namespace {
std::atomic<unsigned> decode_threads{1};
}  // namespace

void set_decode_threads(unsigned threads) { decode_threads = std::max(1u, threads); }
unsigned machine_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

namespace h5 {

namespace {

struct Filter {
  H5Z_filter_t id;
  unsigned element_size;  // shuffle's
};

// The dataset's filters when each is one we decode (in the order they were
// applied when written), else false.
bool decodable_filters(hid_t dset, std::vector<Filter>& out) {
  Handle dcpl(H5Dget_create_plist(dset), H5Pclose);
  if (!dcpl.valid() || H5Pget_layout(dcpl.get()) != H5D_CHUNKED) return false;
  const int n = H5Pget_nfilters(dcpl.get());
  if (n <= 0) return false;  // nothing to decode: HDF5 only copies
  for (int k = 0; k < n; ++k) {
    unsigned flags = 0, config = 0;
    std::size_t values = 4;
    unsigned cd[4] = {0, 0, 0, 0};
    char name[64];
    const H5Z_filter_t id = H5Pget_filter2(dcpl.get(), static_cast<unsigned>(k), &flags, &values,
                                           cd, sizeof name, name, &config);
    if (id < 0 || !filter_supported(id)) return false;
    out.push_back(Filter{id, id == H5Z_FILTER_SHUFFLE ? (values > 0 ? cd[0] : 0) : 0});
  }
  return true;
}

// Undoes shuffle: byte j of every element was stored together.
void unshuffle(const unsigned char* in, unsigned char* out, std::size_t bytes, unsigned size) {
  const std::size_t n = bytes / size;
  for (unsigned j = 0; j < size; ++j) {
    const unsigned char* from = in + j * n;
    for (std::size_t i = 0; i < n; ++i) out[i * size + j] = from[i];
  }
  std::memcpy(out + n * size, in + n * size, bytes - n * size);  // a tail shuffle leaves
}

// One chunk's stored bytes through the filters, last applied first, into
// `out` (chunk_bytes); "" or why not.
std::string decode_chunk(const std::vector<Filter>& filters, unsigned mask,
                         std::vector<unsigned char>& stored, std::vector<unsigned char>& spare,
                         uint64_t chunk_bytes, unsigned char* out) {
  std::vector<unsigned char>* at = &stored;
  std::size_t size = stored.size();
  for (std::size_t k = filters.size(); k-- > 0;) {
    if ((mask >> k) & 1u) continue;  // not applied to this chunk
    const Filter& f = filters[k];
    spare.resize(chunk_bytes);
    if (f.id == H5Z_FILTER_SHUFFLE) {
      if (size != chunk_bytes || f.element_size == 0) return "shuffled chunk of another size";
      if (f.element_size > 1) {
        unshuffle(at->data(), spare.data(), size, f.element_size);
        std::swap(*at, spare);
      }
      continue;
    }
    const std::string why = decode_into(f.id, at->data(), size, spare.data(), chunk_bytes);
    if (!why.empty()) return why;
    std::swap(*at, spare);
    size = chunk_bytes;
  }
  if (size != chunk_bytes) return "a chunk of another size";
  std::memcpy(out, at->data(), chunk_bytes);
  return "";
}

}  // namespace

bool read_column_in_parallel(File& f, hid_t dset, uint64_t n, int64_t* out, bool events) {
#ifndef SCOPE_SPEEDSCOPE_THREADS
  return false;  // one thread: HDF5's own way
#endif
  const unsigned threads = decode_threads;
  if (threads < 2) return false;
  Handle type(H5Dget_type(dset), H5Tclose);
  if (!type.valid() || H5Tequal(type.get(), H5T_STD_I64LE) <= 0) return false;
  std::vector<Filter> filters;
  if (!decodable_filters(dset, filters)) return false;
  Handle dcpl(H5Dget_create_plist(dset), H5Pclose);
  hsize_t chunk = 0;
  if (H5Pget_chunk(dcpl.get(), 1, &chunk) != 1 || chunk == 0) return false;
  const uint64_t chunk_bytes = chunk * 8;
  if (chunk_bytes > (uint64_t{16} << 20)) return false;  // big chunks: HDF5's own way
  const uint64_t chunks = (n + chunk - 1) / chunk;

  // A batch: each thread decodes its share of `threads * 2` chunks.
  struct Slot {
    std::vector<unsigned char> stored, spare, whole;
    unsigned mask = 0;
    uint64_t first = 0;  // its first value
  };
  const std::size_t batch = static_cast<std::size_t>(threads) * 2;
  std::vector<Slot> slots(batch);
  bool ok = true;
  uint64_t reported = 0;  // events counted, taken back when HDF5 reads the column again
  for (uint64_t c0 = 0; c0 < chunks && ok; c0 += batch) {
    const std::size_t in_batch = static_cast<std::size_t>(std::min<uint64_t>(batch, chunks - c0));
    for (std::size_t s = 0; s < in_batch; ++s) {
      Slot& slot = slots[s];
      const hsize_t offset = (c0 + s) * chunk;
      hsize_t stored = 0;
      if (H5Dget_chunk_storage_size(dset, &offset, &stored) < 0 || stored == 0 ||
          stored > f.size()) {
        ok = false;  // unwritten or damaged: HDF5 says which
        break;
      }
      slot.stored.resize(stored);
      uint32_t mask = 0;
      if (H5Dread_chunk(dset, H5P_DEFAULT, &offset, &mask, slot.stored.data()) < 0) {
        ok = false;
        break;
      }
      slot.mask = mask;
      slot.first = offset;
    }
    if (!ok) break;
    auto decode = [&](std::size_t from) {
      for (std::size_t s = from; s < in_batch; s += threads) {
        Slot& slot = slots[s];
        const uint64_t values = std::min<uint64_t>(chunk, n - slot.first);
        unsigned char* to = reinterpret_cast<unsigned char*>(out + slot.first);
        const bool whole = values == chunk;
        if (!whole) slot.whole.resize(chunk_bytes);
        if (!decode_chunk(filters, slot.mask, slot.stored, slot.spare, chunk_bytes,
                          whole ? to : slot.whole.data())
                 .empty())
          return false;
        if (!whole) std::memcpy(to, slot.whole.data(), values * 8);
      }
      return true;
    };
    std::vector<std::future<bool>> others;
    for (unsigned t = 1; t < threads && t < in_batch; ++t) {
      others.push_back(std::async(std::launch::async, decode, t));
    }
    ok = decode(0);
    for (auto& other : others) ok = other.get() && ok;
    if (events && ok) {
      const uint64_t done = std::min<uint64_t>(n, (c0 + in_batch) * chunk) - c0 * chunk;
      f.events_done += done;
      reported += done;
      if (f.progress) f.progress("read", f.events_done, f.events_total);
    }
  }
  H5Eclear2(H5E_DEFAULT);
  if (!ok) f.events_done -= reported;
  return ok;
}

}  // namespace h5
}  // namespace scope_speedscope
