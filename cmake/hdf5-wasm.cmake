# cmake/hdf5-wasm.cmake: every option of the HDF5 1.14.5 WebAssembly build.
#
# An initial cache, passed with -C by cmake/wasm-deps.cmake when it configures
# Debian's HDF5 source with the parent's Emscripten toolchain file. The
# caller defines, before -C:
#   SCOPE_SPEEDSCOPE_DEPS_PREFIX  install prefix
#   SCOPE_SPEEDSCOPE_ZLIB_PREFIX  where zlib for wasm is installed
#   SCOPE_SPEEDSCOPE_NODE         node executable
#   SCOPE_SPEEDSCOPE_WASM_OPT     optimisation flag (-O2, -Os, ...)
# The build runs with NODE_PATH set (see cmake/wasm.cmake).
foreach(input IN ITEMS SCOPE_SPEEDSCOPE_DEPS_PREFIX SCOPE_SPEEDSCOPE_ZLIB_PREFIX SCOPE_SPEEDSCOPE_NODE SCOPE_SPEEDSCOPE_WASM_OPT)
  if(NOT DEFINED ${input})
    message(FATAL_ERROR "hdf5-wasm.cmake: define ${input} before -C")
  endif()
endforeach()
include("${CMAKE_CURRENT_LIST_DIR}/hdf5-common.cmake")

set(CMAKE_C_FLAGS_RELEASE "${SCOPE_SPEEDSCOPE_WASM_OPT} -DNDEBUG" CACHE STRING "")

# HDF5's configure runs programs it has just built (try_run checks). Run them
# with Node (whose global fetch breaks Emscripten 3.1.6's loader) on the host
# file system (NODERAWFS). Without this, configure fails on
# pac_Cconftest.out.
set(CMAKE_CROSSCOMPILING_EMULATOR "${SCOPE_SPEEDSCOPE_NODE};--no-experimental-fetch" CACHE STRING "")
set(CMAKE_EXE_LINKER_FLAGS "-sNODERAWFS=1" CACHE STRING "")

# Deflate from the zlib built beside it (cmake/wasm-deps.cmake).
set(ZLIB_INCLUDE_DIR "${SCOPE_SPEEDSCOPE_ZLIB_PREFIX}/include" CACHE PATH "")
set(ZLIB_LIBRARY "${SCOPE_SPEEDSCOPE_ZLIB_PREFIX}/lib/libz.a" CACHE FILEPATH "")
