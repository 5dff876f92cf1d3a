// read: a compressed column decoded by us, on every core natively. HDF5 as
// built is not thread-safe and decodes a dataset's chunks one after
// another; a column of scope-profiler's (1-D, 64-bit little-endian
// integers, chunked, through shuffle and gzip, LZF or Zstandard) is read
// instead by asking HDF5 for each chunk's stored bytes (H5Dread_chunk, on
// this thread) and decoding them with the same decoders (h5_filters.cpp's
// decode_into) and an unshuffle of ours (a word at a time, where HDF5's
// goes byte by byte): a batch of chunks at once on worker threads natively,
// one chunk at a time on this thread in the WebAssembly build. Any chunk
// that is not as expected (unwritten, skipped filters we do not know, a
// decoder's refusal) ends this path: the caller reads the column through
// HDF5 again, whose error is the one every build gives.
#include <hdf5.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "model/column.hpp"
#include "read/h5_detail.hpp"
#include "read/h5_filters.hpp"

namespace scope_speedscope {

namespace {
std::atomic<unsigned> decode_threads{1};
}  // namespace

void set_decode_threads(unsigned threads) {
#ifndef SCOPE_SPEEDSCOPE_THREADS
  threads = std::min(threads, 1u);  // one thread: ours or HDF5's
#endif
  decode_threads = threads;
}
unsigned machine_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

namespace h5 {

namespace {

// A chunk's bytes: grown without zeroing (every byte is written by the read
// or a decoder, which fails unless it writes exactly the chunk).
using Bytes = Column<unsigned char>;

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

// The 8 x 8 bytes of r transposed: byte j of r[k] becomes byte k of r[j]
// (swapping blocks of 4, then 2, then 1 byte across the diagonal).
inline void transpose_bytes(uint64_t r[8]) {
  for (int j = 0; j < 4; ++j) {
    const uint64_t a = r[j], b = r[j + 4];
    r[j] = (a & 0x00000000FFFFFFFFull) | (b << 32);
    r[j + 4] = (a >> 32) | (b & 0xFFFFFFFF00000000ull);
  }
  for (int j : {0, 1, 4, 5}) {
    constexpr uint64_t m = 0x0000FFFF0000FFFFull;
    const uint64_t a = r[j], b = r[j + 2];
    r[j] = (a & m) | ((b & m) << 16);
    r[j + 2] = ((a >> 16) & m) | (b & ~m);
  }
  for (int j : {0, 2, 4, 6}) {
    constexpr uint64_t m = 0x00FF00FF00FF00FFull;
    const uint64_t a = r[j], b = r[j + 1];
    r[j] = (a & m) | ((b & m) << 8);
    r[j + 1] = ((a >> 8) & m) | (b & ~m);
  }
}

// Undoes shuffle: byte j of every element was stored together. Elements
// of 8 bytes (every int64 column) go 8 at a time on a little-endian
// machine (x86, WebAssembly): 8 bytes of each of the 8 planes, transposed
// as words; the rest byte by byte.
void unshuffle(const unsigned char* in, unsigned char* out, std::size_t bytes, unsigned size) {
  const std::size_t n = bytes / size;
  std::size_t done = 0;
  if (size == 8 && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) {
    for (; done + 8 <= n; done += 8) {
      uint64_t r[8];
      for (int j = 0; j < 8; ++j) std::memcpy(&r[j], in + j * n + done, 8);
      transpose_bytes(r);
      for (int k = 0; k < 8; ++k) std::memcpy(out + (done + k) * 8, &r[k], 8);
    }
  }
  for (unsigned j = 0; j < size; ++j) {
    const unsigned char* from = in + j * n;
    for (std::size_t i = done; i < n; ++i) out[i * size + j] = from[i];
  }
  std::memcpy(out + n * size, in + n * size, bytes - n * size);  // a tail shuffle leaves
}

// One chunk's stored bytes through the filters, last applied first, into
// `out` (chunk_bytes); "" or why not.
std::string decode_chunk(const std::vector<Filter>& filters, unsigned mask, Bytes& stored,
                         Bytes& spare, uint64_t chunk_bytes, unsigned char* out) {
  Bytes* at = &stored;
  std::size_t size = stored.size();
  for (std::size_t k = filters.size(); k-- > 0;) {
    if ((mask >> k) & 1u) continue;  // not applied to this chunk
    const Filter& f = filters[k];
    spare.resize_for_overwrite(chunk_bytes);
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

// The chunks where partial reads (take_ranges_in_parallel) ended midway,
// decoded, kept for the next read: a file read a group of ranks at a time
// (the page's All ranks) then decodes the chunk where one group ends and
// the next begins once, not twice (about an eighth of its inflating). An
// entry is found by its stored bytes themselves, with the filters and
// mask that decode them, so a chunk of another file never matches; the
// few kept are the last ones (a group's edge in each column).
class EdgeChunks {
 public:
  // Whether a chunk stored as `stored` was kept: then its decoded bytes are in `out`.
  bool find(const std::vector<Filter>& filters, unsigned mask, const Bytes& stored,
            uint64_t chunk_bytes, unsigned char* out) {
    std::lock_guard<std::mutex> lock(m_);
    for (Entry& e : entries_) {
      if (e.mask != mask || e.decoded.size() != chunk_bytes || e.stored.size() != stored.size() ||
          !same(e.filters, filters) ||
          std::memcmp(e.stored.data(), stored.data(), stored.size()) != 0)
        continue;
      std::memcpy(out, e.decoded.data(), chunk_bytes);
      e.used = ++clock_;
      ++found_;
      return true;
    }
    return false;
  }

  // Keeps a chunk decoded (the least recently used one goes).
  void keep(const std::vector<Filter>& filters, unsigned mask, const Bytes& stored,
            const unsigned char* decoded, uint64_t chunk_bytes) {
    std::lock_guard<std::mutex> lock(m_);
    if (entries_.size() < kEntries) entries_.emplace_back();
    Entry& e = *std::min_element(entries_.begin(), entries_.end(),
                                 [](const Entry& a, const Entry& b) { return a.used < b.used; });
    e.filters = filters;
    e.mask = mask;
    e.stored.resize_for_overwrite(stored.size());
    std::memcpy(e.stored.data(), stored.data(), stored.size());
    e.decoded.resize_for_overwrite(chunk_bytes);
    std::memcpy(e.decoded.data(), decoded, chunk_bytes);
    e.used = ++clock_;
  }

  uint64_t found() {
    std::lock_guard<std::mutex> lock(m_);
    return found_;
  }

  void forget() {
    std::lock_guard<std::mutex> lock(m_);
    entries_ = {};
  }

 private:
  static bool same(const std::vector<Filter>& a, const std::vector<Filter>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Filter& x, const Filter& y) {
      return x.id == y.id && x.element_size == y.element_size;
    });
  }
  struct Entry {
    std::vector<Filter> filters;
    unsigned mask = 0;
    Bytes stored, decoded;
    uint64_t used = 0;
  };
  // The two columns (starts, durations) of a group's edge.
  static constexpr std::size_t kEntries = 2;
  std::mutex m_;
  std::vector<Entry> entries_;
  uint64_t clock_ = 0, found_ = 0;
};

EdgeChunks& edge_chunks() {
  static EdgeChunks kept;
  return kept;
}

// A column's chunks read (H5Dread_chunk, on the calling thread) and decoded
// a batch at a time, each thread its share of the batch.
class ChunkBatches {
 public:
  // Whether the dataset is one whose chunks we decode, on more than one thread.
  bool open(File& f, hid_t dset, uint64_t n) {
    threads_ = decode_threads;
    if (threads_ == 0) return false;  // HDF5's own way
    Handle type(H5Dget_type(dset), H5Tclose);
    if (!type.valid() || H5Tequal(type.get(), H5T_STD_I64LE) <= 0) return false;
    if (!decodable_filters(dset, filters_)) return false;
    Handle dcpl(H5Dget_create_plist(dset), H5Pclose);
    if (H5Pget_chunk(dcpl.get(), 1, &chunk_) != 1 || chunk_ == 0) return false;
    if (chunk_ * 8 > (uint64_t{16} << 20)) return false;  // big chunks: HDF5's own way
    f_ = &f;
    dset_ = dset;
    n_ = n;
    slots_.resize(threads_ > 1 ? static_cast<std::size_t>(threads_) * 2 : 1);
    return true;
  }

