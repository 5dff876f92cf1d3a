// read: our HDF5 file driver (see h5_driver.hpp). Read-only; HDF5 calls it
// through the C function pointers of one registered class.
#include "read/h5_driver.hpp"

#include <H5FDdevelop.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <new>
#include <vector>

namespace scope_speedscope::h5 {
namespace {

// A lazy source is read in blocks of this size, and the last few are kept:
// HDF5 makes many small reads of metadata (object headers, heaps, B-tree
// nodes) close to each other, and each read of a Blob or of a file in Node
// is a call out of WebAssembly.
constexpr std::size_t kBlockBytes = std::size_t{1} << 20;
constexpr std::size_t kBlocksKept = 8;
constexpr std::size_t kPieceBytes = std::size_t{16} << 20;  // a lazy source's longest read

struct Info {  // what the file-access property list carries (copied by HDF5)
  SourceState* state;
};

struct Block {
  uint64_t index = UINT64_MAX;
  uint64_t last_use = 0;
  std::vector<unsigned char> bytes;
};

struct DriverFile {
  H5FD_t pub;  // HDF5's part; must come first
  SourceState* state = nullptr;
  uint64_t eof = 0;
  haddr_t eoa = 0;
  unsigned long serial = 0;
  std::vector<Block> blocks;
  uint64_t clock = 0;
};

DriverFile* ours(H5FD_t* file) { return reinterpret_cast<DriverFile*>(file); }
const DriverFile* ours(const H5FD_t* file) { return reinterpret_cast<const DriverFile*>(file); }

void push_error(hid_t minor, const char* function, const std::string& text) {
  H5Epush2(H5E_DEFAULT, __FILE__, function, __LINE__, H5E_ERR_CLS, H5E_VFL, minor, "%s",
           text.c_str());
}

// `n` bytes at `offset` from the source, all below eof; false after
// recording why not.
bool read_direct(DriverFile& f, uint64_t offset, unsigned char* out, std::size_t n) {
  ++f.state->reads;
  std::string failure;
  try {
    failure = f.state->source->read(offset, out, n);
  } catch (const std::bad_alloc&) {
    failure = "out of memory";
  } catch (const std::exception& e) {
    failure = e.what();
  }
  if (failure.empty()) return true;
  if (f.state->failure.empty()) {
    f.state->failure = failure;
    f.state->failed_at = offset;
  }
  push_error(H5E_READERROR, "scope_speedscope_read", "cannot read the file: " + failure);
  return false;
}

// The same through the block cache.
bool read_cached(DriverFile& f, uint64_t offset, unsigned char* out, std::size_t n) {
  while (n > 0) {
    const uint64_t index = offset / kBlockBytes;
    Block* block = nullptr;
    for (Block& b : f.blocks) {
      if (b.index == index) block = &b;
    }
    if (block == nullptr) {
      if (f.blocks.size() < kBlocksKept) {
        block = &f.blocks.emplace_back();
      } else {
        block = &*std::min_element(
            f.blocks.begin(), f.blocks.end(),
            [](const Block& a, const Block& b) { return a.last_use < b.last_use; });
      }
      const uint64_t start = index * kBlockBytes;
      const auto length = static_cast<std::size_t>(std::min<uint64_t>(kBlockBytes, f.eof - start));
      block->index = UINT64_MAX;
      block->bytes.resize(length);
      if (!read_direct(f, start, block->bytes.data(), length)) return false;
      block->index = index;
    }
    block->last_use = ++f.clock;
    const auto within = static_cast<std::size_t>(offset - index * kBlockBytes);
    const std::size_t take = std::min(n, block->bytes.size() - within);
    std::memcpy(out, block->bytes.data() + within, take);
    out += take;
    offset += take;
    n -= take;
  }
  return true;
}

H5FD_t* driver_open(const char*, unsigned flags, hid_t fapl, haddr_t maxaddr) {
  if ((flags & (H5F_ACC_RDWR | H5F_ACC_TRUNC | H5F_ACC_CREAT | H5F_ACC_EXCL)) != 0) {
    push_error(H5E_CANTOPENFILE, "scope_speedscope_open", "files are only read");
    return nullptr;
  }
  if (maxaddr == 0 || maxaddr == HADDR_UNDEF || maxaddr > kMaxFileAddress) {
    push_error(H5E_CANTOPENFILE, "scope_speedscope_open", "bad largest address");
    return nullptr;
  }
  const auto* info = static_cast<const Info*>(H5Pget_driver_info(fapl));
  if (info == nullptr || info->state == nullptr || info->state->source == nullptr) {
    push_error(H5E_CANTOPENFILE, "scope_speedscope_open", "no source to read");
    return nullptr;
  }
  static unsigned long serial = 0;
  auto* f = new (std::nothrow) DriverFile();
  if (f == nullptr) {
    push_error(H5E_CANTOPENFILE, "scope_speedscope_open", "out of memory");
    return nullptr;
  }
  f->state = info->state;
  f->eof = info->state->source->size();
  f->serial = ++serial;
  return &f->pub;
}

herr_t driver_close(H5FD_t* file) {
  delete ours(file);
  return 0;
}

int driver_cmp(const H5FD_t* a, const H5FD_t* b) {
  const unsigned long x = ours(a)->serial, y = ours(b)->serial;
  return x < y ? -1 : x > y ? 1 : 0;
}

herr_t driver_query(const H5FD_t*, unsigned long* flags) {
  if (flags != nullptr) {
    *flags = H5FD_FEAT_AGGREGATE_METADATA | H5FD_FEAT_ACCUMULATE_METADATA | H5FD_FEAT_DATA_SIEVE |
             H5FD_FEAT_AGGREGATE_SMALLDATA;
  }
  return 0;
}

haddr_t driver_get_eoa(const H5FD_t* file, H5FD_mem_t) { return ours(file)->eoa; }

herr_t driver_set_eoa(H5FD_t* file, H5FD_mem_t, haddr_t addr) {
  if (addr == HADDR_UNDEF || addr > kMaxFileAddress) {
    push_error(H5E_OVERFLOW, "scope_speedscope_set_eoa", "the file's end lies beyond 2^63 bytes");
    return -1;
  }
  ours(file)->eoa = addr;
  return 0;
}

haddr_t driver_get_eof(const H5FD_t* file, H5FD_mem_t) { return ours(file)->eof; }

herr_t driver_read(H5FD_t* file, H5FD_mem_t, hid_t, haddr_t addr, size_t size, void* buffer) {
  DriverFile& f = *ours(file);
  if (addr == HADDR_UNDEF || addr > kMaxFileAddress || size > kMaxFileAddress - addr) {
    push_error(H5E_OVERFLOW, "scope_speedscope_read", "a read beyond 2^63 bytes");
    return -1;
  }
  auto* out = static_cast<unsigned char*>(buffer);
  // What lies beyond the end of the file reads as zeros, as with HDF5's own
  // drivers (HDF5 has checked the read against the file's allocated end).
  const uint64_t end = addr + size;
  const uint64_t stored = addr < f.eof ? std::min<uint64_t>(end, f.eof) - addr : 0;
  if (stored > 0) {
    const auto n = static_cast<std::size_t>(stored);
    bool ok = true;
    if (!f.state->source->lazy()) {
      ok = read_direct(f, addr, out, n);
    } else if (n < kBlockBytes) {
      ok = read_cached(f, addr, out, n);
    } else {
      // A lazy source (a File read in the page's worker) in pieces: each
      // read of it allocates a buffer as long outside the module, so a
      // column of 768 MB read at once took as much again until collected.
      for (std::size_t done = 0; ok && done < n; done += kPieceBytes) {
        ok = read_direct(f, addr + done, out + done, std::min(kPieceBytes, n - done));
      }
    }
    if (!ok) return -1;
  }
  std::memset(out + stored, 0, size - static_cast<std::size_t>(stored));
  return 0;
}

herr_t driver_write(H5FD_t*, H5FD_mem_t, hid_t, haddr_t, size_t, const void*) {
  push_error(H5E_WRITEERROR, "scope_speedscope_write", "files are only read");
  return -1;
}

H5FD_class_t make_class() {
  H5FD_class_t c;
  std::memset(&c, 0, sizeof c);
  c.version = H5FD_CLASS_VERSION;
  c.value = 600;  // above H5_VFD_RESERVED: not one of HDF5's
  c.name = "scope-speedscope";
  c.maxaddr = kMaxFileAddress;
  // Closing the file closes whatever is still open in it: nothing can reach
  // a source after its reader returned.
  c.fc_degree = H5F_CLOSE_STRONG;
  c.fapl_size = sizeof(Info);
  c.open = driver_open;
  c.close = driver_close;
  c.cmp = driver_cmp;
  c.query = driver_query;
  c.get_eoa = driver_get_eoa;
  c.set_eoa = driver_set_eoa;
  c.get_eof = driver_get_eof;
  c.read = driver_read;
  c.write = driver_write;
  const H5FD_mem_t map[H5FD_MEM_NTYPES] = H5FD_FLMAP_DICHOTOMY;
  std::copy(std::begin(map), std::end(map), std::begin(c.fl_map));
  return c;
}

hid_t driver_id() {
  static const H5FD_class_t klass = make_class();
  static hid_t id = -1;
  static std::once_flag once;
  std::call_once(once, [] { id = H5FDregister(&klass); });
  return id;
}

}  // namespace

Handle driver_fapl(SourceState& state) {
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  const Info info{&state};
  const hid_t id = driver_id();
  if (!fapl.valid() || id < 0 || H5Pset_driver(fapl.get(), id, &info) < 0) return Handle();
  return fapl;
}

}  // namespace scope_speedscope::h5
