# cmake/hdf5-wasm.cmake: every option of the HDF5 1.10.8 WebAssembly build.
#
# An initial cache, passed with -C by cmake/wasm-deps.cmake when it configures
# Debian's HDF5 source with the parent's Emscripten toolchain file. The
# caller defines, before -C:
#   SCOPE_SPEEDSCOPE_DEPS_PREFIX  install prefix, already holding zlib
#   SCOPE_SPEEDSCOPE_NODE         node executable
#   SCOPE_SPEEDSCOPE_WASM_OPT     optimisation flag (-O2, -Os, ...)
# The build runs with NODE_PATH set (see cmake/wasm.cmake).
foreach(input IN ITEMS SCOPE_SPEEDSCOPE_DEPS_PREFIX SCOPE_SPEEDSCOPE_NODE SCOPE_SPEEDSCOPE_WASM_OPT)
  if(NOT DEFINED ${input})
    message(FATAL_ERROR "hdf5-wasm.cmake: define ${input} before -C")
  endif()
endforeach()

# Release gives lib/libhdf5.a (Debug would name it libhdf5_debug.a).
set(CMAKE_BUILD_TYPE Release CACHE STRING "")
set(CMAKE_C_FLAGS_RELEASE "${SCOPE_SPEEDSCOPE_WASM_OPT} -DNDEBUG" CACHE STRING "")
set(CMAKE_INSTALL_PREFIX "${SCOPE_SPEEDSCOPE_DEPS_PREFIX}" CACHE PATH "")

# HDF5 runs programs it has just built: try_run checks at configure time, and
# H5detect / H5make_libsettings at build time, which write H5Tinit.c and
# H5lib_settings.c. Run them with Node (whose global fetch breaks Emscripten
# 3.1.6's loader) on the host file system (NODERAWFS). Without this, configure
# fails on pac_Cconftest.out.
set(CMAKE_CROSSCOMPILING_EMULATOR "${SCOPE_SPEEDSCOPE_NODE};--no-experimental-fetch" CACHE STRING "")
set(CMAKE_EXE_LINKER_FLAGS "-sNODERAWFS=1" CACHE STRING "")

# Only the static C library; no tools, tests, examples or other languages.
set(BUILD_SHARED_LIBS OFF CACHE BOOL "")
set(BUILD_STATIC_LIBS ON CACHE BOOL "")
set(ONLY_SHARED_LIBS OFF CACHE BOOL "")
set(BUILD_TESTING OFF CACHE BOOL "")
set(HDF5_BUILD_TOOLS OFF CACHE BOOL "")
set(HDF5_BUILD_UTILS OFF CACHE BOOL "")
set(HDF5_BUILD_EXAMPLES OFF CACHE BOOL "")
set(HDF5_BUILD_GENERATORS OFF CACHE BOOL "")
set(HDF5_BUILD_HL_LIB OFF CACHE BOOL "")
set(HDF5_BUILD_CPP_LIB OFF CACHE BOOL "")
set(HDF5_BUILD_FORTRAN OFF CACHE BOOL "")
set(HDF5_BUILD_JAVA OFF CACHE BOOL "")
set(HDF5_BUILD_DOC OFF CACHE BOOL "")
set(HDF5_NO_PACKAGES ON CACHE BOOL "")

# One thread, no MPI.
set(HDF5_ENABLE_THREADSAFE OFF CACHE BOOL "")
set(HDF5_ENABLE_PARALLEL OFF CACHE BOOL "")

# Filters: deflate (gzip) from the zlib built beside it; scope-profiler writes
# large event columns with gzip + shuffle, and shuffle is built into HDF5.
# Never let HDF5 fetch anything itself. No szip.
set(HDF5_ALLOW_EXTERNAL_SUPPORT NO CACHE STRING "")
set(HDF5_ENABLE_Z_LIB_SUPPORT ON CACHE BOOL "")
set(ZLIB_INCLUDE_DIR "${SCOPE_SPEEDSCOPE_DEPS_PREFIX}/include" CACHE PATH "")
set(ZLIB_LIBRARY "${SCOPE_SPEEDSCOPE_DEPS_PREFIX}/lib/libz.a" CACHE FILEPATH "")
set(HDF5_ENABLE_SZIP_SUPPORT OFF CACHE BOOL "")
set(HDF5_ENABLE_PLUGIN_SUPPORT OFF CACHE BOOL "")

# Virtual file drivers that mean nothing in a browser stay off.
set(HDF5_ENABLE_DIRECT_VFD OFF CACHE BOOL "")
set(HDF5_ENABLE_MIRROR_VFD OFF CACHE BOOL "")
set(HDF5_ENABLE_ROS3_VFD OFF CACHE BOOL "")
set(HDF5_ENABLE_HDFS OFF CACHE BOOL "")
# Files are only read, by one process: no flock() calls.
set(HDF5_USE_FILE_LOCKING OFF CACHE BOOL "")

# Keep the public API the same as Debian's native libhdf5 (1.10 API, with the
# deprecated symbols), so the code compiles alike in both builds.
set(HDF5_ENABLE_DEPRECATED_SYMBOLS ON CACHE BOOL "")
# Smaller binary: no copy of the configuration text inside the library.
set(HDF5_ENABLE_EMBEDDED_LIBINFO OFF CACHE BOOL "")

# A quiet build log.
set(HDF5_ENABLE_ALL_WARNINGS OFF CACHE BOOL "")
set(HDF5_DISABLE_COMPILER_WARNINGS ON CACHE BOOL "")
