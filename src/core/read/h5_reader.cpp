// read: the dispatcher (open, schema attribute, metadata, layout) and the
// helpers every layout reader uses.
#include "read/h5_reader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <mutex>

#include "read/h5_detail.hpp"
#include "read/h5_driver.hpp"
#include "read/h5_filters.hpp"
#include "write/speedscope_writer.hpp"
#include "text/unicode.hpp"

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

namespace {

// Reading a variable-length string, HDF5 allocates and clears a buffer of
// the length the file declares before it checks that length against the
// heap object holding the string: a 15 KB file declaring 2^31 - 1 bytes
// costs 2 GB. This conversion reads what each element stores instead: HDF5
// hands it the elements in their on-disk form (a little-endian 32-bit
// length, the global heap address, an index), and it keeps the length.
// Registered once; chosen only for our tagged opaque type.
constexpr const char* kStoredTag = "scope-speedscope stored string";

hid_t stored_string_type() {
  static const hid_t type = [] {
    const hid_t t = H5Tcreate(H5T_OPAQUE, sizeof(StoredString));
    H5Tset_tag(t, kStoredTag);
    return t;
  }();
  return type;
}

bool is_stored_string_type(hid_t type) {
  if (H5Tget_class(type) != H5T_OPAQUE || H5Tget_size(type) != sizeof(StoredString)) return false;
  char* tag = H5Tget_tag(type);
  const bool ours = tag != nullptr && std::strcmp(tag, kStoredTag) == 0;
  H5free_memory(tag);
  return ours;
}

herr_t convert_to_stored_string(hid_t src, hid_t dst, H5T_cdata_t* cdata, size_t n,
                                size_t buf_stride, size_t, void* buf, void*, hid_t) {
  switch (cdata->command) {
    case H5T_CONV_INIT:
      return H5Tis_variable_str(src) > 0 && is_stored_string_type(dst) ? 0 : -1;
    case H5T_CONV_FREE:
      return 0;
    case H5T_CONV_CONV: {
      const size_t src_size = H5Tget_size(src);
      if (src_size < 12) return -1;  // length, address (at least 4 bytes), index
      auto* bytes = static_cast<unsigned char*>(buf);
      // In place, front to back: each result is no larger than its source
      // element, so it lands at or before it.
      for (size_t i = 0; i < n; ++i) {
        const unsigned char* from = bytes + i * (buf_stride != 0 ? buf_stride : src_size);
        StoredString out;
        out.length = uint32_t{from[0]} | uint32_t{from[1]} << 8 | uint32_t{from[2]} << 16 |
                     uint32_t{from[3]} << 24;
        std::memcpy(bytes + i * (buf_stride != 0 ? buf_stride : sizeof out), &out, sizeof out);
      }
      return 0;
    }
  }
  return -1;
}

}  // namespace

