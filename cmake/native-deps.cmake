# cmake/native-deps.cmake: the libraries of the native builds.
#
# Included by the top-level CMakeLists.txt when EMSCRIPTEN is false. It
#  1. builds HDF5 1.14.5 from Debian's source (cmake/deps.cmake fetches and
#     checks the tarball; cmake/patches/ is applied) with the project's own
#     C compiler (and SCOPE_SPEEDSCOPE_DEPS_C_FLAGS, so the sanitizer and
#     fuzzer presets instrument HDF5 too), as an ExternalProject in ${CMAKE_BINARY_DIR}/_deps, installed
#     into SCOPE_SPEEDSCOPE_DEPS_DIR/native-<key>, where <key> hashes the
#     tarball, the patches, the options (cmake/hdf5-native.cmake,
#     cmake/hdf5-common.cmake), this file, the compiler and the flags. A
#     later configure that finds that prefix complete uses it and builds
#     nothing (HDF5 takes about two minutes here);
#  2. defines the imported targets
#       deps::hdf5    static libhdf5 with its headers (linking it orders the
#                     build after the ExternalProject), zlib from Debian's
#                     zlib1g-dev;
#       deps::pcre2   Debian's libpcre2-dev (libpcre2-8), regular expressions;
#       deps::zlib    Debian's zlib1g-dev (the reader's deflate decoder);
#     and finds nlohmann_json and fmt (Debian's header-only packages).
include_guard(GLOBAL)

if(EMSCRIPTEN)
  message(FATAL_ERROR "cmake/native-deps.cmake is for native builds only")
endif()

include("${CMAKE_CURRENT_LIST_DIR}/deps.cmake")

