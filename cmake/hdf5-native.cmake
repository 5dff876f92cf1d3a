# cmake/hdf5-native.cmake: every option of the native HDF5 1.14.5 build.
#
# An initial cache, passed with -C by cmake/native-deps.cmake when it
# configures Debian's HDF5 source with the project's own compilers. The
# caller defines, before -C:
#   SCOPE_SPEEDSCOPE_DEPS_PREFIX     install prefix
#   SCOPE_SPEEDSCOPE_HDF5_C_FLAGS    the project's C flags (sanitizers and
#                                    fuzzer instrumentation reach HDF5 too)
#   SCOPE_SPEEDSCOPE_HDF5_LINK_FLAGS the project's executable link flags
include("${CMAKE_CURRENT_LIST_DIR}/hdf5-common.cmake")

set(CMAKE_C_FLAGS "${SCOPE_SPEEDSCOPE_HDF5_C_FLAGS}" CACHE STRING "")
set(CMAKE_C_FLAGS_RELEASE "-O2 -DNDEBUG" CACHE STRING "")
set(CMAKE_EXE_LINKER_FLAGS "${SCOPE_SPEEDSCOPE_HDF5_LINK_FLAGS}" CACHE STRING "")
# Our static library is linked into position-independent executables.
set(CMAKE_POSITION_INDEPENDENT_CODE ON CACHE BOOL "")

# Deflate from Debian's zlib1g-dev (found by HDF5's FindZLIB).
