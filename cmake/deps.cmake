# cmake/deps.cmake: the third-party sources every build compiles itself, and
# where they are kept. Included by cmake/native-deps.cmake and
# cmake/wasm-deps.cmake.
#
# Sources are the upstream ("orig") tarballs of Debian source packages,
# fetched once with `apt-get source --download-only` and checked against the
# SHA-256 pinned below (the values of Debian's .dsc):
#   hdf5 1.14.5   Debian 13 (trixie), fetched through a private apt
#                 configuration (see _scope_speedscope_private_apt) so that the
#                 machine's own sources (Debian 12) stay untouched;
#   zlib 1.2.13   Debian 12, wasm only (natively Debian's zlib1g-dev);
#   pcre2 10.42   Debian 12, wasm only (natively Debian's libpcre2-dev, the
#                 same version).
# Patches we carry on top of them live in cmake/patches/ (each says why).
#
# SCOPE_SPEEDSCOPE_DEPS_DIR keeps the tarballs and the libraries built from
# them (under a key of everything that shapes them, see
# scope_speedscope_deps_key). It defaults to the environment variable of that
# name, else to ${CMAKE_BINARY_DIR}/_deps/cache; point it outside the build
# tree (e.g. ~/.cache/scope-speedscope-deps) to share it between build trees
# and clean clones. Without apt (or without network), put the tarballs there
# by hand.
include_guard(GLOBAL)
include(ExternalProject)
# (Each ExternalProject_Add says DOWNLOAD_EXTRACT_TIMESTAMP FALSE: re-extracted
# sources get fresh timestamps, so a new tarball rebuilds fully.)

if(DEFINED ENV{SCOPE_SPEEDSCOPE_DEPS_DIR})
  set(_scope_deps_dir_default "$ENV{SCOPE_SPEEDSCOPE_DEPS_DIR}")
else()
  set(_scope_deps_dir_default "${CMAKE_BINARY_DIR}/_deps/cache")
endif()
set(SCOPE_SPEEDSCOPE_DEPS_DIR "${_scope_deps_dir_default}" CACHE PATH
  "Keeps the Debian orig tarballs of HDF5, zlib and PCRE2 and the libraries built from them")

# Debian source package, suite (empty: the machine's own apt sources), orig
# tarball and its SHA-256.
set(SCOPE_SPEEDSCOPE_HDF5_PACKAGE hdf5)
set(SCOPE_SPEEDSCOPE_HDF5_SUITE trixie)
set(SCOPE_SPEEDSCOPE_HDF5_TARBALL hdf5_1.14.5+repack.orig.tar.gz)
set(SCOPE_SPEEDSCOPE_HDF5_SHA256 71cdb04c151ef4e8a7f88907adfc4f3b75afd44e96fbd55775e1c9d7c4e7c112)
# Applied in this order by the HDF5 builds (native and wasm).
set(SCOPE_SPEEDSCOPE_HDF5_PATCHES
  "${CMAKE_CURRENT_LIST_DIR}/patches/hdf5-1.14.5-global-heap-sizes.patch"
  "${CMAKE_CURRENT_LIST_DIR}/patches/hdf5-1.14.5-fe-invalid.patch")

set(SCOPE_SPEEDSCOPE_ZLIB_PACKAGE zlib)
set(SCOPE_SPEEDSCOPE_ZLIB_SUITE "")
set(SCOPE_SPEEDSCOPE_ZLIB_TARBALL zlib_1.2.13.dfsg.orig.tar.bz2)
set(SCOPE_SPEEDSCOPE_ZLIB_SHA256 71feb7947e3c00ef125f83b79a4e529bde31171e5babe48b391f06758d1ab0a1)

set(SCOPE_SPEEDSCOPE_PCRE2_PACKAGE pcre2)
set(SCOPE_SPEEDSCOPE_PCRE2_SUITE "")
set(SCOPE_SPEEDSCOPE_PCRE2_TARBALL pcre2_10.42.orig.tar.gz)
set(SCOPE_SPEEDSCOPE_PCRE2_SHA256 c33b418e3b936ee3153de2c61cc638e7e4fe3156022a5c77d0711bcbb9d64f1f)

# The Debian release a private apt configuration points at: its deb-src line
# uses the same mirror and keyring as the machine's own
# /etc/apt/sources.list.d/debian.sources (read from there when it exists).
set(SCOPE_SPEEDSCOPE_APT_URI "http://deb.debian.org/debian" CACHE STRING
  "Debian mirror for source packages of other releases (private apt configuration)")
set(SCOPE_SPEEDSCOPE_APT_KEYRING "/usr/share/keyrings/debian-archive-keyring.gpg" CACHE FILEPATH
  "Keyring that signs that mirror")

# Sets <out_var> to the folder of a private apt configuration for <suite>
# (deb-src only), after `apt-get update` on it: its own sources, lists and
# cache folders under SCOPE_SPEEDSCOPE_DEPS_DIR/apt-<suite>. Sets
# <options_var> to the apt-get options that select it.
function(_scope_speedscope_private_apt apt_get suite options_var)
  set(root "${SCOPE_SPEEDSCOPE_DEPS_DIR}/apt-${suite}")
  file(MAKE_DIRECTORY "${root}/sources" "${root}/lists/partial" "${root}/cache/archives/partial")
  file(WRITE "${root}/sources/${suite}.sources"
    "Types: deb-src\n"
    "URIs: ${SCOPE_SPEEDSCOPE_APT_URI}\n"
    "Suites: ${suite}\n"
    "Components: main\n"
    "Signed-By: ${SCOPE_SPEEDSCOPE_APT_KEYRING}\n")
  set(options
    -o "Dir::Etc::SourceList=/dev/null"
    -o "Dir::Etc::SourceParts=${root}/sources"
    -o "Dir::State::Lists=${root}/lists"
    -o "Dir::Cache=${root}/cache")
  message(STATUS "deps: apt-get update (private configuration for ${suite} sources in ${root})")
  execute_process(
    COMMAND "${apt_get}" ${options} update
    RESULT_VARIABLE rc
    OUTPUT_VARIABLE log
    ERROR_VARIABLE log)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "deps: `apt-get update` for ${suite} sources failed (exit ${rc}):\n${log}")
  endif()
  set(${options_var} ${options} PARENT_SCOPE)
