# cmake/wasm-deps.cmake: HDF5 1.10.8 and zlib 1.2.13 for WebAssembly, built
# from Debian's source packages as part of this project's build.
#
# Included by the top-level CMakeLists.txt only when EMSCRIPTEN is true. It
#  1. fetches, at configure time, the upstream ("orig") tarballs of Debian's
#     `hdf5` and `zlib` source packages with `apt-get source --download-only`
#     into SCOPE_SPEEDSCOPE_DEPS_DIR, unless they are there already (or the
#     libraries are built already, see 2), and checks their SHA-256 against
#     the values pinned below (those of Debian's .dsc).
#     Needs deb-src in apt's sources and `apt-get update` (scripts/setup.sh does
#     both), and the network the first time only. Without apt, put the two
#     tarballs into SCOPE_SPEEDSCOPE_DEPS_DIR by hand.
#  2. builds, at build time, zlib (emconfigure ./configure --static; emmake
#     make install) and then HDF5 (CMake with the parent's Emscripten toolchain
#     file and the options in cmake/hdf5-wasm.cmake) as ExternalProjects in
#     ${CMAKE_BINARY_DIR}/_deps/build-<key>, installed into
#     SCOPE_SPEEDSCOPE_DEPS_DIR/wasm-<key>,
#     where <key> hashes the tarballs, these two files, the Emscripten version
#     and SCOPE_SPEEDSCOPE_WASM_OPT. A later configure that finds that prefix
#     complete uses it and builds nothing: HDF5's configure runs ~150 checks,
#     each an emcc link, which takes 5 to 10 minutes here.
#  3. defines the imported targets
#       wasm_deps::zlib, wasm_deps::hdf5   static libraries with their headers;
#                                          linking them orders the build after
#                                          the ExternalProjects
#       nlohmann_json::nlohmann_json       header-only, the same names as the
#       fmt::fmt-header-only               native packages' targets
#     The Emscripten sysroot hides /usr/include (and -I/usr/include breaks the
#     build), so the last two point at a build-tree directory that holds only
#     links to /usr/include/nlohmann and /usr/include/fmt.
#
# SCOPE_SPEEDSCOPE_DEPS_DIR defaults to the environment variable of that name,
# else to ${CMAKE_BINARY_DIR}/_deps/cache; point it outside the build tree
# (e.g. ~/.cache/scope-speedscope-wasm-deps) to share it between build trees
# and clean clones.
include_guard(GLOBAL)

if(NOT EMSCRIPTEN)
  message(FATAL_ERROR "cmake/wasm-deps.cmake is for Emscripten builds only")
endif()

include(ExternalProject)
include("${CMAKE_CURRENT_LIST_DIR}/wasm.cmake") # SCOPE_SPEEDSCOPE_EM_NODE_PATH, _NODE, _WASM_OPT

# Re-extracted sources get fresh timestamps, so a new tarball rebuilds fully.
if(POLICY CMP0135)
  cmake_policy(SET CMP0135 NEW)
endif()

if(DEFINED ENV{SCOPE_SPEEDSCOPE_DEPS_DIR})
  set(_scope_deps_dir_default "$ENV{SCOPE_SPEEDSCOPE_DEPS_DIR}")
else()
  set(_scope_deps_dir_default "${CMAKE_BINARY_DIR}/_deps/cache")
endif()
set(SCOPE_SPEEDSCOPE_DEPS_DIR "${_scope_deps_dir_default}" CACHE PATH
  "Keeps the Debian orig tarballs of HDF5 and zlib and the libraries built from them")
set(SCOPE_SPEEDSCOPE_HOST_INCLUDE_DIR "/usr/include" CACHE PATH
  "Host directory holding the header-only nlohmann/ and fmt/ (apt: nlohmann-json3-dev, libfmt-dev)")

# Debian source package, its orig tarball and that tarball's SHA-256.
set(_scope_zlib_package zlib)
set(_scope_zlib_tarball zlib_1.2.13.dfsg.orig.tar.bz2)
set(_scope_zlib_sha256 71feb7947e3c00ef125f83b79a4e529bde31171e5babe48b391f06758d1ab0a1)
set(_scope_hdf5_package hdf5)
set(_scope_hdf5_tarball hdf5_1.10.8+repack1.orig.tar.gz)
set(_scope_hdf5_sha256 7b38e58ff83b13fd8959a90b13bf896bc318ba096c940ab0847abf3ad41a0b31)

