// read: columns and attributes as plain values: every numeric column as
// int64, strings decoded as UTF-8, scalar attributes; each dataset checked
// (filters, storage, declared sizes) before a buffer is sized from it.
#include <algorithm>
#include <cstring>

#include "read/h5_detail.hpp"
#include "read/h5_driver.hpp"
#include "read/h5_filters.hpp"
#include "text/unicode.hpp"
#include "write/speedscope_writer.hpp"

namespace scope_speedscope {
namespace h5 {

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
    case H5T_CONV_INIT: return H5Tis_variable_str(src) > 0 && is_stored_string_type(dst) ? 0 : -1;
    case H5T_CONV_FREE: return 0;
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

void register_stored_string_conversion() {
  Handle vlen_string(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(vlen_string.get(), H5T_VARIABLE);
  H5Tregister(H5T_PERS_SOFT, "scope-speedscope stored string", vlen_string.get(),
              stored_string_type(), convert_to_stored_string);
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
    const H5Z_filter_t id = H5Pget_filter2(dcpl.get(), static_cast<unsigned>(i), &flags, &nelmts,
                                           cd_values, sizeof name, name, &config);
    if (id < 0) {
      H5Eclear2(H5E_DEFAULT);
      f.fail("cannot read the filters of dataset '" + what + "'");
    }
    if (!filter_supported(id) || H5Zfilter_avail(id) <= 0) {
      H5Eclear2(H5E_DEFAULT);
      f.fail(Msg::unsupported_filter,
             {{"dataset", what}, {"filter", std::to_string(id)}, {"name", filter_name(id)}});
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
    f.fail("dataset '" + what +
           "' keeps its data outside the file, which scope-speedscope does not read");
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
    f.fail(Msg::declared_size_exceeds_storage, {{"dataset", what},
                                                {"values", std::to_string(values)},
                                                {"declared", std::to_string(shown)},
                                                {"stored", std::to_string(stored)}});
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

namespace {

template <class Out>
Out read_int64_values(File& f, hid_t loc, const std::string& path, bool events,
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
  Out out;
  out.resize(n);
  if (n == 0) return out;
  if (read_column_in_parallel(f, dset.get(), n, out.data(), events)) return out;

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

}  // namespace

std::vector<int64_t> read_int64_column(File& f, hid_t loc, const std::string& path, bool events,
                                       const std::string& shown_name) {
  return read_int64_values<std::vector<int64_t>>(f, loc, path, events, shown_name);
}

Column<int64_t> read_event_column(File& f, hid_t loc, const std::string& path) {
  return read_int64_values<Column<int64_t>>(f, loc, path, true, {});
}

uint64_t read_int64_ranges(File& f, hid_t loc, const std::string& path,
                           const std::vector<ValueRange>& ranges, const TakeValues& take) {
  Handle dset = open_dataset(f, loc, path);
  Handle type(H5Dget_type(dset.get()), H5Tclose);
  const H5T_class_t cls = type.valid() ? H5Tget_class(type.get()) : H5T_NO_CLASS;
  if (cls != H5T_INTEGER && cls != H5T_FLOAT) {
    f.fail("dataset '" + path + "' does not hold numbers");
  }
  const uint64_t n = dataset_length(f, dset.get(), path);
  const ChunkSize chunk_size(
      check_dataset(f, dset.get(), path, n, std::max<std::size_t>(H5Tget_size(type.get()), 1)));
  if (n == 0 || ranges.empty()) return n;
  Handle file_space(H5Dget_space(dset.get()), H5Sclose);
  const hsize_t chunk = chunk_length(dset.get());
  hsize_t block = hsize_t{1} << 20;
  if (chunk > 0) block = ((block + chunk - 1) / chunk) * chunk;
  for (const ValueRange& range : ranges) {
    if (range.end > n || range.begin > range.end) {
      f.fail("cannot read values " + std::to_string(range.begin) + " to " +
             std::to_string(range.end) + " of dataset '" + path + "', which holds " +
             std::to_string(n));
    }
  }
  // What was not taken on every core (all, or from a chunk not as expected).
  const uint64_t taken_to = take_ranges_in_parallel(f, dset.get(), n, ranges, take);
  std::vector<int64_t> buffer;
  for (const ValueRange& range : ranges) {
    for (hsize_t at = std::max<uint64_t>(range.begin, taken_to); at < range.end;) {
      // Up to the next block boundary: a chunk is read by one H5Dread.
      const hsize_t stop = std::min<hsize_t>(range.end, (at / block + 1) * block);
      const hsize_t count = stop - at;
      if (buffer.size() < count) buffer.resize(count);
      if (H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, &at, nullptr, &count, nullptr) <
          0) {
        f.fail("cannot select in '" + path + "': " + error_stack_message());
      }
      Handle mem_space(H5Screate_simple(1, &count, nullptr), H5Sclose);
      if (H5Dread(dset.get(), H5T_NATIVE_INT64, mem_space.get(), file_space.get(), H5P_DEFAULT,
                  buffer.data()) < 0) {
        f.fail("cannot read dataset '" + path + "': " + error_stack_message());
      }
      take(at, buffer.data(), count);
      f.events_done += count;
      if (f.progress) f.progress("read", f.events_done, f.events_total);
      at = stop;
    }
  }
  return n;
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
  VlenStrings(hid_t mem_type, hid_t space, std::size_t n)
      : type(mem_type), space(space), pointers(n, nullptr) {}
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
  const ChunkSize chunk_size(
      check_dataset(f, dset.get(), path, n,
                    variable > 0 ? 12 : std::max<std::size_t>(H5Tget_size(type.get()), 1)));
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
}  // namespace scope_speedscope
