# cmake/hdf5-common.cmake: the HDF5 1.14.5 options both builds share.
#
# Included by cmake/hdf5-native.cmake and cmake/hdf5-wasm.cmake, the initial
# caches (-C) of the two HDF5 builds. The caller defines, before -C:
#   SCOPE_SPEEDSCOPE_DEPS_PREFIX  install prefix
# What we need of HDF5 is its C library, reading only: no tools, tests,
# examples, other languages, threads, MPI or plugins.

# Release gives lib/libhdf5.a (Debug would name it libhdf5_debug.a); the
# optimisation flags come from each build's file.
set(CMAKE_BUILD_TYPE Release CACHE STRING "")
set(CMAKE_INSTALL_PREFIX "${SCOPE_SPEEDSCOPE_DEPS_PREFIX}" CACHE PATH "")

# Only the static C library.
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

# The 1.14 API without the deprecated symbols: our code uses the current
# names (H5Oget_info_by_name3, H5Literate2, H5Treclaim) and no
# H5_USE_110_API compatibility macros.
set(DEFAULT_API_VERSION v114 CACHE STRING "")
set(HDF5_ENABLE_DEPRECATED_SYMBOLS OFF CACHE BOOL "")

# One thread, no MPI, no map API, no _Float16 (never in a profile).
set(HDF5_ENABLE_THREADSAFE OFF CACHE BOOL "")
set(HDF5_ENABLE_PARALLEL OFF CACHE BOOL "")
set(HDF5_ENABLE_MAP_API OFF CACHE BOOL "")
set(HDF5_ENABLE_NONSTANDARD_FEATURE_FLOAT16 OFF CACHE BOOL "")

# Filters: deflate (gzip) from zlib (each build says which); scope-profiler
# writes large event columns with gzip + shuffle, and shuffle is built into
# HDF5. Never let HDF5 fetch anything itself. No szip, no filter plugins
# (LZF and Zstd files are refused with a message naming the filter).
set(HDF5_ALLOW_EXTERNAL_SUPPORT NO CACHE STRING "")
set(HDF5_ENABLE_Z_LIB_SUPPORT ON CACHE BOOL "")
set(HDF5_ENABLE_SZIP_SUPPORT OFF CACHE BOOL "")
set(HDF5_ENABLE_PLUGIN_SUPPORT OFF CACHE BOOL "")

# Virtual file drivers beyond sec2 and core (memory) stay off.
set(HDF5_ENABLE_DIRECT_VFD OFF CACHE BOOL "")
set(HDF5_ENABLE_MIRROR_VFD OFF CACHE BOOL "")
set(HDF5_ENABLE_ROS3_VFD OFF CACHE BOOL "")
set(HDF5_ENABLE_HDFS OFF CACHE BOOL "")
set(HDF5_ENABLE_SUBFILING_VFD OFF CACHE BOOL "")
# Files are only read, by one process: no flock() calls.
set(HDF5_USE_FILE_LOCKING OFF CACHE BOOL "")

# No copy of the configuration text inside the library.
set(HDF5_ENABLE_EMBEDDED_LIBINFO OFF CACHE BOOL "")

# A quiet build log.
set(HDF5_ENABLE_ALL_WARNINGS OFF CACHE BOOL "")
set(HDF5_DISABLE_COMPILER_WARNINGS ON CACHE BOOL "")