void silence_hdf5_errors() {
  static std::once_flag once;
  std::call_once(once, [] {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    Handle vlen_string(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(vlen_string.get(), H5T_VARIABLE);
    H5Tregister(H5T_PERS_SOFT, "scope-speedscope stored string", vlen_string.get(),
                stored_string_type(), convert_to_stored_string);
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

namespace {
std::string mebibytes(uint64_t bytes) {
  return bytes % (uint64_t{1} << 30) == 0 ? std::to_string(bytes >> 30) + " GiB"
                                           : std::to_string(bytes >> 20) + " MiB";
}
}  // namespace

void File::claim_memory(uint64_t bytes, const std::string& what) {
  if (bytes > kMemoryPerFileBytes || memory + bytes > kMemoryPerFileBytes) {
    fail(Msg::too_large, {{"what", what}, {"limit", mebibytes(kMemoryPerFileBytes)}});
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

bool is_group(hid_t loc, const std::string& path) { return object_type(loc, path) == H5O_TYPE_GROUP; }
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

uint64_t dataset_length(const File& f, hid_t dset, const std::string& what) {
  Handle space(H5Dget_space(dset), H5Sclose);
  if (!space.valid()) f.fail("cannot read the shape of '" + what + "': " + error_stack_message());
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank == 0) return 1;  // scalar
  if (rank != 1) f.fail("dataset '" + what + "' is not one-dimensional");
  hsize_t dim = 0;
  H5Sget_simple_extent_dims(space.get(), &dim, nullptr);
  return dim;
}

namespace {

// Names a filter the reader does not decode, before HDF5 fails with a
// vaguer message. Returns how many times its stored size the dataset's data
// can grow through its filters (1 without any).
uint64_t check_filters(const File& f, hid_t dset, const std::string& what) {
  Handle dcpl(H5Dget_create_plist(dset), H5Pclose);
  if (!dcpl.valid()) return 1;
  const int n = H5Pget_nfilters(dcpl.get());
  uint64_t expansion = 1;
  for (int i = 0; i < n; ++i) {
    unsigned flags = 0;
    size_t nelmts = 0;
    unsigned cd_values[8];
    char name[64] = {0};
    unsigned config = 0;
    nelmts = 8;
    const H5Z_filter_t id =
        H5Pget_filter2(dcpl.get(), static_cast<unsigned>(i), &flags, &nelmts, cd_values,
                       sizeof name, name, &config);
    if (id < 0) {
      H5Eclear2(H5E_DEFAULT);
      f.fail("cannot read the filters of dataset '" + what + "'");
    }
    if (!filter_supported(id) || H5Zfilter_avail(id) <= 0) {
      H5Eclear2(H5E_DEFAULT);
      f.fail(Msg::unsupported_filter, {{"dataset", what},
                                       {"filter", std::to_string(id)},
                                       {"name", filter_name(id)}});
    }
    expansion = std::min<uint64_t>(expansion * filter_expansion(id), uint64_t{1} << 40);
  }
  return expansion;
}

// The bytes one value of the dataset takes in a chunk as HDF5 stores it
// before filters: a variable-length string is its length, a global heap
// address and an index.
uint64_t stored_value_bytes(const File& f, hid_t dset) {
  Handle type(H5Dget_type(dset), H5Tclose);
  if (!type.valid()) f.fail("cannot read the type of a dataset: " + error_stack_message());
  if (H5Tis_variable_str(type.get()) > 0 || H5Tget_class(type.get()) == H5T_VLEN) {
    Handle fcpl(H5Fget_create_plist(f.file.get()), H5Pclose);
    size_t address = 8;
    size_t length = 8;
    if (!fcpl.valid() || H5Pget_sizes(fcpl.get(), &address, &length) < 0) {
      f.fail("cannot read the file's address size: " + error_stack_message());
    }
    return 4 + uint64_t{address} + 4;
  }
  return H5Tget_size(type.get());
}

// Checks a dataset before any buffer is sized from it, and returns the bytes
// of one of its chunks as stored before filters (0 when it is not chunked),
// for the decoders (ChunkSize). Refuses
//  - a filter the reader does not decode (check_filters);
//  - data kept outside the file (external raw data files, virtual
//    datasets), which a profile never uses and which would make the reader
//    open files the file names;
//  - a chunk larger than kChunkBytesLimit: HDF5 holds a whole chunk in
//    memory to read from it;
//  - a declared length that needs more data than the file stores for the
//    dataset: `values` elements of `element_bytes` each on disk must fit in
//    the dataset's storage (at most the whole file), times what its filters
//    can expand it by (filter_expansion).
uint64_t check_dataset(const File& f, hid_t dset, const std::string& what, uint64_t values,
                       uint64_t element_bytes) {
  const uint64_t expansion = check_filters(f, dset, what);
  Handle dcpl(H5Dget_create_plist(dset), H5Pclose);
  if (!dcpl.valid()) f.fail("cannot read the layout of '" + what + "': " + error_stack_message());
  const H5D_layout_t layout = H5Pget_layout(dcpl.get());
  const int external = H5Pget_external_count(dcpl.get());
  if (layout == H5D_VIRTUAL || external != 0) {
    H5Eclear2(H5E_DEFAULT);
    f.fail("dataset '" + what + "' keeps its data outside the file, which scope-speedscope does not read");
  }
  if (values == 0) return 0;
  uint64_t chunk_bytes = 0;
  if (layout == H5D_CHUNKED) {
    hsize_t chunk = 0;
    if (H5Pget_chunk(dcpl.get(), 1, &chunk) == 1 &&
        static_cast<unsigned __int128>(chunk) * element_bytes > kChunkBytesLimit) {
      f.fail(Msg::too_large,
             {{"what", "a chunk of dataset '" + what + "' (" + std::to_string(chunk) + " values)"},
              {"limit", mebibytes(kChunkBytesLimit)}});
    }
    H5Eclear2(H5E_DEFAULT);
    chunk_bytes = chunk * stored_value_bytes(f, dset);
  }
  uint64_t stored = H5Dget_storage_size(dset);  // 0 on error, or when nothing was written
  H5Eclear2(H5E_DEFAULT);
  stored = std::min<uint64_t>(stored, f.size());
  const unsigned __int128 declared = static_cast<unsigned __int128>(values) * element_bytes;
  const unsigned __int128 limit = static_cast<unsigned __int128>(stored) * expansion;
  if (declared > limit) {
    const uint64_t shown = declared > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(declared);
    f.fail(Msg::declared_size_exceeds_storage,
           {{"dataset", what}, {"values", std::to_string(values)},
            {"declared", std::to_string(shown)}, {"stored", std::to_string(stored)}});
  }
  return chunk_bytes;
}

// Chunk length of a chunked 1-D dataset, 0 when contiguous.
hsize_t chunk_length(hid_t dset) {
  Handle dcpl(H5Dget_create_plist(dset), H5Pclose);
  if (!dcpl.valid() || H5Pget_layout(dcpl.get()) != H5D_CHUNKED) return 0;
  hsize_t dim = 0;
  if (H5Pget_chunk(dcpl.get(), 1, &dim) != 1) return 0;
  return dim;
}

}  // namespace

std::vector<int64_t> read_int64_column(File& f, hid_t loc, const std::string& path, bool events,
                                       const std::string& shown_name) {
  const std::string& shown = shown_name.empty() ? path : shown_name;
  Handle dset = open_dataset(f, loc, path);
  Handle type(H5Dget_type(dset.get()), H5Tclose);
  const H5T_class_t cls = type.valid() ? H5Tget_class(type.get()) : H5T_NO_CLASS;
  if (cls != H5T_INTEGER && cls != H5T_FLOAT) {
    f.fail("dataset '" + shown + "' does not hold numbers");
  }
  const uint64_t n = dataset_length(f, dset.get(), shown);
  const ChunkSize chunk_size(
      check_dataset(f, dset.get(), shown, n, std::max<std::size_t>(H5Tget_size(type.get()), 1)));
  f.claim_memory(n * 8, "dataset '" + shown + "' (" + std::to_string(n) + " values)");
  std::vector<int64_t> out(n);
  if (n == 0) return out;

  Handle file_space(H5Dget_space(dset.get()), H5Sclose);
  // Blocks of about a million values, whole chunks each, so progress moves
  // and no chunk is decompressed twice.
  const hsize_t chunk = chunk_length(dset.get());
  hsize_t block = hsize_t{1} << 20;
  if (chunk > 0) block = ((block + chunk - 1) / chunk) * chunk;
  for (hsize_t start = 0; start < n; start += block) {
    const hsize_t count = std::min<hsize_t>(block, n - start);
    if (H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, &start, nullptr, &count, nullptr) <
        0) {
      f.fail("cannot select in '" + shown + "': " + error_stack_message());
    }
    Handle mem_space(H5Screate_simple(1, &count, nullptr), H5Sclose);
    if (H5Dread(dset.get(), H5T_NATIVE_INT64, mem_space.get(), file_space.get(), H5P_DEFAULT,
                out.data() + start) < 0) {
      f.fail("cannot read dataset '" + shown + "': " + error_stack_message());
    }
    if (events) {
      f.events_done += count;
      if (f.progress) f.progress("read", f.events_done, f.events_total);
    }
  }
  return out;
}

namespace {

std::vector<StoredString> read_stored_strings(const File& f, hid_t dset, const std::string& path,
                                              uint64_t n) {
  std::vector<StoredString> stored(n);
  if (H5Dread(dset, stored_string_type(), H5S_ALL, H5S_ALL, H5P_DEFAULT, stored.data()) < 0) {
    f.fail("cannot read dataset '" + path + "': " + error_stack_message());
  }
  uint64_t total = 0;
  for (const StoredString& s : stored) total += s.length;
  if (total > f.size()) {
    f.fail(Msg::strings_exceed_file, {{"where", "dataset '" + path + "'"},
                                      {"declared", std::to_string(total)},
                                      {"size", std::to_string(f.size())}});
  }
  return stored;
}

// What HDF5 returned must be as long as the elements say: a C string read
// from no heap object (a zeroed address) or holding a NUL comes back
// shorter. A damaged descriptor otherwise reads as a different, plausible
// string ('' or a prefix) and would silently rename a region.
// `where`: a dataset path (elements are named path[i]) or "attribute 'x'".
void check_stored_strings(const File& f, const std::string& where,
                          const std::vector<StoredString>& stored,
                          const std::vector<char*>& strings, bool attribute = false) {
  for (std::size_t i = 0; i < stored.size(); ++i) {
    const std::size_t got = strings[i] != nullptr ? std::strlen(strings[i]) : 0;
    if (got != stored[i].length) {
      f.fail(Msg::damaged_string,
             {{"where", attribute ? where : where + "[" + std::to_string(i) + "]"}});
    }
  }
}

// Strings HDF5 allocated for a read, freed whatever happens next.
struct VlenStrings {
  VlenStrings(hid_t mem_type, hid_t space, std::size_t n) : type(mem_type), space(space), pointers(n, nullptr) {}
  ~VlenStrings() { H5Treclaim(type, space, H5P_DEFAULT, pointers.data()); }
  VlenStrings(const VlenStrings&) = delete;
  VlenStrings& operator=(const VlenStrings&) = delete;
  char** data() { return pointers.data(); }
  hid_t type;
  hid_t space;
  std::vector<char*> pointers;
};
}  // namespace

std::vector<std::string> read_string_column(File& f, hid_t loc, const std::string& path) {
  Handle dset = open_dataset(f, loc, path);
  Handle type(H5Dget_type(dset.get()), H5Tclose);
  if (!type.valid() || H5Tget_class(type.get()) != H5T_STRING) {
    f.fail("dataset '" + path + "' does not hold strings");
  }
  const uint64_t n = dataset_length(f, dset.get(), path);
  const htri_t variable = H5Tis_variable_str(type.get());
  // On disk a variable-length string is a length, a heap address and an
  // index: at least 12 bytes.
  const ChunkSize chunk_size(check_dataset(
      f, dset.get(), path, n, variable > 0 ? 12 : std::max<std::size_t>(H5Tget_size(type.get()), 1)));
  // A string takes its text and about 32 bytes more (the same count in
  // every build, whatever its std::string weighs there).
  const std::string what = "dataset '" + path + "' (" + std::to_string(n) + " strings)";
  f.claim_memory(n * 32, what);
  std::vector<std::string> out;
  out.reserve(n);
  if (n == 0) return out;
  Handle mem(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_cset(mem.get(), H5Tget_cset(type.get()));
  if (variable > 0) {
    // What each element stores first: the lengths together cannot exceed
    // the file.
    const std::vector<StoredString> stored = read_stored_strings(f, dset.get(), path, n);
    uint64_t text = 0;
    for (const StoredString& s : stored) text += s.length;
    f.claim_memory(text, what);
    H5Tset_size(mem.get(), H5T_VARIABLE);
    Handle space(H5Dget_space(dset.get()), H5Sclose);
    VlenStrings raw(mem.get(), space.get(), n);
    if (H5Dread(dset.get(), mem.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, raw.data()) < 0) {
      f.fail("cannot read dataset '" + path + "': " + error_stack_message());
    }
    check_stored_strings(f, path, stored, raw.pointers);
    for (const char* s : raw.pointers) out.push_back(utf8_decode_replace(s != nullptr ? s : ""));
  } else {
    const size_t width = H5Tget_size(type.get());
    f.claim_memory(n * uint64_t{width}, what);
    H5Tset_size(mem.get(), width);
    H5Tset_strpad(mem.get(), H5T_STR_NULLPAD);
    std::vector<char> raw(n * width);
    if (H5Dread(dset.get(), mem.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, raw.data()) < 0) {
      f.fail("cannot read dataset '" + path + "': " + error_stack_message());
    }
    for (uint64_t i = 0; i < n; ++i) {
      std::string_view value(raw.data() + i * width, width);
      while (!value.empty() && value.back() == '\0') value.remove_suffix(1);
      out.push_back(utf8_decode_replace(value));
    }
  }
  return out;
}

std::optional<AttributeValue> read_attribute(const File& f, hid_t loc, const std::string& name) {
  const htri_t exists = H5Aexists(loc, name.c_str());
  if (exists <= 0) {
    H5Eclear2(H5E_DEFAULT);
    return std::nullopt;
  }
  Handle attr(H5Aopen(loc, name.c_str(), H5P_DEFAULT), H5Aclose);
  if (!attr.valid()) f.fail("cannot open attribute '" + name + "': " + error_stack_message());
  Handle type(H5Aget_type(attr.get()), H5Tclose);
  Handle space(H5Aget_space(attr.get()), H5Sclose);
  const int ndims = H5Sget_simple_extent_ndims(space.get());
  const hssize_t npoints = H5Sget_simple_extent_npoints(space.get());
  AttributeValue value;
  const H5T_class_t cls = H5Tget_class(type.get());
  if (cls == H5T_INTEGER && npoints == 1) {
    int64_t v = 0;
    if (H5Aread(attr.get(), H5T_NATIVE_INT64, &v) < 0) {
      f.fail("cannot read attribute '" + name + "': " + error_stack_message());
    }
    value.integer = v;
    value.repr = ndims == 0 ? std::to_string(v) : "array([" + std::to_string(v) + "])";
    value.type = ndims == 0 ? AttributeValue::Type::integer : AttributeValue::Type::other;
  } else if (cls == H5T_FLOAT && npoints == 1) {
    double v = 0;
    if (H5Aread(attr.get(), H5T_NATIVE_DOUBLE, &v) < 0) {
      f.fail("cannot read attribute '" + name + "': " + error_stack_message());
    }
    value.floating = v;
    value.repr = ndims == 0 ? python_float_repr(v) : "array([" + python_float_repr(v) + "])";
    value.type = ndims == 0 ? AttributeValue::Type::floating : AttributeValue::Type::other;
  } else if (cls == H5T_STRING && ndims == 0) {
    Handle mem(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_cset(mem.get(), H5Tget_cset(type.get()));
    std::string text;
    if (H5Tis_variable_str(type.get()) > 0) {
      StoredString stored;  // checked before HDF5 allocates the length
      if (H5Aread(attr.get(), stored_string_type(), &stored) < 0) {
        f.fail("cannot read attribute '" + name + "': " + error_stack_message());
      }
      if (stored.length > f.size()) {
        f.fail(Msg::strings_exceed_file, {{"where", "attribute '" + name + "'"},
                                          {"declared", std::to_string(stored.length)},
                                          {"size", std::to_string(f.size())}});
      }
      H5Tset_size(mem.get(), H5T_VARIABLE);
      VlenStrings raw(mem.get(), space.get(), 1);
      if (H5Aread(attr.get(), mem.get(), raw.data()) < 0) {
        f.fail("cannot read attribute '" + name + "': " + error_stack_message());
      }
      check_stored_strings(f, "attribute '" + name + "'", {stored}, raw.pointers, true);
      text = raw.pointers[0] != nullptr ? raw.pointers[0] : "";
    } else {
      const size_t width = H5Tget_size(type.get());
      if (width > H5Aget_storage_size(attr.get())) {  // a width the file cannot hold
        H5Eclear2(H5E_DEFAULT);
        f.fail("attribute '" + name + "' declares a string of " + std::to_string(width) +
               " bytes but stores " + std::to_string(H5Aget_storage_size(attr.get())));
      }
      H5Tset_size(mem.get(), width);
      std::string raw(width, '\0');
      if (H5Aread(attr.get(), mem.get(), raw.data()) < 0) {
        f.fail("cannot read attribute '" + name + "': " + error_stack_message());
      }
      while (!raw.empty() && raw.back() == '\0') raw.pop_back();
      text = raw;
    }
    value.string = utf8_decode_replace(text);
    value.repr = python_str_repr(value.string);
    value.type = AttributeValue::Type::string;
  } else {
    value.repr = "<unsupported HDF5 attribute value>";
  }
  return value;
}

}  // namespace h5

namespace {

// int(metadata.get("mpi_size", 1)) as scope-profiler takes it: an integer,
// or a float truncated toward zero (saturated to 64 bits); NaN and infinity
// have no integer value (Python raises there too).
int64_t mpi_size_of(const h5::File& f, const std::optional<h5::AttributeValue>& attr) {
  using h5::AttributeValue;
  if (!attr) return 1;
  if (attr->type == AttributeValue::Type::integer) return attr->integer;
  if (attr->type != AttributeValue::Type::floating) return 1;
  const double v = attr->floating;
  if (std::isnan(v) || std::isinf(v)) f.fail(Msg::bad_mpi_size, {{"repr", attr->repr}});
  if (v >= 9223372036854775807.0) return INT64_MAX;
  if (v <= -9223372036854775808.0) return INT64_MIN;
  return static_cast<int64_t>(v);
}

Run read_open_file(h5::File& f) {
  using h5::AttributeValue;
  Run run;
  run.path = f.path;
  const hid_t root = f.file.get();

  // Schema version (spec 1.1).
  int64_t version = 1;
  if (auto attr = h5::read_attribute(f, root, "scope_profiler_schema")) {
    if (attr->type != AttributeValue::Type::integer) {
      throw Error(Msg::schema_not_integer, {{"repr", attr->repr}});
    }
    version = attr->integer;
    if (version < 1) throw Error(Msg::schema_not_positive, {{"version", std::to_string(version)}});
    if (version > 3) throw Error(Msg::schema_too_new, {{"version", std::to_string(version)}});
  }
  run.schema_version = version;

  // Metadata that matters: label, mpi_size.
  std::optional<AttributeValue> mpi_size_attr;
  if (h5::is_group(root, "metadata")) {
    h5::Handle meta = h5::open_group(f, root, "metadata");
    if (auto label = h5::read_attribute(f, meta.get(), "label")) {
      if (label->type == AttributeValue::Type::string) run.label = label->string;
      if (label->type == AttributeValue::Type::integer && label->integer != 0) {
        run.label = std::to_string(label->integer);
      }
    }
    mpi_size_attr = h5::read_attribute(f, meta.get(), "mpi_size");
  }

  if (version >= 2) {
    run.storage_layout = "columnar";
    if (auto layout = h5::read_attribute(f, root, "storage_layout")) {
      if (layout->type == AttributeValue::Type::string) run.storage_layout = layout->string;
    }
    if (run.storage_layout == "aggregate") {
      h5::read_aggregate(f, run);
    } else {
      h5::read_columnar(f, run);
    }
    h5::read_lane_tables(f, run);
    // num_ranks: max(int(mpi_size), max rank + 1), 0 without rows. Ranks are
    // below 2^32 (checked by the reader).
    int64_t max_rank = -1;
    bool any_row = false;
    for (const Region& region : run.regions) {
      for (const RankSlice& slice : region.ranks) {
        max_rank = std::max(max_rank, slice.rank);
        any_row = true;
      }
    }
    run.num_ranks = any_row ? std::max(mpi_size_of(f, mpi_size_attr), max_rank + 1) : 0;
  } else {
    h5::read_schema1(f, run);
  }
  if (f.progress) f.progress("read", f.events_total, f.events_total);
  return run;
}

// Bytes in memory.
class MemorySource final : public ByteSource {
 public:
  MemorySource(const void* data, std::size_t size)
      : data_(static_cast<const unsigned char*>(data)), size_(size) {}
  uint64_t size() const override { return size_; }
  std::string read(uint64_t offset, void* out, std::size_t n) override {
    std::memcpy(out, data_ + offset, n);
    return {};
  }

 private:
  const unsigned char* data_;
  std::size_t size_;
};

// An open file descriptor, read with pread (which neither moves nor needs
// a file position); owns the descriptor.
class FdSource final : public ByteSource {
 public:
  explicit FdSource(int fd) : fd_(fd) {}
  void set_size(uint64_t size) { size_ = size; }
  ~FdSource() override { ::close(fd_); }
  FdSource(const FdSource&) = delete;
  FdSource& operator=(const FdSource&) = delete;
  uint64_t size() const override { return size_; }
  std::string read(uint64_t offset, void* out, std::size_t n) override {
    auto* bytes = static_cast<unsigned char*>(out);
    while (n > 0) {
      const std::size_t step = std::min<std::size_t>(n, std::size_t{1} << 30);
      const ssize_t got = ::pread(fd_, bytes, step, static_cast<off_t>(offset));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) return std::strerror(errno);
      if (got == 0) {
        return "it ends at byte " + std::to_string(offset) + ", before the " +
               std::to_string(size_) + " bytes it had when it was opened (it was changed meanwhile)";
      }
      bytes += got;
      offset += static_cast<uint64_t>(got);
      n -= static_cast<std::size_t>(got);
    }
    return {};
  }

 private:
  int fd_;
  uint64_t size_ = 0;
};

Run read_from_state(h5::SourceState& state, const std::string& path, const Progress& progress) {
  h5::silence_hdf5_errors();
  h5::Handle fapl = h5::driver_fapl(state);
  if (!fapl.valid()) {
    throw Error(Msg::internal, {{"detail", "scope-speedscope: its HDF5 file driver could not be set up (" +
                                               h5::error_stack_message() + ")"}});
  }
  h5::File f;
  f.path = path;
  f.progress = progress;
  f.source = &state;
  // The driver reads the source, not the name: a name no other open file has.
  static unsigned counter = 0;
  const std::string open_name = "scope-speedscope input " + std::to_string(++counter);
  f.file = h5::Handle(H5Fopen(open_name.c_str(), H5F_ACC_RDONLY, fapl.get()), H5Fclose);
  if (!f.file.valid()) {
    throw Error(Msg::not_hdf5, {{"path", path}, {"underlying", h5::error_stack_message()}});
  }
  return read_open_file(f);
}

// A file HDF5 cannot open: empty, not HDF5 at all, or damaged? The CLIs'
// text stays scope-profiler's; the words for people say which.
void classify_open_failure(Error& e, uint64_t size) {
  if (e.id() != Msg::not_hdf5) return;
  if (size == 0) {
    e.reword(Msg::not_hdf5_empty);
  } else if (std::string(e.what()).find("file signature not found") != std::string::npos) {
    e.reword(Msg::not_hdf5_no_signature);  // HDF5 found its signature at no offset it tries
  }
}

Error unreadable(const std::string& path, const std::string& reason) {
  Error e(Msg::file_unreadable, {{"path", path}, {"reason", reason}});
  e.in_file(path);
  return e;
}

// Every reading error blames the file; a source that failed to give bytes
// is the reason, whatever HDF5 made of the missing bytes.
Run read_source(ByteSource& source, const std::string& shown, const Progress& progress) {
  h5::SourceState state;
  state.source = &source;
  try {
    return read_from_state(state, shown, progress);
  } catch (Error& e) {
    if (!state.failure.empty()) throw unreadable(shown, state.failure);
    e.in_file(shown);
    classify_open_failure(e, source.size());
    throw;
  }
}

}  // namespace

Run read_run(const std::string& path, const Progress& progress, const std::string& display_name) {
  const std::string& shown = display_name.empty() ? path : display_name;
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    Error e(Msg::file_not_found, {{"path", shown}});
    e.in_file(shown);
    throw e;
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw unreadable(shown, std::strerror(errno));
  FdSource source(fd);  // closes it
  if (::fstat(fd, &st) != 0) throw unreadable(shown, std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw unreadable(shown, "it is a directory");
  source.set_size(static_cast<uint64_t>(st.st_size));
  return read_source(source, shown, progress);
}

Run read_run_from_memory(const void* data, std::size_t size, const std::string& name,
                         const Progress& progress) {
  MemorySource source(data, size);
  return read_source(source, name, progress);
}

Run read_run_from_source(ByteSource& source, const std::string& name, const Progress& progress) {
  return read_source(source, name, progress);
}

}  // namespace scope_speedscope
