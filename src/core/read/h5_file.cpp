// read: the HDF5 file as the reader units see it: HDF5 set up once (its
// printing off, our conversions, filters and link rules), its error stack in
// our words, the file's size and memory account, links, groups and datasets.
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cstring>
#include <mutex>

#include "read/h5_detail.hpp"
#include "read/h5_driver.hpp"
#include "read/h5_filters.hpp"

namespace scope_speedscope {
namespace h5 {

namespace {

struct StackWalk {
  std::string first;
  std::string last;
  int count = 0;
};

herr_t walk_entry(unsigned n, const H5E_error2_t* err, void* data) {
  auto* walk = static_cast<StackWalk*>(data);
  const std::string desc = err->desc != nullptr ? err->desc : "";
  if (n == 0) walk->first = desc;
  walk->last = desc;
  ++walk->count;
  return 0;
}

std::string capitalize(std::string text) {  // Python's str.capitalize for ASCII
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    text[i] = static_cast<char>(i == 0 ? std::toupper(c) : std::tolower(c));
  }
  return text;
}

// HDF5's innermost words without its internal numbers: "addr overflow,
// addr = 4294967432, size = 544, eoa = 15176" means that the file points
// past the end of its own data, "addr undefined, addr = 1844...615" that
// a piece of it has no address at all.
std::string plain_reason(const std::string& desc) {
  if (desc.rfind("addr overflow", 0) == 0 || desc == "attempting I/O in temporary file space") {
    return "it points past the end of the file's data";
  }
  if (desc.rfind("addr undefined", 0) == 0) return "a piece of it has no address in the file";
  return desc;
}

}  // namespace

std::string error_stack_message() {
  StackWalk walk;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, walk_entry, &walk);
  H5Eclear2(H5E_DEFAULT);
  if (walk.count == 0) return "unknown HDF5 error";
  std::string reason = plain_reason(walk.last);
  if (walk.last == "filter returned failure during read") {
    // One of our decoders said why (h5_filters.hpp).
    std::string why = take_decode_failure();
    if (!why.empty()) reason = std::move(why);
  }
  return capitalize(walk.first) + " (" + reason + ")";
}

void silence_hdf5_errors() {
  static std::once_flag once;
  std::call_once(once, [] {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    register_stored_string_conversion();
    // External links point into other files (any path on this machine): a
    // profile never holds one, and following one from a stranger's file
    // would read what it names. Without the class HDF5 cannot traverse them.
    H5Lunregister(H5L_TYPE_EXTERNAL);
    register_filters();
    H5Eclear2(H5E_DEFAULT);
  });
}

void File::fail(const std::string& what) const {
  throw Error(Msg::corrupt_file, {{"path", path}, {"detail", what}});
}

void File::fail(Msg id, MessageArgs args) const {
  args.insert(args.begin(), {"path", path});
  throw Error(id, args);
}

uint64_t File::size() const {
  return source != nullptr && source->source != nullptr ? source->source->size() : 0;
}

std::string gibibytes(uint64_t bytes) {
  if (bytes < (uint64_t{1} << 30)) return mebibytes(bytes);
  const auto tenths =  // rounded
      static_cast<uint64_t>((static_cast<unsigned __int128>(bytes) * 10 + (uint64_t{1} << 29)) >>
                            30);
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " GiB";
}

std::string mebibytes(uint64_t bytes) {
  return bytes % (uint64_t{1} << 30) == 0 ? std::to_string(bytes >> 30) + " GiB"
                                          : std::to_string(bytes >> 20) + " MiB";
}

void File::claim_memory(uint64_t bytes, const std::string& what) {
  const MemoryLimit limit = scope_speedscope::memory_per_file();
  if (bytes > limit.bytes || memory + bytes > limit.bytes) {
    if (limit.machine) {
      fail(Msg::too_large_for_machine, {{"what", what}, {"limit", gibibytes(limit.bytes)}});
    }
    fail(Msg::too_large, {{"what", what}, {"limit", mebibytes(limit.bytes)}});
  }
  memory += bytes;
}

bool link_exists(hid_t loc, const std::string& path) {
  // Checks each component, as H5Lexists wants.
  std::size_t pos = 0;
  while (true) {
    const auto slash = path.find('/', pos);
    const std::string prefix = path.substr(0, slash);
    const htri_t exists = H5Lexists(loc, prefix.c_str(), H5P_DEFAULT);
    if (exists <= 0) {
      H5Eclear2(H5E_DEFAULT);
      return false;
    }
    if (slash == std::string::npos) return true;
    pos = slash + 1;
  }
}

namespace {
H5O_type_t object_type(hid_t loc, const std::string& path) {
  if (!link_exists(loc, path)) return H5O_TYPE_UNKNOWN;
  H5O_info2_t info;
  if (H5Oget_info_by_name3(loc, path.c_str(), &info, H5O_INFO_BASIC, H5P_DEFAULT) < 0) {
    H5Eclear2(H5E_DEFAULT);
    return H5O_TYPE_UNKNOWN;
  }
  return info.type;
}
}  // namespace

bool is_group(hid_t loc, const std::string& path) {
  return object_type(loc, path) == H5O_TYPE_GROUP;
}
bool is_dataset(hid_t loc, const std::string& path) {
  return object_type(loc, path) == H5O_TYPE_DATASET;
}

Handle open_group(const File& f, hid_t loc, const std::string& path) {
  Handle g(H5Gopen2(loc, path.c_str(), H5P_DEFAULT), H5Gclose);
  if (!g.valid()) f.fail("cannot open group '" + path + "': " + error_stack_message());
  return g;
}

Handle open_dataset(const File& f, hid_t loc, const std::string& path) {
  Handle d(H5Dopen2(loc, path.c_str(), H5P_DEFAULT), H5Dclose);
  if (!d.valid()) f.fail("cannot open dataset '" + path + "': " + error_stack_message());
  return d;
}

namespace {
struct Collected {
  std::vector<std::string> names;
  bool followed_only;
};

herr_t collect_name(hid_t, const char* name, const H5L_info2_t* info, void* data) {
  auto* out = static_cast<Collected*>(data);
  if (!out->followed_only || info->type == H5L_TYPE_HARD || info->type == H5L_TYPE_SOFT) {
    out->names.emplace_back(name);
  }
  return 0;
}
}  // namespace

std::vector<std::string> child_names(const File& f, hid_t group, bool followed_only) {
  Collected collected{{}, followed_only};
  hsize_t idx = 0;
  if (H5Literate2(group, H5_INDEX_NAME, H5_ITER_INC, &idx, collect_name, &collected) < 0) {
    f.fail("cannot list a group: " + error_stack_message());
  }
  std::vector<std::string> names = std::move(collected.names);
  // Byte-wise ascending, whatever order the index gave.
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace h5

namespace {
std::atomic<uint64_t> memory_limit_bytes{h5::kMemoryPerFileBytes};
std::atomic<bool> memory_limit_machine{false};
}  // namespace

MemoryLimit memory_per_file() { return MemoryLimit{memory_limit_bytes, memory_limit_machine}; }

void set_memory_per_file(MemoryLimit limit) {
  memory_limit_bytes = limit.bytes;
  memory_limit_machine = limit.machine;
}

MemoryLimit machine_memory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  const uint64_t bytes =
      pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : 0;
  if (bytes <= h5::kMemoryPerFileBytes) return MemoryLimit{h5::kMemoryPerFileBytes, false};
  return MemoryLimit{bytes, true};
}

}  // namespace scope_speedscope