# Sets <out_var> to the path of <tarball> in SCOPE_SPEEDSCOPE_DEPS_DIR,
# downloading it with apt-get first when it is missing or its hash is wrong.
function(_scope_speedscope_fetch_orig package tarball sha256 out_var)
  set(path "${SCOPE_SPEEDSCOPE_DEPS_DIR}/${tarball}")
  set(${out_var} "${path}" PARENT_SCOPE)
  if(EXISTS "${path}")
    file(SHA256 "${path}" actual)
    if(actual STREQUAL sha256)
      return()
    endif()
    message(STATUS "wasm deps: ${path} has SHA-256 ${actual}, not ${sha256}; fetching it again")
    file(REMOVE "${path}")
  endif()

  find_program(SCOPE_SPEEDSCOPE_APT_GET apt-get)
  if(NOT SCOPE_SPEEDSCOPE_APT_GET)
    message(FATAL_ERROR "wasm deps: apt-get not found; put ${tarball} "
      "(SHA-256 ${sha256}, from Debian's `${package}` source package) into ${SCOPE_SPEEDSCOPE_DEPS_DIR}")
  endif()
  # apt-get also fetches the .dsc and the .debian.tar; only the orig tarball is kept.
  set(tmp "${SCOPE_SPEEDSCOPE_DEPS_DIR}/apt-get-source-${package}")
  file(REMOVE_RECURSE "${tmp}")
  file(MAKE_DIRECTORY "${tmp}")
  message(STATUS "wasm deps: apt-get source --download-only ${package}")
  execute_process(
    COMMAND "${SCOPE_SPEEDSCOPE_APT_GET}" source --download-only --only-source ${package}
    WORKING_DIRECTORY "${tmp}"
    RESULT_VARIABLE rc
    OUTPUT_VARIABLE log
    ERROR_VARIABLE log)
  if(NOT rc EQUAL 0 OR NOT EXISTS "${tmp}/${tarball}")
    file(GLOB got RELATIVE "${tmp}" "${tmp}/*")
    message(FATAL_ERROR "wasm deps: `apt-get source --download-only ${package}` "
      "(exit ${rc}) did not give ${tarball}; got: ${got}\n${log}\n"
      "Enable deb-src in /etc/apt/sources.list.d/debian.sources and run "
      "`apt-get update` (scripts/setup.sh does both), or put ${tarball} into "
      "${SCOPE_SPEEDSCOPE_DEPS_DIR}.")
  endif()
  file(SHA256 "${tmp}/${tarball}" actual)
  if(NOT actual STREQUAL sha256)
    message(FATAL_ERROR "wasm deps: ${tarball} from apt has SHA-256 ${actual}, expected ${sha256}")
  endif()
  file(RENAME "${tmp}/${tarball}" "${path}")
  file(REMOVE_RECURSE "${tmp}")
endfunction()

# The built libraries are kept in SCOPE_SPEEDSCOPE_DEPS_DIR too, under a key
# of everything that shapes them, so a new build tree sharing that directory
# (or a wiped one) reuses them instead of spending minutes on HDF5's configure.
file(SHA256 "${CMAKE_CURRENT_LIST_FILE}" _scope_this_sha)
file(SHA256 "${CMAKE_CURRENT_LIST_DIR}/hdf5-wasm.cmake" _scope_options_sha)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
  "${CMAKE_CURRENT_LIST_DIR}/hdf5-wasm.cmake")