  uint64_t chunk() const { return chunk_; }
  uint64_t chunks() const { return (n_ + chunk_ - 1) / chunk_; }
  std::size_t batch() const { return slots_.size(); }

  // Chunks `indices[0 .. count)` (count <= batch()) decoded: each whole one
  // into `column` at its place when given, else (and the last, shorter one)
  // into its slot. False at the first chunk not as expected. With `edges`,
  // a chunk kept by EdgeChunks is taken from there, and chunk `keep` (one
  // of them, or none) is kept there once decoded.
  bool decode(const uint64_t* indices, std::size_t count, int64_t* column, bool edges = false,
              uint64_t keep = UINT64_MAX) {
    for (std::size_t s = 0; s < count; ++s) {
      Slot& slot = slots_[s];
      const hsize_t offset = indices[s] * chunk_;
      hsize_t stored = 0;
      if (H5Dget_chunk_storage_size(dset_, &offset, &stored) < 0 || stored == 0 ||
          stored > f_->size())
        return false;  // unwritten or damaged: HDF5 says which
      slot.stored.resize_for_overwrite(stored);
      uint32_t mask = 0;
      if (H5Dread_chunk(dset_, H5P_DEFAULT, &offset, &mask, slot.stored.data()) < 0) return false;
      slot.mask = mask;
      slot.first = offset;
      slot.kept = edges && edge_chunks().find(filters_, mask, slot.stored, chunk_ * 8,
                                              slot.whole_for(chunk_ * 8));
      slot.keep = edges && !slot.kept && indices[s] == keep;
      if (slot.keep) {
        slot.stored_copy.resize_for_overwrite(slot.stored.size());
        std::memcpy(slot.stored_copy.data(), slot.stored.data(), slot.stored.size());
      }
    }
    const uint64_t chunk_bytes = chunk_ * 8;
    auto work = [&](std::size_t from) {
      for (std::size_t s = from; s < count; s += threads_) {
        Slot& slot = slots_[s];
        const uint64_t values = std::min<uint64_t>(chunk_, n_ - slot.first);
        if (slot.kept) continue;  // (edges: no column)
        const bool direct = column != nullptr && values == chunk_;
        if (!direct) slot.whole.resize_for_overwrite(chunk_bytes);
        unsigned char* to =
            direct ? reinterpret_cast<unsigned char*>(column + slot.first) : slot.whole.data();
        if (!decode_chunk(filters_, slot.mask, slot.stored, slot.spare, chunk_bytes, to).empty())
          return false;
        if (slot.keep) edge_chunks().keep(filters_, slot.mask, slot.stored_copy, to, chunk_bytes);
        if (column != nullptr && !direct) std::memcpy(column + slot.first, to, values * 8);
      }
      return true;
    };
    std::vector<std::future<bool>> others;
    for (unsigned t = 1; t < threads_ && t < count; ++t) {
      others.push_back(std::async(std::launch::async, work, t));
    }
    bool ok = work(0);
    for (auto& other : others) ok = other.get() && ok;
    return ok;
  }

