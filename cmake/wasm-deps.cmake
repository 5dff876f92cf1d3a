# cmake/wasm-deps.cmake: HDF5 1.14.5, zlib 1.2.13 and PCRE2 10.42 for
# WebAssembly, built from Debian's source packages as part of this project's
# build.
#
# Included by the top-level CMakeLists.txt only when EMSCRIPTEN is true. It
#  1. fetches, at configure time, the orig tarballs (cmake/deps.cmake: pinned
#     SHA-256, apt-get source, kept in SCOPE_SPEEDSCOPE_DEPS_DIR) unless the
#     libraries are built already (see 2);
#  2. builds, at build time, zlib (emconfigure ./configure --static; emmake
#     make install), PCRE2 (CMake, options in cmake/pcre2-wasm.cmake) and then
#     HDF5 (CMake with the parent's Emscripten toolchain file, the options in
#     cmake/hdf5-wasm.cmake and the patches of cmake/patches/) as
#     ExternalProjects in ${CMAKE_BINARY_DIR}/_deps/wasm-<library>-<key>,
#     each installed into SCOPE_SPEEDSCOPE_DEPS_DIR/wasm-<library>-<key>,
#     where <key> hashes its tarball, its options and patches, these files,
#     the Emscripten version and SCOPE_SPEEDSCOPE_WASM_OPT (HDF5's key also
#     zlib's). A later configure that finds a prefix complete uses it and
#     builds nothing: HDF5's configure runs ~150 checks, each an emcc link,
#     which takes minutes here;
#  3. defines the imported targets
#       deps::zlib, deps::hdf5, deps::pcre2  static libraries with their
#                                            headers; linking them orders
#                                            the build after the
#                                            ExternalProjects
#       nlohmann_json::nlohmann_json         header-only, the same names as
#       fmt::fmt-header-only                 the native packages' targets
#     The Emscripten sysroot hides /usr/include (and -I/usr/include breaks the
#     build), so the last two point at a build-tree directory that holds only
#     links to /usr/include/nlohmann and /usr/include/fmt.
include_guard(GLOBAL)

if(NOT EMSCRIPTEN)
  message(FATAL_ERROR "cmake/wasm-deps.cmake is for Emscripten builds only")
endif()

include("${CMAKE_CURRENT_LIST_DIR}/deps.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/wasm.cmake") # SCOPE_SPEEDSCOPE_EM_NODE_PATH, _NODE, _WASM_OPT

set(SCOPE_SPEEDSCOPE_HOST_INCLUDE_DIR "/usr/include" CACHE PATH
  "Host directory holding the header-only nlohmann/ and fmt/ (apt: nlohmann-json3-dev, libfmt-dev)")

# HDF5's configure checks run the programs Emscripten emits (CommonJS .js
# files) under Node. Node takes a .js file's module kind from the nearest
# package.json, and this project's says "type": "module": shield them.
file(WRITE "${CMAKE_BINARY_DIR}/_deps/package.json" "{ \"type\": \"commonjs\" }\n")

# The nested builds run in their own environment: NODE_PATH for emcc, and
# no MAKEFLAGS from an outer make (its job server is not passed to them).
# Logs are shown on failure only.
set(_scope_ep_env "${CMAKE_COMMAND}" -E env --unset=MAKEFLAGS --unset=MFLAGS
  "NODE_PATH=${SCOPE_SPEEDSCOPE_EM_NODE_PATH}")
cmake_host_system_information(RESULT _scope_cores QUERY NUMBER_OF_LOGICAL_CORES)
set(_scope_common_key "${EMSCRIPTEN_VERSION};${SCOPE_SPEEDSCOPE_WASM_OPT}")

# _scope_wasm_dep(<name> <key> <prefix_var> <todo_var>): the install prefix of
# library <name> built under <key>; <todo_var> is true when it must be built.
# Removes this build tree's ExternalProject folders of other keys.
function(_scope_wasm_dep name key prefix_var todo_var)
  set(prefix "${SCOPE_SPEEDSCOPE_DEPS_DIR}/wasm-${name}-${key}")
  set(${prefix_var} "${prefix}" PARENT_SCOPE)
  file(GLOB stale LIST_DIRECTORIES TRUE "${CMAKE_BINARY_DIR}/_deps/wasm-${name}-*")
  list(REMOVE_ITEM stale "${CMAKE_BINARY_DIR}/_deps/wasm-${name}-${key}")
  if(stale)
    file(REMOVE_RECURSE ${stale})
  endif()
  file(MAKE_DIRECTORY "${prefix}/include")
  scope_speedscope_staging_dir("${prefix}" staging)
  set(${prefix_var}_STAGING "${staging}" PARENT_SCOPE)
  if(EXISTS "${prefix}/complete.stamp")
    message(STATUS "deps: reusing ${name} in ${prefix}")
    set(${todo_var} FALSE PARENT_SCOPE)
  else()
    message(STATUS "deps: ${name} will be built into ${prefix}")
    set(${todo_var} TRUE PARENT_SCOPE)
  endif()