string(SHA256 _scope_key "${_scope_zlib_sha256};${_scope_hdf5_sha256};${_scope_this_sha};${_scope_options_sha};${EMSCRIPTEN_VERSION};${SCOPE_SPEEDSCOPE_WASM_OPT}")
string(SUBSTRING "${_scope_key}" 0 12 _scope_key)
set(SCOPE_SPEEDSCOPE_DEPS_PREFIX "${SCOPE_SPEEDSCOPE_DEPS_DIR}/wasm-${_scope_key}")
set(_scope_done "${SCOPE_SPEEDSCOPE_DEPS_PREFIX}/complete.stamp")
set(_scope_ep_dir "${CMAKE_BINARY_DIR}/_deps/build-${_scope_key}")
# HDF5's configure checks run the programs Emscripten emits (CommonJS .js
# files) under Node. Node takes a .js file's module kind from the nearest
# package.json, and this project's says "type": "module": shield them.
file(WRITE "${CMAKE_BINARY_DIR}/_deps/package.json" "{ \"type\": \"commonjs\" }\n")
# ExternalProject trees of earlier keys, in this build tree only.
file(GLOB _scope_stale LIST_DIRECTORIES TRUE "${CMAKE_BINARY_DIR}/_deps/build-*")
list(REMOVE_ITEM _scope_stale "${_scope_ep_dir}")
if(_scope_stale)
  file(REMOVE_RECURSE ${_scope_stale})
endif()

if(EXISTS "${_scope_done}")
  message(STATUS "wasm deps: reusing ${SCOPE_SPEEDSCOPE_DEPS_PREFIX}")
else()
  message(STATUS "wasm deps: zlib and HDF5 will be built into ${SCOPE_SPEEDSCOPE_DEPS_PREFIX}")
  _scope_speedscope_fetch_orig(${_scope_zlib_package} ${_scope_zlib_tarball}
    ${_scope_zlib_sha256} _scope_zlib_archive)
  _scope_speedscope_fetch_orig(${_scope_hdf5_package} ${_scope_hdf5_tarball}
    ${_scope_hdf5_sha256} _scope_hdf5_archive)
  # The nested builds run in their own environment: NODE_PATH for emcc, and
  # no MAKEFLAGS from an outer make (its job server is not passed to them).
  # HDF5 builds with one job per core; logs are shown on failure only.
  set(_scope_ep_env "${CMAKE_COMMAND}" -E env --unset=MAKEFLAGS --unset=MFLAGS
    "NODE_PATH=${SCOPE_SPEEDSCOPE_EM_NODE_PATH}")
  cmake_host_system_information(RESULT _scope_cores QUERY NUMBER_OF_LOGICAL_CORES)

  ExternalProject_Add(wasm_deps_zlib_build
    URL "${_scope_zlib_archive}"
    URL_HASH SHA256=${_scope_zlib_sha256}
    PREFIX "${_scope_ep_dir}/zlib"
    INSTALL_DIR "${SCOPE_SPEEDSCOPE_DEPS_PREFIX}"
    BUILD_IN_SOURCE TRUE
    CONFIGURE_COMMAND ${_scope_ep_env} "CFLAGS=${SCOPE_SPEEDSCOPE_WASM_OPT}"
      emconfigure ./configure --static --prefix=<INSTALL_DIR>
    BUILD_COMMAND ${_scope_ep_env} emmake make libz.a
    INSTALL_COMMAND ${_scope_ep_env} emmake make install
    BUILD_BYPRODUCTS "${SCOPE_SPEEDSCOPE_DEPS_PREFIX}/lib/libz.a"
    LOG_CONFIGURE TRUE LOG_BUILD TRUE LOG_INSTALL TRUE LOG_OUTPUT_ON_FAILURE TRUE)

  ExternalProject_Add(wasm_deps_hdf5_build
    URL "${_scope_hdf5_archive}"
    URL_HASH SHA256=${_scope_hdf5_sha256}
    PREFIX "${_scope_ep_dir}/hdf5"
    INSTALL_DIR "${SCOPE_SPEEDSCOPE_DEPS_PREFIX}"
    DEPENDS wasm_deps_zlib_build
    # A fresh cache each time, so that -C applies every option.
    CONFIGURE_COMMAND "${CMAKE_COMMAND}" -E rm -f <BINARY_DIR>/CMakeCache.txt
      COMMAND ${_scope_ep_env} "${CMAKE_COMMAND}"
        -G "${CMAKE_GENERATOR}" "-DCMAKE_MAKE_PROGRAM=${CMAKE_MAKE_PROGRAM}"
        "-DCMAKE_TOOLCHAIN_FILE=${CMAKE_TOOLCHAIN_FILE}"
        "-DSCOPE_SPEEDSCOPE_DEPS_PREFIX=<INSTALL_DIR>"
        "-DSCOPE_SPEEDSCOPE_NODE=${SCOPE_SPEEDSCOPE_NODE}"
        "-DSCOPE_SPEEDSCOPE_WASM_OPT=${SCOPE_SPEEDSCOPE_WASM_OPT}"
        -C "${CMAKE_CURRENT_LIST_DIR}/hdf5-wasm.cmake"
        <SOURCE_DIR>
    BUILD_COMMAND ${_scope_ep_env} "${CMAKE_COMMAND}" --build <BINARY_DIR> --parallel ${_scope_cores}
    INSTALL_COMMAND "${CMAKE_COMMAND}" --install <BINARY_DIR>
      COMMAND "${CMAKE_COMMAND}" -E touch "${_scope_done}"
    BUILD_BYPRODUCTS "${SCOPE_SPEEDSCOPE_DEPS_PREFIX}/lib/libhdf5.a"
    LOG_CONFIGURE TRUE LOG_BUILD TRUE LOG_INSTALL TRUE LOG_OUTPUT_ON_FAILURE TRUE)
