// Private to the reader units: our HDF5 file driver. Every file is opened
// through it, in the native and the WebAssembly build alike, so that HDF5
// judges addresses and lengths of a file the same way in both: its largest
// address is 2^63 - 1 (HDF5's core driver derives it from size_t, so in
// WebAssembly an address just above 2^32 was "temporary file space"), and
// its reads go to a ByteSource (h5_reader.hpp) with bounds checks of ours.
#pragma once

#include <cstdint>
#include <string>

#include "read/h5_detail.hpp"
#include "read/h5_reader.hpp"

namespace scope_speedscope::h5 {

// The largest address a file may use, in both builds.
constexpr uint64_t kMaxFileAddress = (uint64_t{1} << 63) - 1;

// One file being read: its source and the first read that failed.
struct SourceState {
  ByteSource* source = nullptr;
  std::string failure;     // why the source could not give bytes ("" when it always could)
  uint64_t failed_at = 0;  // the offset of that read
  uint64_t reads = 0;      // calls into the source (tests, benchmarks)
};

// A file-access property list that opens files through our driver, reading
// from `state.source`; `state` must outlive every file opened with it.
Handle driver_fapl(SourceState& state);

}  // namespace scope_speedscope::h5
