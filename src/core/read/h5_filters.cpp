// read: the decoders of HDF5 filters 1 (deflate), 32000 (LZF) and 32015
// (Zstandard) (see h5_filters.hpp).
//
// The stored chunk formats, as scope-profiler's writers store them:
//   deflate  a zlib stream (HDF5's own filter; cd_values[0] = level);
//   LZF      h5py's filter: the bare output of liblzf's lzf_compress, no
//            header (cd_values = filter version, LZF version, chunk bytes);
//            a chunk that did not get smaller is stored as it is and marked
//            in the chunk's filter mask, so HDF5 never hands it to us;
//   zstd     the HDF5 Zstandard plugin (hdf5plugin.Zstd): one Zstandard
//            frame per chunk, as ZSTD_compress writes it (cd_values[0] =
//            level).
// Decoding never needs the cd_values: the output is one chunk of the dataset
// being read, whose size the reader states (ChunkSize).
#include "read/h5_filters.hpp"

extern "C" {
#include <lzf.h>  // a C header without extern "C"
}
#include <zlib.h>
#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_getFrameHeader
#include <zstd.h>
#include <zstd_errors.h>

#include <cerrno>
#include <climits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

namespace scope_speedscope::h5 {

namespace {

constexpr H5Z_filter_t kLzf = 32000;
constexpr H5Z_filter_t kZstd = 32015;

// The chunk size of the dataset being read (0: none stated).
thread_local uint64_t chunk_bytes = 0;
// Why the last chunk could not be decoded. HDF5 discards what a filter puts
// on its error stack (H5E_PAUSE_ERRORS around the call) and says only
// "filter returned failure during read"; the reader asks here instead.
thread_local std::string last_failure;

// Keeps `what` for the reader's message and tells HDF5 the chunk could not
// be decoded.
size_t refuse(const std::string& what) {
  last_failure = what;
  return 0;
}

std::string bytes(uint64_t n) { return std::to_string(n) + (n == 1 ? " byte" : " bytes"); }

std::string chunk_of(uint64_t expected) { return "the dataset's chunk of " + bytes(expected); }

// The output buffer of one chunk, handed to HDF5 (which frees it) on success.
struct Output {
  void* data = nullptr;
  explicit Output(uint64_t size) : data(H5allocate_memory(size, false)) {}
  ~Output() {
    if (data != nullptr) H5free_memory(data);
  }
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;
  // Replaces HDF5's buffer by this one.
  size_t hand_over(size_t size, size_t* buf_size, void** buf) {
    H5free_memory(*buf);
    *buf = data;
    *buf_size = size;
    data = nullptr;
    return size;
  }
};

// The common part of every decoder: only reading is ours to do, and only
// with a chunk size stated.
bool check_call(const char* name, unsigned flags, uint64_t* expected, size_t* result) {
  *result = 0;
  if ((flags & H5Z_FLAG_REVERSE) == 0) {
    *result = refuse(std::string("scope-speedscope does not write ") + name + " chunks");
    return false;
  }
  if (chunk_bytes == 0) {
    *result = refuse(std::string("a ") + name + " chunk was read outside a dataset read");
    return false;
  }
  *expected = chunk_bytes;
  return true;
}

// The decoders proper: `nbytes` stored bytes into exactly `expected` bytes
// at `out`; "" or why not. No HDF5 call: any thread may run them.
std::string inflate_into(const void* in, size_t nbytes, void* out, uint64_t expected) {
  if (nbytes > UINT_MAX) return "a gzip chunk of " + bytes(nbytes) + " is too large";
  if (expected > UINT_MAX) return "a gzip chunk of " + bytes(expected) + " is too large";
  z_stream z{};
  if (inflateInit(&z) != Z_OK) return "zlib could not start";
  z.next_in = static_cast<Bytef*>(const_cast<void*>(in));
  z.avail_in = static_cast<uInt>(nbytes);
  z.next_out = static_cast<Bytef*>(out);
  z.avail_out = static_cast<uInt>(expected);
  const int status = inflate(&z, Z_FINISH);
  const uint64_t got = z.total_out;
  const std::string message = z.msg != nullptr ? z.msg : "";
  const uInt input_left = z.avail_in;
  inflateEnd(&z);
  if (status == Z_STREAM_END) {
    if (got != expected) {
      return "a gzip chunk decodes to " + bytes(got) + ", not " + chunk_of(expected);
    }
    return "";
  }
  if (status == Z_DATA_ERROR) return "a gzip chunk is damaged (" + message + ")";
  if (status == Z_MEM_ERROR) return "out of memory decoding a gzip chunk";
  // Z_BUF_ERROR or Z_OK: the stream wants more input, or more room.
  if (input_left == 0) return "a gzip chunk of " + bytes(nbytes) + " ends before its stream does";
  return "a gzip chunk decodes to more than " + chunk_of(expected);
}

std::string unlzf_into(const void* in, size_t nbytes, void* out, uint64_t expected) {
  if (nbytes == 0) return "an LZF chunk is empty";
  if (nbytes > UINT_MAX) return "an LZF chunk of " + bytes(nbytes) + " is too large";
  if (expected > UINT_MAX) return "an LZF chunk of " + bytes(expected) + " is too large";
  errno = 0;
  const unsigned got =
      lzf_decompress(in, static_cast<unsigned>(nbytes), out, static_cast<unsigned>(expected));
  if (got == 0) {
    if (errno == E2BIG) return "an LZF chunk decodes to more than " + chunk_of(expected);
    return "an LZF chunk of " + bytes(nbytes) +
           " is damaged (it refers to data before its start or runs past its end)";
  }
  if (got != expected)
    return "an LZF chunk decodes to " + bytes(got) + ", not " + chunk_of(expected);
  return "";
}

// A decoder run by HDF5: the stored chunk in `*buf` replaced by its bytes.
size_t run_decoder(const char* name, unsigned flags, size_t nbytes, size_t* buf_size, void** buf,
                   std::string (*into)(const void*, size_t, void*, uint64_t)) {
  uint64_t expected = 0;
  size_t result = 0;
  if (!check_call(name, flags, &expected, &result)) return result;
  Output out(expected);
  if (out.data == nullptr) return refuse("out of memory for a chunk of " + bytes(expected));
  const std::string why = into(*buf, nbytes, out.data, expected);
  if (!why.empty()) return refuse(why);
  return out.hand_over(expected, buf_size, buf);
}

size_t decode_deflate(unsigned flags, size_t, const unsigned[], size_t nbytes, size_t* buf_size,
                      void** buf) {
  return run_decoder("gzip", flags, nbytes, buf_size, buf, inflate_into);
}

size_t decode_lzf(unsigned flags, size_t, const unsigned[], size_t nbytes, size_t* buf_size,
                  void** buf) {
  return run_decoder("LZF", flags, nbytes, buf_size, buf, unlzf_into);
}

// The largest window a frame of one chunk may ask for: the chunk's size
// rounded up to a power of two (what a compressor that knew the chunk's
// size chose), at least zstd's smallest window (1 KiB).
uint64_t window_bound(uint64_t expected) {
  uint64_t bound = uint64_t{1} << 10;
  while (bound < expected) bound <<= 1;
  return bound;
}
// The largest window a 32-bit zstd reads a frame header with at all (its
// ZSTD_WINDOWLOG_MAX_32): beyond it the wasm build cannot even parse the
// header where the native one can, so both name this limit instead.
constexpr uint64_t kLargestWindow = uint64_t{1} << 30;

struct DctxFree {
  void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
};

// Why a frame's header or extent cannot be read (these parts of zstd read
// bytes, not bits: the same answer in every build).
std::string header_reason(size_t code) {
  const ZSTD_ErrorCode e = ZSTD_getErrorCode(code);
  if (e == ZSTD_error_prefix_unknown) return "is not a Zstandard frame";
  if (e == ZSTD_error_srcSize_wrong) return "ends before its frame does";
  return std::string("is damaged (") + ZSTD_getErrorName(code) + ")";
}

std::string unzstd_into(const void* in, size_t nbytes, void* out, uint64_t expected) {
  const std::string chunk = "a zstd chunk of " + bytes(nbytes);
  const std::string too_wide = "a zstd chunk asks for a window of more than " +
                               bytes(kLargestWindow) + ", more than " + chunk_of(expected) +
                               " needs";
  ZSTD_frameHeader header{};
  const size_t need = ZSTD_getFrameHeader(&header, in, nbytes);
  if (ZSTD_isError(need)) {
    if (ZSTD_getErrorCode(need) == ZSTD_error_frameParameter_windowTooLarge) return too_wide;
    return chunk + " " + header_reason(need);
  }
  if (need != 0) return chunk + " ends before its frame header does";
  if (header.frameType == ZSTD_frame) {
    if (header.frameContentSize != ZSTD_CONTENTSIZE_UNKNOWN && header.frameContentSize > expected) {
      return "a zstd chunk declares " + bytes(header.frameContentSize) + ", more than " +
             chunk_of(expected);
    }
    if (header.windowSize > kLargestWindow) return too_wide;
    if (header.windowSize > window_bound(expected)) {
      return "a zstd chunk asks for a window of " + bytes(header.windowSize) + ", more than " +
             chunk_of(expected) + " needs";
    }
  }
  const size_t frame = ZSTD_findFrameCompressedSize(in, nbytes);
  if (ZSTD_isError(frame)) return chunk + " " + header_reason(frame);
  if (frame != nbytes) return chunk + " holds " + bytes(nbytes - frame) + " after its frame";
  std::unique_ptr<ZSTD_DCtx, DctxFree> dctx(ZSTD_createDCtx());
  if (!dctx) return "out of memory for a chunk of " + bytes(expected);
  const size_t got = ZSTD_decompressDCtx(dctx.get(), out, expected, in, nbytes);
  // Which error a damaged frame gives ("Data corruption detected",
  // "Destination buffer is too small") depends on the width of zstd's bit
  // container, 32 bits in wasm and 64 natively: one sentence for all.
  if (ZSTD_isError(got) || got != expected) {
    return chunk + " is damaged: it does not decode to " + chunk_of(expected);
  }
  return "";
}

size_t decode_zstd(unsigned flags, size_t, const unsigned[], size_t nbytes, size_t* buf_size,
                   void** buf) {
  return run_decoder("zstd", flags, nbytes, buf_size, buf, unzstd_into);
}

void register_one(H5Z_filter_t id, const char* name, H5Z_func_t decode) {
  const H5Z_class2_t cls = {
      H5Z_CLASS_T_VERS, id, 0 /* no encoder */, 1 /* decoder */, name, nullptr, nullptr, decode};
  // Replacing deflate needs cmake/patches/hdf5-1.14.5-deflate-replaceable.patch.
  if (H5Zregister(&cls) < 0) throw std::logic_error(std::string("cannot register ") + name);
}

}  // namespace

void register_filters() {
  static std::once_flag once;
  std::call_once(once, [] {
    register_one(H5Z_FILTER_DEFLATE, "deflate (scope-speedscope, zlib)", decode_deflate);
    register_one(kLzf, "lzf (scope-speedscope, liblzf)", decode_lzf);
    register_one(kZstd, "zstd (scope-speedscope, libzstd)", decode_zstd);
    H5Eclear2(H5E_DEFAULT);
  });
}

const char* filter_name(H5Z_filter_t id) {
  switch (id) {
    case H5Z_FILTER_DEFLATE: return "gzip";
    case H5Z_FILTER_SHUFFLE: return "shuffle";
    case H5Z_FILTER_FLETCHER32: return "fletcher32";
    case H5Z_FILTER_SZIP: return "szip";
    case H5Z_FILTER_NBIT: return "nbit";
    case H5Z_FILTER_SCALEOFFSET: return "scaleoffset";
    case kLzf: return "lzf";
    case 32001: return "blosc";
    case 32004: return "lz4";
    case 32008: return "bitshuffle";
    case kZstd: return "zstd";
    default: return "unknown";
  }
}

bool filter_supported(H5Z_filter_t id) {
  return id == H5Z_FILTER_DEFLATE || id == H5Z_FILTER_SHUFFLE || id == kLzf || id == kZstd;
}

uint64_t filter_expansion(H5Z_filter_t id) {
  switch (id) {
    case H5Z_FILTER_DEFLATE: return 1100;  // deflate: at most about 1032 to 1
    case kLzf: return 100;                 // a 3-byte reference copies at most 264 bytes
    case kZstd: return 32768;              // a 4-byte RLE block makes at most 128 KiB
    default: return 1;
  }
}

std::string decode_into(H5Z_filter_t id, const void* in, size_t nbytes, void* out,
                        uint64_t expected) {
  switch (id) {
    case H5Z_FILTER_DEFLATE: return inflate_into(in, nbytes, out, expected);
    case kLzf: return unlzf_into(in, nbytes, out, expected);
    case kZstd: return unzstd_into(in, nbytes, out, expected);
    default: return std::string("filter ") + filter_name(id) + " is not a decoder of ours";
  }
}

std::string take_decode_failure() {
  std::string why = std::move(last_failure);
  last_failure.clear();
  return why;
}

ChunkSize::ChunkSize(uint64_t bytes) : previous_(chunk_bytes) {
  chunk_bytes = bytes;
  last_failure.clear();
}
ChunkSize::~ChunkSize() { chunk_bytes = previous_; }

}  // namespace scope_speedscope::h5