endfunction()

# ---- zlib ---------------------------------------------------------------------
scope_speedscope_deps_key(_scope_zlib_key
  STRINGS "${SCOPE_SPEEDSCOPE_ZLIB_SHA256}" "${_scope_common_key}"
  FILES "${CMAKE_CURRENT_LIST_FILE}")
_scope_wasm_dep(zlib ${_scope_zlib_key} _scope_zlib_prefix _scope_zlib_todo)
if(_scope_zlib_todo)
  scope_speedscope_fetch_pinned(ZLIB _scope_zlib_archive)
  scope_speedscope_commit_command("${_scope_zlib_prefix_STAGING}" "${_scope_zlib_prefix}" _scope_zlib_commit)
  ExternalProject_Add(deps_zlib_build
    URL "${_scope_zlib_archive}"
    URL_HASH SHA256=${SCOPE_SPEEDSCOPE_ZLIB_SHA256}
    DOWNLOAD_EXTRACT_TIMESTAMP FALSE
    PREFIX "${CMAKE_BINARY_DIR}/_deps/wasm-zlib-${_scope_zlib_key}"
    INSTALL_DIR "${_scope_zlib_prefix_STAGING}"
    BUILD_IN_SOURCE TRUE
    CONFIGURE_COMMAND ${_scope_ep_env} "CFLAGS=${SCOPE_SPEEDSCOPE_WASM_OPT}"
      emconfigure ./configure --static --prefix=<INSTALL_DIR>
    BUILD_COMMAND ${_scope_ep_env} emmake make libz.a
    INSTALL_COMMAND ${_scope_ep_env} emmake make install
      COMMAND ${_scope_zlib_commit}
    BUILD_BYPRODUCTS "${_scope_zlib_prefix}/lib/libz.a"
    LOG_CONFIGURE TRUE LOG_BUILD TRUE LOG_INSTALL TRUE LOG_OUTPUT_ON_FAILURE TRUE)
endif()

# ---- PCRE2 --------------------------------------------------------------------
scope_speedscope_deps_key(_scope_pcre2_key
  STRINGS "${SCOPE_SPEEDSCOPE_PCRE2_SHA256}" "${_scope_common_key}"
  FILES "${CMAKE_CURRENT_LIST_FILE}" "${CMAKE_CURRENT_LIST_DIR}/pcre2-wasm.cmake")
_scope_wasm_dep(pcre2 ${_scope_pcre2_key} _scope_pcre2_prefix _scope_pcre2_todo)
if(_scope_pcre2_todo)
  scope_speedscope_fetch_pinned(PCRE2 _scope_pcre2_archive)
  scope_speedscope_commit_command("${_scope_pcre2_prefix_STAGING}" "${_scope_pcre2_prefix}" _scope_pcre2_commit)
  ExternalProject_Add(deps_pcre2_build
    URL "${_scope_pcre2_archive}"
    URL_HASH SHA256=${SCOPE_SPEEDSCOPE_PCRE2_SHA256}
    DOWNLOAD_EXTRACT_TIMESTAMP FALSE
    PREFIX "${CMAKE_BINARY_DIR}/_deps/wasm-pcre2-${_scope_pcre2_key}"
    INSTALL_DIR "${_scope_pcre2_prefix_STAGING}"
    CONFIGURE_COMMAND "${CMAKE_COMMAND}" -E rm -f <BINARY_DIR>/CMakeCache.txt
      COMMAND ${_scope_ep_env} "${CMAKE_COMMAND}"
        -G "${CMAKE_GENERATOR}" "-DCMAKE_MAKE_PROGRAM=${CMAKE_MAKE_PROGRAM}"
        "-DCMAKE_TOOLCHAIN_FILE=${CMAKE_TOOLCHAIN_FILE}"
        "-DSCOPE_SPEEDSCOPE_DEPS_PREFIX=<INSTALL_DIR>"
        "-DSCOPE_SPEEDSCOPE_WASM_OPT=${SCOPE_SPEEDSCOPE_WASM_OPT}"
        -C "${CMAKE_CURRENT_LIST_DIR}/pcre2-wasm.cmake"
        <SOURCE_DIR>
    BUILD_COMMAND ${_scope_ep_env} "${CMAKE_COMMAND}" --build <BINARY_DIR> --parallel ${_scope_cores}
    INSTALL_COMMAND "${CMAKE_COMMAND}" --install <BINARY_DIR>
      COMMAND ${_scope_pcre2_commit}
    BUILD_BYPRODUCTS "${_scope_pcre2_prefix}/lib/libpcre2-8.a"
    LOG_CONFIGURE TRUE LOG_BUILD TRUE LOG_INSTALL TRUE LOG_OUTPUT_ON_FAILURE TRUE)
endif()

