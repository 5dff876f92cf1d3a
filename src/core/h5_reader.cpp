// read: the dispatcher (open, schema attribute, metadata, layout) and the
// helpers every layout reader uses.
#include "h5_reader.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <mutex>

#include "h5_detail.hpp"
#include "speedscope_writer.hpp"
#include "unicode.hpp"

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

}  // namespace

std::string error_stack_message() {
  StackWalk walk;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, walk_entry, &walk);
  H5Eclear2(H5E_DEFAULT);
  if (walk.count == 0) return "unknown HDF5 error";
  return capitalize(walk.first) + " (" + walk.last + ")";
}

void silence_hdf5_errors() {
  static std::once_flag once;
  std::call_once(once, [] { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); });
}

void File::fail(const std::string& what) const {
  throw Error(Msg::corrupt_file, {{"path", path}, {"detail", what}});
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
  H5O_info_t info;
  if (H5Oget_info_by_name(loc, path.c_str(), &info, H5P_DEFAULT) < 0) {
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
herr_t collect_name(hid_t, const char* name, const H5L_info_t*, void* data) {
  static_cast<std::vector<std::string>*>(data)->emplace_back(name);
  return 0;
}
}  // namespace

std::vector<std::string> child_names(const File& f, hid_t group) {
  std::vector<std::string> names;
  hsize_t idx = 0;
  if (H5Literate(group, H5_INDEX_NAME, H5_ITER_INC, &idx, collect_name, &names) < 0) {
    f.fail("cannot list a group: " + error_stack_message());
  }
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

const char* filter_name(H5Z_filter_t id) {
  switch (id) {
    case H5Z_FILTER_DEFLATE: return "gzip";
    case H5Z_FILTER_SHUFFLE: return "shuffle";
    case H5Z_FILTER_FLETCHER32: return "fletcher32";
    case H5Z_FILTER_SZIP: return "szip";
    case H5Z_FILTER_NBIT: return "nbit";
    case H5Z_FILTER_SCALEOFFSET: return "scaleoffset";
    case 32000: return "lzf";
    case 32001: return "blosc";
    case 32004: return "lz4";
    case 32008: return "bitshuffle";
    case 32015: return "zstd";
    default: return "unknown";
  }
}

// Names a filter this build lacks, before HDF5 fails with a vaguer message.
void check_filters(const File& f, hid_t dset, const std::string& what) {
  Handle dcpl(H5Dget_create_plist(dset), H5Pclose);
  if (!dcpl.valid()) return;
  const int n = H5Pget_nfilters(dcpl.get());
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
    if (id < 0) continue;
    if (H5Zfilter_avail(id) <= 0) {
      H5Eclear2(H5E_DEFAULT);
      f.fail("dataset '" + what + "' is compressed with HDF5 filter " + std::to_string(id) +
             " (" + filter_name(id) + "), which this build of scope-speedscope cannot decode");
    }
  }
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

std::vector<int64_t> read_int64_column(File& f, hid_t loc, const std::string& path, bool events) {
  Handle dset = open_dataset(f, loc, path);
  Handle type(H5Dget_type(dset.get()), H5Tclose);
  const H5T_class_t cls = type.valid() ? H5Tget_class(type.get()) : H5T_NO_CLASS;
  if (cls != H5T_INTEGER && cls != H5T_FLOAT) {
    f.fail("dataset '" + path + "' does not hold numbers");
  }
  check_filters(f, dset.get(), path);
  const uint64_t n = dataset_length(f, dset.get(), path);
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
      f.fail("cannot select in '" + path + "': " + error_stack_message());
    }
    Handle mem_space(H5Screate_simple(1, &count, nullptr), H5Sclose);
    if (H5Dread(dset.get(), H5T_NATIVE_INT64, mem_space.get(), file_space.get(), H5P_DEFAULT,
                out.data() + start) < 0) {
      f.fail("cannot read dataset '" + path + "': " + error_stack_message());
    }
    if (events) {
      f.events_done += count;
      if (f.progress) f.progress("read", f.events_done, f.events_total);
    }
  }
  return out;
}