  // Slot s's values after decode() without a column: from value first(s).
  const int64_t* values(std::size_t s) const {
    return reinterpret_cast<const int64_t*>(slots_[s].whole.data());
  }
  uint64_t first(std::size_t s) const { return slots_[s].first; }

 private:
  struct Slot {
    Bytes stored, spare, whole;
    Bytes stored_copy;  // the stored bytes of a chunk to keep (decoding changes `stored`)
    unsigned mask = 0;
    uint64_t first = 0;  // its first value
    bool kept = false;   // its values in `whole` already (EdgeChunks)
    bool keep = false;   // to keep in EdgeChunks once decoded
    unsigned char* whole_for(uint64_t bytes) {
      whole.resize_for_overwrite(bytes);
      return whole.data();
    }
  };
  File* f_ = nullptr;
  hid_t dset_ = -1;
  uint64_t n_ = 0;
  hsize_t chunk_ = 0;
  unsigned threads_ = 1;
  std::vector<Filter> filters_;
  std::vector<Slot> slots_;
};

}  // namespace

bool read_column_in_parallel(File& f, hid_t dset, uint64_t n, int64_t* out, bool events) {
  ChunkBatches batches;
  if (!batches.open(f, dset, n)) return false;
  std::vector<uint64_t> indices(batches.batch());
  bool ok = true;
  uint64_t reported = 0;  // events counted, taken back when HDF5 reads the column again
  for (uint64_t c0 = 0; c0 < batches.chunks() && ok; c0 += batches.batch()) {
    const auto in_batch =
        static_cast<std::size_t>(std::min<uint64_t>(batches.batch(), batches.chunks() - c0));
    for (std::size_t s = 0; s < in_batch; ++s) indices[s] = c0 + s;
    ok = batches.decode(indices.data(), in_batch, out);
    if (events && ok) {
      const uint64_t done =
          std::min<uint64_t>(n, (c0 + in_batch) * batches.chunk()) - c0 * batches.chunk();
      f.events_done += done;
      reported += done;
      if (f.progress) f.progress("read", f.events_done, f.events_total);
    }
  }
  H5Eclear2(H5E_DEFAULT);
  if (!ok) f.events_done -= reported;
  return ok;
}

uint64_t take_ranges_in_parallel(File& f, hid_t dset, uint64_t n,
                                 const std::vector<ValueRange>& ranges, const TakeValues& take) {
  ChunkBatches batches;
  if (ranges.empty() || !batches.open(f, dset, n)) return 0;
  const uint64_t chunk = batches.chunk();
  std::vector<uint64_t> indices;  // the chunks the ranges touch, ascending
  for (const ValueRange& r : ranges) {
    if (r.begin >= r.end) continue;
    for (uint64_t c = std::max(r.begin / chunk, indices.empty() ? 0 : indices.back() + 1);
         c <= (r.end - 1) / chunk; ++c)
      indices.push_back(c);
  }
  // The last chunk, when the ranges end before its end: kept for a read
  // of what follows (EdgeChunks).
  uint64_t last_end = 0;
  for (const ValueRange& r : ranges) {
    if (r.begin < r.end) last_end = r.end;
  }
  const uint64_t keep = !indices.empty() && last_end < std::min(n, (indices.back() + 1) * chunk)
                            ? indices.back()
                            : UINT64_MAX;
  uint64_t taken_to = 0;  // every value of the ranges before it was taken
  std::size_t range = 0;
  for (std::size_t i0 = 0; i0 < indices.size(); i0 += batches.batch()) {
    const std::size_t in_batch = std::min(batches.batch(), indices.size() - i0);
    if (!batches.decode(indices.data() + i0, in_batch, nullptr, true, keep)) break;
    for (std::size_t s = 0; s < in_batch; ++s) {
      const uint64_t first = batches.first(s), last = std::min(n, first + chunk);
      for (; range < ranges.size() && ranges[range].begin < last; ++range) {
        const uint64_t from = std::max(ranges[range].begin, first);
        const uint64_t to = std::min(ranges[range].end, last);
        if (from < to) {
          take(from, batches.values(s) + (from - first), static_cast<std::size_t>(to - from));
          f.events_done += to - from;
        }
        if (ranges[range].end > last) break;  // goes on in the next chunk
      }
      taken_to = last;
    }
    if (f.progress) f.progress("read", f.events_done, f.events_total);
  }
  H5Eclear2(H5E_DEFAULT);
  return taken_to;
}

}  // namespace h5

uint64_t edge_chunks_reused() { return h5::edge_chunks().found(); }
void forget_edge_chunks() { h5::edge_chunks().forget(); }

}  // namespace scope_speedscope
