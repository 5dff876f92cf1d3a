# cmake/check-sources.cmake: fetches every pinned Debian source package
# (cmake/deps.cmake) into an empty folder through its private apt
# configuration and checks its SHA-256, so that a cache of tarballs cannot
# hide a fetch that no longer works. No build. Run with
#   cmake -DDIR=<empty folder> [-DONLY=HDF5|ZLIB|PCRE2|ZSTD|LZF] -P cmake/check-sources.cmake
# It prints one line per package ("name=version tarball sha256") and fails on
# the first that cannot be had.
if(NOT DEFINED DIR)
  message(FATAL_ERROR "check-sources.cmake: define DIR (an empty folder)")
endif()
# deps.cmake's cache folder is unused here: every fetch goes to DIR.
set(CMAKE_BINARY_DIR "${DIR}")
set(ENV{SCOPE_SPEEDSCOPE_DEPS_DIR} "${DIR}/unused-cache")
include("${CMAKE_CURRENT_LIST_DIR}/deps.cmake")
file(GLOB existing "${DIR}/*.tar.*")
if(existing)
  message(FATAL_ERROR "check-sources.cmake: ${DIR} already holds ${existing}")
endif()
set(names ${SCOPE_SPEEDSCOPE_SOURCE_PACKAGES})
if(DEFINED ONLY)
  set(names ${ONLY})
endif()
foreach(name IN LISTS names)
  scope_speedscope_fetch_pinned(${name} path DIR "${DIR}")
  file(SHA256 "${path}" sha)
  message("${SCOPE_SPEEDSCOPE_${name}_PACKAGE}=${SCOPE_SPEEDSCOPE_${name}_VERSION} ${SCOPE_SPEEDSCOPE_${name}_TARBALL} ${sha}")
endforeach()