endif()

# Imported targets. Their include directory must exist at generate time.
file(MAKE_DIRECTORY "${SCOPE_SPEEDSCOPE_DEPS_PREFIX}/include")

add_library(wasm_deps::zlib STATIC IMPORTED GLOBAL)
set_target_properties(wasm_deps::zlib PROPERTIES
  IMPORTED_LOCATION "${SCOPE_SPEEDSCOPE_DEPS_PREFIX}/lib/libz.a"
  INTERFACE_INCLUDE_DIRECTORIES "${SCOPE_SPEEDSCOPE_DEPS_PREFIX}/include")

add_library(wasm_deps::hdf5 STATIC IMPORTED GLOBAL)
set_target_properties(wasm_deps::hdf5 PROPERTIES
  IMPORTED_LOCATION "${SCOPE_SPEEDSCOPE_DEPS_PREFIX}/lib/libhdf5.a"
  INTERFACE_INCLUDE_DIRECTORIES "${SCOPE_SPEEDSCOPE_DEPS_PREFIX}/include"
  INTERFACE_LINK_LIBRARIES wasm_deps::zlib)

if(TARGET wasm_deps_hdf5_build)
  add_dependencies(wasm_deps::zlib wasm_deps_zlib_build)
  add_dependencies(wasm_deps::hdf5 wasm_deps_hdf5_build)
endif()

# Header-only libraries from the host, through a directory of their own.
set(_scope_header_dir "${CMAKE_BINARY_DIR}/_deps/header-only/include")
file(MAKE_DIRECTORY "${_scope_header_dir}")
foreach(dir IN ITEMS nlohmann fmt)
  if(NOT IS_DIRECTORY "${SCOPE_SPEEDSCOPE_HOST_INCLUDE_DIR}/${dir}")
    message(FATAL_ERROR "wasm deps: ${SCOPE_SPEEDSCOPE_HOST_INCLUDE_DIR}/${dir} not found "
      "(apt-get install nlohmann-json3-dev libfmt-dev)")
  endif()
  set(link "${_scope_header_dir}/${dir}")
  if(IS_SYMLINK "${link}")
    file(READ_SYMLINK "${link}" old_target)
    if(NOT old_target STREQUAL "${SCOPE_SPEEDSCOPE_HOST_INCLUDE_DIR}/${dir}")
      file(REMOVE "${link}") # removes the link only
    endif()
  endif()
  if(NOT IS_SYMLINK "${link}")
    file(CREATE_LINK "${SCOPE_SPEEDSCOPE_HOST_INCLUDE_DIR}/${dir}" "${link}" SYMBOLIC)
  endif()
endforeach()

add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED GLOBAL)
set_target_properties(nlohmann_json::nlohmann_json PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES "${_scope_header_dir}")

add_library(fmt::fmt-header-only INTERFACE IMPORTED GLOBAL)
set_target_properties(fmt::fmt-header-only PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES "${_scope_header_dir}"
  INTERFACE_COMPILE_DEFINITIONS FMT_HEADER_ONLY=1)