std::vector<std::string> read_string_column(const File& f, hid_t loc, const std::string& path) {
  Handle dset = open_dataset(f, loc, path);
  Handle type(H5Dget_type(dset.get()), H5Tclose);
  if (!type.valid() || H5Tget_class(type.get()) != H5T_STRING) {
    f.fail("dataset '" + path + "' does not hold strings");
  }
  const uint64_t n = dataset_length(f, dset.get(), path);
  std::vector<std::string> out;
  out.reserve(n);
  if (n == 0) return out;
  const htri_t variable = H5Tis_variable_str(type.get());
  Handle mem(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_cset(mem.get(), H5Tget_cset(type.get()));
  if (variable > 0) {
    H5Tset_size(mem.get(), H5T_VARIABLE);
    std::vector<char*> raw(n, nullptr);
    if (H5Dread(dset.get(), mem.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, raw.data()) < 0) {
      f.fail("cannot read dataset '" + path + "': " + error_stack_message());
    }
    for (char* s : raw) out.push_back(utf8_decode_replace(s != nullptr ? s : ""));
    Handle space(H5Dget_space(dset.get()), H5Sclose);
    H5Dvlen_reclaim(mem.get(), space.get(), H5P_DEFAULT, raw.data());
  } else {
    const size_t width = H5Tget_size(type.get());
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
      H5Tset_size(mem.get(), H5T_VARIABLE);
      char* raw = nullptr;
      if (H5Aread(attr.get(), mem.get(), &raw) < 0) {
        f.fail("cannot read attribute '" + name + "': " + error_stack_message());
      }
      text = raw != nullptr ? raw : "";
      H5Dvlen_reclaim(mem.get(), space.get(), H5P_DEFAULT, &raw);
    } else {
      const size_t width = H5Tget_size(type.get());
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
  int64_t mpi_size = 1;
  if (h5::is_group(root, "metadata")) {
    h5::Handle meta = h5::open_group(f, root, "metadata");
    if (auto label = h5::read_attribute(f, meta.get(), "label")) {
      if (label->type == AttributeValue::Type::string) run.label = label->string;
      if (label->type == AttributeValue::Type::integer && label->integer != 0) {
        run.label = std::to_string(label->integer);
      }
    }
    if (auto size = h5::read_attribute(f, meta.get(), "mpi_size")) {
      if (size->type == AttributeValue::Type::integer) mpi_size = size->integer;
      if (size->type == AttributeValue::Type::floating) {
        mpi_size = static_cast<int64_t>(size->floating);
      }
    }
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
    // num_ranks: max(mpi_size, max rank + 1), 0 without rows.
    int64_t max_rank = -1;
    bool any_row = false;
    for (const Region& region : run.regions) {
      for (const RankSlice& slice : region.ranks) {
        max_rank = std::max(max_rank, slice.rank);
        any_row = true;
      }
    }
    run.num_ranks = any_row ? std::max(mpi_size, max_rank + 1) : 0;
  } else {
    h5::read_schema1(f, run);
  }
  if (f.progress) f.progress("read", f.events_total, f.events_total);
  return run;
}

Run read_with_fapl(const std::string& open_name, const std::string& path, hid_t fapl,
                   const Progress& progress) {
  h5::silence_hdf5_errors();
  h5::File f;
  f.path = path;
  f.progress = progress;
  f.file = h5::Handle(H5Fopen(open_name.c_str(), H5F_ACC_RDONLY, fapl), H5Fclose);
  if (!f.file.valid()) {
    throw Error(Msg::not_hdf5, {{"path", path}, {"underlying", h5::error_stack_message()}});
  }
  return read_open_file(f);
}

Run read_memory_image(const void* data, std::size_t size, const std::string& name,
                      const Progress& progress) {
  h5::silence_hdf5_errors();
  h5::Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  if (!fapl.valid() || H5Pset_fapl_core(fapl.get(), 1 << 16, 0) < 0 ||
      H5Pset_file_image(fapl.get(), const_cast<void*>(data), size) < 0) {
    throw Error(Msg::not_hdf5, {{"path", name}, {"underlying", h5::error_stack_message()}});
  }
  // The core driver would look at a real file of the given name; open a name
  // that is no file (the image is all there is), and show `name` in messages.
  static unsigned counter = 0;
  const std::string image_name = "scope-speedscope memory image " + std::to_string(++counter) +
                                 " (no such file)";
  return read_with_fapl(image_name, name, fapl.get(), progress);
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

}  // namespace

Run read_run(const std::string& path, const Progress& progress, const std::string& display_name) {
  const std::string& shown = display_name.empty() ? path : display_name;
  uint64_t size = 0;
  try {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) {
      throw Error(Msg::file_not_found, {{"path", shown}});
    }
    size = static_cast<uint64_t>(st.st_size);
    return read_with_fapl(path, shown, H5P_DEFAULT, progress);
  } catch (Error& e) {
    e.in_file(shown);  // every reading error blames this file
    classify_open_failure(e, size);
    throw;
  }
}

Run read_run_from_memory(const void* data, std::size_t size, const std::string& name,
                         const Progress& progress) {
  try {
    return read_memory_image(data, size, name, progress);
  } catch (Error& e) {
    e.in_file(name);  // every reading error blames this file
    classify_open_failure(e, size);
    throw;
  }
}

}  // namespace scope_speedscope