endfunction()

# Sets <out_var> to the path of <tarball> in SCOPE_SPEEDSCOPE_DEPS_DIR,
# downloading it with `apt-get source --download-only <package>` first when
# it is missing or its hash is wrong. <suite> empty: the machine's apt
# sources (deb-src must be enabled; scripts/setup.sh does it); else a private
# configuration for that Debian release.
function(scope_speedscope_fetch_orig package suite tarball sha256 out_var)
  set(path "${SCOPE_SPEEDSCOPE_DEPS_DIR}/${tarball}")
  set(${out_var} "${path}" PARENT_SCOPE)
  if(EXISTS "${path}")
    file(SHA256 "${path}" actual)
    if(actual STREQUAL sha256)
      return()
    endif()
    message(STATUS "deps: ${path} has SHA-256 ${actual}, not ${sha256}; fetching it again")
    file(REMOVE "${path}")
  endif()

  find_program(SCOPE_SPEEDSCOPE_APT_GET apt-get)
  if(NOT SCOPE_SPEEDSCOPE_APT_GET)
    message(FATAL_ERROR "deps: apt-get not found; put ${tarball} "
      "(SHA-256 ${sha256}, from Debian's `${package}` source package) into ${SCOPE_SPEEDSCOPE_DEPS_DIR}")
  endif()
  set(apt_options "")
  if(suite)
    _scope_speedscope_private_apt("${SCOPE_SPEEDSCOPE_APT_GET}" "${suite}" apt_options)
  endif()
  # apt-get also fetches the .dsc and the Debian changes; only the orig
  # tarball is kept. It may fail on those (a security update whose .dsc the
  # mirror no longer has) after the tarball arrived: the hash decides.
  set(tmp "${SCOPE_SPEEDSCOPE_DEPS_DIR}/apt-get-source-${package}")
  file(REMOVE_RECURSE "${tmp}")
  file(MAKE_DIRECTORY "${tmp}")
  message(STATUS "deps: apt-get source --download-only ${package} ${suite}")
  execute_process(
    COMMAND "${SCOPE_SPEEDSCOPE_APT_GET}" ${apt_options} source --download-only --only-source ${package}
    WORKING_DIRECTORY "${tmp}"
    RESULT_VARIABLE rc
    OUTPUT_VARIABLE log
    ERROR_VARIABLE log)
  if(NOT EXISTS "${tmp}/${tarball}")
    file(GLOB got RELATIVE "${tmp}" "${tmp}/*")
    message(FATAL_ERROR "deps: `apt-get source --download-only ${package}` "
      "(exit ${rc}) did not give ${tarball}; got: ${got}\n${log}\n"
      "Enable deb-src in /etc/apt/sources.list.d/debian.sources and run "
      "`apt-get update` (scripts/setup.sh does both), or put ${tarball} into "
      "${SCOPE_SPEEDSCOPE_DEPS_DIR}.")
  endif()
  file(SHA256 "${tmp}/${tarball}" actual)
  if(NOT actual STREQUAL sha256)
    message(FATAL_ERROR "deps: ${tarball} from apt has SHA-256 ${actual}, expected ${sha256}")
  endif()
  file(RENAME "${tmp}/${tarball}" "${path}")
  file(REMOVE_RECURSE "${tmp}")
endfunction()

# Sets <out_var> to a 12-digit key of everything that shapes a built
# library: the given strings and the contents of the given files (options
# cache, patches, this file, the including file).
function(scope_speedscope_deps_key out_var)
  cmake_parse_arguments(ARG "" "" "STRINGS;FILES" ${ARGN})
  set(parts ${ARG_STRINGS})
  foreach(f IN LISTS ARG_FILES ITEMS "${CMAKE_CURRENT_FUNCTION_LIST_FILE}")
    file(SHA256 "${f}" sha)
    list(APPEND parts "${sha}")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${f}")
  endforeach()
  string(SHA256 key "${parts}")
  string(SUBSTRING "${key}" 0 12 key)
  set(${out_var} "${key}" PARENT_SCOPE)
endfunction()

# The PATCH_COMMAND that applies SCOPE_SPEEDSCOPE_HDF5_PATCHES in the source tree.
function(scope_speedscope_hdf5_patch_command out_var)
  find_program(SCOPE_SPEEDSCOPE_PATCH patch REQUIRED DOC "patch(1), applies cmake/patches/")
  set(cmd "")
  foreach(p IN LISTS SCOPE_SPEEDSCOPE_HDF5_PATCHES)
    if(cmd)
      list(APPEND cmd COMMAND)
    endif()
    list(APPEND cmd "${SCOPE_SPEEDSCOPE_PATCH}" -p1 --forward --batch -i "${p}")
  endforeach()
  set(${out_var} ${cmd} PARENT_SCOPE)
endfunction()