find_package(ZLIB REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
find_package(fmt REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(SCOPE_PCRE2 REQUIRED IMPORTED_TARGET libpcre2-8)

# ---- HDF5 -------------------------------------------------------------------
# HDF5 is built with the project's C compiler and these flags: by default
# the project's, the sanitizer and fuzz presets set their own (AddressSanitizer
# and coverage instrumentation reach HDF5; UBSan stays on our code).
set(SCOPE_SPEEDSCOPE_DEPS_C_FLAGS "${CMAKE_C_FLAGS}" CACHE STRING
  "C flags of the native HDF5 build")
set(SCOPE_SPEEDSCOPE_DEPS_LINK_FLAGS "${CMAKE_EXE_LINKER_FLAGS}" CACHE STRING
  "Link flags of the native HDF5 build's configure checks")
set(_scope_hdf5_c_flags "${SCOPE_SPEEDSCOPE_DEPS_C_FLAGS}")
set(_scope_hdf5_link_flags "${SCOPE_SPEEDSCOPE_DEPS_LINK_FLAGS}")
scope_speedscope_deps_key(_scope_hdf5_key
  STRINGS "${SCOPE_SPEEDSCOPE_HDF5_SHA256}" "${CMAKE_C_COMPILER_ID}" "${CMAKE_C_COMPILER_VERSION}"
          "${CMAKE_C_COMPILER}" "${_scope_hdf5_c_flags}" "${_scope_hdf5_link_flags}"
  FILES "${CMAKE_CURRENT_LIST_FILE}" "${CMAKE_CURRENT_LIST_DIR}/hdf5-native.cmake"
        "${CMAKE_CURRENT_LIST_DIR}/hdf5-common.cmake" ${SCOPE_SPEEDSCOPE_HDF5_PATCHES})
set(SCOPE_SPEEDSCOPE_HDF5_PREFIX "${SCOPE_SPEEDSCOPE_DEPS_DIR}/native-hdf5-${_scope_hdf5_key}")
set(_scope_hdf5_done "${SCOPE_SPEEDSCOPE_HDF5_PREFIX}/complete.stamp")
set(_scope_hdf5_ep_dir "${CMAKE_BINARY_DIR}/_deps/native-hdf5-${_scope_hdf5_key}")
# ExternalProject trees of earlier keys, in this build tree only.
file(GLOB _scope_stale LIST_DIRECTORIES TRUE "${CMAKE_BINARY_DIR}/_deps/native-hdf5-*")
list(REMOVE_ITEM _scope_stale "${_scope_hdf5_ep_dir}")
if(_scope_stale)
  file(REMOVE_RECURSE ${_scope_stale})
endif()

if(EXISTS "${_scope_hdf5_done}")
  message(STATUS "deps: reusing HDF5 in ${SCOPE_SPEEDSCOPE_HDF5_PREFIX}")
else()
  message(STATUS "deps: HDF5 will be built into ${SCOPE_SPEEDSCOPE_HDF5_PREFIX}")
  scope_speedscope_fetch_pinned(HDF5 _scope_hdf5_archive)
  scope_speedscope_hdf5_patch_command(_scope_hdf5_patch)
  cmake_host_system_information(RESULT _scope_cores QUERY NUMBER_OF_LOGICAL_CORES)
  # No MAKEFLAGS from an outer make (its job server is not passed on).
  set(_scope_env "${CMAKE_COMMAND}" -E env --unset=MAKEFLAGS --unset=MFLAGS)
  scope_speedscope_staging_dir("${SCOPE_SPEEDSCOPE_HDF5_PREFIX}" _scope_hdf5_staging)
  scope_speedscope_commit_command("${_scope_hdf5_staging}" "${SCOPE_SPEEDSCOPE_HDF5_PREFIX}" _scope_hdf5_commit)
  ExternalProject_Add(deps_hdf5_build
    URL "${_scope_hdf5_archive}"
    URL_HASH SHA256=${SCOPE_SPEEDSCOPE_HDF5_SHA256}
    DOWNLOAD_EXTRACT_TIMESTAMP FALSE
    PREFIX "${_scope_hdf5_ep_dir}"
    INSTALL_DIR "${_scope_hdf5_staging}"
    PATCH_COMMAND ${_scope_hdf5_patch}
    # A fresh cache each time, so that -C applies every option.
    CONFIGURE_COMMAND "${CMAKE_COMMAND}" -E rm -f <BINARY_DIR>/CMakeCache.txt
      COMMAND ${_scope_env} "${CMAKE_COMMAND}"
        -G "${CMAKE_GENERATOR}" "-DCMAKE_MAKE_PROGRAM=${CMAKE_MAKE_PROGRAM}"
        "-DCMAKE_C_COMPILER=${CMAKE_C_COMPILER}"
        "-DSCOPE_SPEEDSCOPE_DEPS_PREFIX=<INSTALL_DIR>"
        "-DSCOPE_SPEEDSCOPE_HDF5_C_FLAGS=${_scope_hdf5_c_flags}"
        "-DSCOPE_SPEEDSCOPE_HDF5_LINK_FLAGS=${_scope_hdf5_link_flags}"
        -C "${CMAKE_CURRENT_LIST_DIR}/hdf5-native.cmake"
        <SOURCE_DIR>
    BUILD_COMMAND ${_scope_env} "${CMAKE_COMMAND}" --build <BINARY_DIR> --parallel ${_scope_cores}
    INSTALL_COMMAND "${CMAKE_COMMAND}" --install <BINARY_DIR>
      COMMAND ${_scope_hdf5_commit}
    BUILD_BYPRODUCTS "${SCOPE_SPEEDSCOPE_HDF5_PREFIX}/lib/libhdf5.a"
    LOG_CONFIGURE TRUE LOG_BUILD TRUE LOG_INSTALL TRUE LOG_OUTPUT_ON_FAILURE TRUE)
endif()

# Imported targets. Their include directory must exist at generate time.
file(MAKE_DIRECTORY "${SCOPE_SPEEDSCOPE_HDF5_PREFIX}/include")
add_library(deps::hdf5 STATIC IMPORTED GLOBAL)
set_target_properties(deps::hdf5 PROPERTIES
  IMPORTED_LOCATION "${SCOPE_SPEEDSCOPE_HDF5_PREFIX}/lib/libhdf5.a"
  INTERFACE_INCLUDE_DIRECTORIES "${SCOPE_SPEEDSCOPE_HDF5_PREFIX}/include"
  INTERFACE_LINK_LIBRARIES "ZLIB::ZLIB;${CMAKE_DL_LIBS};m")
if(TARGET deps_hdf5_build)
  add_dependencies(deps::hdf5 deps_hdf5_build)
endif()

add_library(deps::zlib INTERFACE IMPORTED GLOBAL)
set_target_properties(deps::zlib PROPERTIES INTERFACE_LINK_LIBRARIES ZLIB::ZLIB)

add_library(deps::pcre2 INTERFACE IMPORTED GLOBAL)
set_target_properties(deps::pcre2 PROPERTIES
  INTERFACE_LINK_LIBRARIES PkgConfig::SCOPE_PCRE2
  INTERFACE_COMPILE_DEFINITIONS PCRE2_CODE_UNIT_WIDTH=8)