# ---- HDF5 ---------------------------------------------------------------------
scope_speedscope_deps_key(_scope_hdf5_key
  STRINGS "${SCOPE_SPEEDSCOPE_HDF5_SHA256}" "${_scope_common_key}" "${_scope_zlib_key}"
  FILES "${CMAKE_CURRENT_LIST_FILE}" "${CMAKE_CURRENT_LIST_DIR}/hdf5-wasm.cmake"
        "${CMAKE_CURRENT_LIST_DIR}/hdf5-common.cmake" ${SCOPE_SPEEDSCOPE_HDF5_PATCHES})
_scope_wasm_dep(hdf5 ${_scope_hdf5_key} _scope_hdf5_prefix _scope_hdf5_todo)
if(_scope_hdf5_todo)
  scope_speedscope_fetch_pinned(HDF5 _scope_hdf5_archive)
  scope_speedscope_hdf5_patch_command(_scope_hdf5_patch)
  set(_scope_hdf5_depends "")
  if(TARGET deps_zlib_build)
    set(_scope_hdf5_depends DEPENDS deps_zlib_build)
  endif()
  scope_speedscope_commit_command("${_scope_hdf5_prefix_STAGING}" "${_scope_hdf5_prefix}" _scope_hdf5_commit)
  ExternalProject_Add(deps_hdf5_build
    URL "${_scope_hdf5_archive}"
    URL_HASH SHA256=${SCOPE_SPEEDSCOPE_HDF5_SHA256}
    DOWNLOAD_EXTRACT_TIMESTAMP FALSE
    PREFIX "${CMAKE_BINARY_DIR}/_deps/wasm-hdf5-${_scope_hdf5_key}"
    INSTALL_DIR "${_scope_hdf5_prefix_STAGING}"
    ${_scope_hdf5_depends}
    PATCH_COMMAND ${_scope_hdf5_patch}
    # A fresh cache each time, so that -C applies every option.
    CONFIGURE_COMMAND "${CMAKE_COMMAND}" -E rm -f <BINARY_DIR>/CMakeCache.txt
      COMMAND ${_scope_ep_env} "${CMAKE_COMMAND}"
        -G "${CMAKE_GENERATOR}" "-DCMAKE_MAKE_PROGRAM=${CMAKE_MAKE_PROGRAM}"
        "-DCMAKE_TOOLCHAIN_FILE=${CMAKE_TOOLCHAIN_FILE}"
        "-DSCOPE_SPEEDSCOPE_DEPS_PREFIX=<INSTALL_DIR>"
        "-DSCOPE_SPEEDSCOPE_ZLIB_PREFIX=${_scope_zlib_prefix}"
        "-DSCOPE_SPEEDSCOPE_NODE=${SCOPE_SPEEDSCOPE_NODE}"
        "-DSCOPE_SPEEDSCOPE_WASM_OPT=${SCOPE_SPEEDSCOPE_WASM_OPT}"
        -C "${CMAKE_CURRENT_LIST_DIR}/hdf5-wasm.cmake"
        <SOURCE_DIR>
    BUILD_COMMAND ${_scope_ep_env} "${CMAKE_COMMAND}" --build <BINARY_DIR> --parallel ${_scope_cores}
    INSTALL_COMMAND "${CMAKE_COMMAND}" --install <BINARY_DIR>
      COMMAND ${_scope_hdf5_commit}
    BUILD_BYPRODUCTS "${_scope_hdf5_prefix}/lib/libhdf5.a"
    LOG_CONFIGURE TRUE LOG_BUILD TRUE LOG_INSTALL TRUE LOG_OUTPUT_ON_FAILURE TRUE)
endif()

# ---- imported targets ---------------------------------------------------------
add_library(deps::zlib STATIC IMPORTED GLOBAL)
set_target_properties(deps::zlib PROPERTIES
  IMPORTED_LOCATION "${_scope_zlib_prefix}/lib/libz.a"
  INTERFACE_INCLUDE_DIRECTORIES "${_scope_zlib_prefix}/include")

add_library(deps::hdf5 STATIC IMPORTED GLOBAL)
set_target_properties(deps::hdf5 PROPERTIES
  IMPORTED_LOCATION "${_scope_hdf5_prefix}/lib/libhdf5.a"
  INTERFACE_INCLUDE_DIRECTORIES "${_scope_hdf5_prefix}/include"
  INTERFACE_LINK_LIBRARIES deps::zlib)

add_library(deps::pcre2 STATIC IMPORTED GLOBAL)
set_target_properties(deps::pcre2 PROPERTIES
  IMPORTED_LOCATION "${_scope_pcre2_prefix}/lib/libpcre2-8.a"
  INTERFACE_INCLUDE_DIRECTORIES "${_scope_pcre2_prefix}/include"
  INTERFACE_COMPILE_DEFINITIONS "PCRE2_CODE_UNIT_WIDTH=8;PCRE2_STATIC")

foreach(lib IN ITEMS zlib pcre2 hdf5)
  if(TARGET deps_${lib}_build)
    add_dependencies(deps::${lib} deps_${lib}_build)
  endif()
endforeach()

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
