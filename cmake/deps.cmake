# cmake/deps.cmake: the third-party sources every build compiles itself, and
# where they are kept. Included by cmake/native-deps.cmake and
# cmake/wasm-deps.cmake.
#
# Sources are the upstream ("orig") tarballs of Debian source packages, each
# fetched once by exact name=version with `apt-get source --download-only`
# through a private apt configuration of that package's Debian release (its
# own sources, lists and cache under SCOPE_SPEEDSCOPE_DEPS_DIR/apt-<suite>),
# so the machine's own apt sources (deb-src or not, security updates or not)
# never change what is fetched and are never edited. Each tarball is checked
# against the SHA-256 pinned below (the values of Debian's .dsc):
#   hdf5  1.14.5+repack-3   Debian 13 (trixie), both builds;
#   zlib  1:1.2.13.dfsg-1   Debian 12 (bookworm), wasm only (natively
#                           Debian's zlib1g-dev);
#   pcre2 10.42-1           Debian 12 (bookworm), wasm only (natively
#                           Debian's libpcre2-dev, the same version);
#   libzstd 1.5.4+dfsg2-5   Debian 12 (bookworm), both builds: Zstandard's
#                           decoder (cmake/decoders.cmake);
#   liblzf 3.6-3            Debian 12 (bookworm), both builds: LZF's decoder.
# Patches we carry on top of them live in cmake/patches/ (each says why).
#
# SCOPE_SPEEDSCOPE_DEPS_DIR keeps the tarballs and the libraries built from
# them (under a key of everything that shapes them, see
# scope_speedscope_deps_key). It defaults to the environment variable of that
# name, else to the per-user cache folder ($XDG_CACHE_HOME, else ~/.cache)
# /scope-speedscope/deps, shared by every clone and build tree of the user.
# Two builds at once are safe: fetches take a lock, and a library is built
# into a folder of its own build tree and moved into the cache in one rename
# under that lock (scope_speedscope_commit_command), so a build that is killed
# leaves no half-written entry.
include_guard(GLOBAL)
cmake_minimum_required(VERSION 3.22)
if(NOT CMAKE_SCRIPT_MODE_FILE) # cmake -P (check-sources.cmake) builds nothing
  include(ExternalProject)
endif()
# (Each ExternalProject_Add says DOWNLOAD_EXTRACT_TIMESTAMP FALSE: re-extracted
# sources get fresh timestamps, so a new tarball rebuilds fully.)

if(DEFINED ENV{SCOPE_SPEEDSCOPE_DEPS_DIR} AND NOT "$ENV{SCOPE_SPEEDSCOPE_DEPS_DIR}" STREQUAL "")
  set(_scope_deps_dir_default "$ENV{SCOPE_SPEEDSCOPE_DEPS_DIR}")
elseif(DEFINED ENV{XDG_CACHE_HOME} AND IS_ABSOLUTE "$ENV{XDG_CACHE_HOME}")
  set(_scope_deps_dir_default "$ENV{XDG_CACHE_HOME}/scope-speedscope/deps")
elseif(DEFINED ENV{HOME} AND NOT "$ENV{HOME}" STREQUAL "")
  set(_scope_deps_dir_default "$ENV{HOME}/.cache/scope-speedscope/deps")
else()
  set(_scope_deps_dir_default "${CMAKE_BINARY_DIR}/_deps/cache")
endif()
set(SCOPE_SPEEDSCOPE_DEPS_DIR "${_scope_deps_dir_default}" CACHE PATH
  "Keeps the Debian orig tarballs of HDF5, zlib, PCRE2, libzstd and liblzf and what is built from them")
file(MAKE_DIRECTORY "${SCOPE_SPEEDSCOPE_DEPS_DIR}")

# Debian source package, its exact version, the release (suite) that has it,
# its orig tarball and the tarball's SHA-256.
set(SCOPE_SPEEDSCOPE_HDF5_PACKAGE hdf5)
set(SCOPE_SPEEDSCOPE_HDF5_VERSION 1.14.5+repack-3)
set(SCOPE_SPEEDSCOPE_HDF5_SUITE trixie)
set(SCOPE_SPEEDSCOPE_HDF5_TARBALL hdf5_1.14.5+repack.orig.tar.gz)
set(SCOPE_SPEEDSCOPE_HDF5_SHA256 71cdb04c151ef4e8a7f88907adfc4f3b75afd44e96fbd55775e1c9d7c4e7c112)
# Applied in this order by the HDF5 builds (native and wasm).
set(SCOPE_SPEEDSCOPE_HDF5_PATCHES
  "${CMAKE_CURRENT_LIST_DIR}/patches/hdf5-1.14.5-global-heap-sizes.patch"
  "${CMAKE_CURRENT_LIST_DIR}/patches/hdf5-1.14.5-fe-invalid.patch"
  "${CMAKE_CURRENT_LIST_DIR}/patches/hdf5-1.14.5-deflate-replaceable.patch"
  "${CMAKE_CURRENT_LIST_DIR}/patches/hdf5-1.14.5-layout-init-undone.patch"
  "${CMAKE_CURRENT_LIST_DIR}/patches/hdf5-1.14.5-local-heap-free-list.patch"
  "${CMAKE_CURRENT_LIST_DIR}/patches/hdf5-1.14.5-attribute-data-size.patch"
  "${CMAKE_CURRENT_LIST_DIR}/patches/hdf5-1.14.5-filtered-chunk-size.patch")

set(SCOPE_SPEEDSCOPE_ZLIB_PACKAGE zlib)
set(SCOPE_SPEEDSCOPE_ZLIB_VERSION 1:1.2.13.dfsg-1)
set(SCOPE_SPEEDSCOPE_ZLIB_SUITE bookworm)
set(SCOPE_SPEEDSCOPE_ZLIB_TARBALL zlib_1.2.13.dfsg.orig.tar.bz2)
set(SCOPE_SPEEDSCOPE_ZLIB_SHA256 71feb7947e3c00ef125f83b79a4e529bde31171e5babe48b391f06758d1ab0a1)

set(SCOPE_SPEEDSCOPE_PCRE2_PACKAGE pcre2)
set(SCOPE_SPEEDSCOPE_PCRE2_VERSION 10.42-1)
set(SCOPE_SPEEDSCOPE_PCRE2_SUITE bookworm)
set(SCOPE_SPEEDSCOPE_PCRE2_TARBALL pcre2_10.42.orig.tar.gz)
set(SCOPE_SPEEDSCOPE_PCRE2_SHA256 c33b418e3b936ee3153de2c61cc638e7e4fe3156022a5c77d0711bcbb9d64f1f)

# The decoders of HDF5 filters 32000 (LZF) and 32015 (Zstandard): compiled
# from these sources into every build, native and wasm alike (so both decode
# with the same code), by cmake/decoders.cmake.
set(SCOPE_SPEEDSCOPE_ZSTD_PACKAGE libzstd)
set(SCOPE_SPEEDSCOPE_ZSTD_VERSION 1.5.4+dfsg2-5)
set(SCOPE_SPEEDSCOPE_ZSTD_SUITE bookworm)
set(SCOPE_SPEEDSCOPE_ZSTD_TARBALL libzstd_1.5.4+dfsg2.orig.tar.xz)
set(SCOPE_SPEEDSCOPE_ZSTD_SHA256 8cf4bbb65e77ec348d052c8d6230eba66d435bddf64c8b5be2fcb16880c19953)

set(SCOPE_SPEEDSCOPE_LZF_PACKAGE liblzf)
set(SCOPE_SPEEDSCOPE_LZF_VERSION 3.6-3)
set(SCOPE_SPEEDSCOPE_LZF_SUITE bookworm)
set(SCOPE_SPEEDSCOPE_LZF_TARBALL liblzf_3.6.orig.tar.gz)
set(SCOPE_SPEEDSCOPE_LZF_SHA256 9c5de01f7b9ccae40c3f619d26a7abec9986c06c36d260c179cedd04b89fb46a)

# Every pinned source package, for scripts/check-sources.sh and the tests.
set(SCOPE_SPEEDSCOPE_SOURCE_PACKAGES HDF5 ZLIB PCRE2 ZSTD LZF)

# The mirror and keyring of the private apt configurations. The environment
# variables of these names override them for one configure (they are not
# kept in the CMake cache, so a configure after one with a wrong mirror uses
# the right one again).
set(SCOPE_SPEEDSCOPE_APT_URI "http://deb.debian.org/debian")
set(SCOPE_SPEEDSCOPE_APT_KEYRING "/usr/share/keyrings/debian-archive-keyring.gpg")
foreach(v IN ITEMS SCOPE_SPEEDSCOPE_APT_URI SCOPE_SPEEDSCOPE_APT_KEYRING)
  if(DEFINED ENV{${v}} AND NOT "$ENV{${v}}" STREQUAL "")
    set(${v} "$ENV{${v}}")
  endif()
endforeach()
find_program(SCOPE_SPEEDSCOPE_APT_GET apt-get DOC "apt-get, fetches Debian source packages")

# Sets <options_var> to the apt-get options of the private apt configuration
# of <suite> (deb-src only, the machine's source list ignored): its own
# sources, lists and cache folders under <deps_dir>/apt-<suite>. Writes the
# configuration; does not run `apt-get update`.
function(scope_speedscope_private_apt deps_dir suite options_var)
  set(root "${deps_dir}/apt-${suite}")
  file(MAKE_DIRECTORY "${root}/sources" "${root}/lists/partial" "${root}/cache/archives/partial")
  file(WRITE "${root}/sources/${suite}.sources"
    "Types: deb-src\n"
    "URIs: ${SCOPE_SPEEDSCOPE_APT_URI}\n"
    "Suites: ${suite}\n"
    "Components: main\n"
    "Signed-By: ${SCOPE_SPEEDSCOPE_APT_KEYRING}\n")
  set(${options_var}
    -o "Dir::Etc::SourceList=/dev/null"
    -o "Dir::Etc::SourceParts=${root}/sources"
    -o "Dir::State::Lists=${root}/lists"
    -o "Dir::Cache=${root}/cache"
    PARENT_SCOPE)
endfunction()

# Sets <out_var> to the one shell command that fetches <package>=<version>'s
# orig tarball by hand into <dir> through the private configuration.
function(_scope_speedscope_fetch_command apt_get deps_dir package version suite dir out_var)
  scope_speedscope_private_apt("${deps_dir}" "${suite}" options)
  set(quoted "")
  foreach(o IN LISTS options)
    if(o STREQUAL "-o")
      string(APPEND quoted " -o")
    else()
      string(APPEND quoted " '${o}'")
    endif()
  endforeach()
  set(${out_var}
    "${apt_get}${quoted} update && cd '${dir}' && ${apt_get}${quoted} source --download-only --only-source '${package}=${version}'"
    PARENT_SCOPE)
endfunction()

# Sets <out_var> to the path of <tarball> in <dir> (default
# SCOPE_SPEEDSCOPE_DEPS_DIR), fetching `<package>=<version>` from <suite>
# through the private apt configuration first when it is missing or its hash
# is wrong. Fails with a message that names the tarball, its SHA-256, the
# command that fetches it by hand and the folder to put it in.
#   scope_speedscope_fetch_orig(<package> <version> <suite> <tarball> <sha256> <out_var> [DIR <dir>])
function(scope_speedscope_fetch_orig package version suite tarball sha256 out_var)
  cmake_parse_arguments(ARG "" "DIR" "" ${ARGN})
  set(dir "${SCOPE_SPEEDSCOPE_DEPS_DIR}")
  if(ARG_DIR)
    set(dir "${ARG_DIR}")
  endif()
  set(path "${dir}/${tarball}")
  set(${out_var} "${path}" PARENT_SCOPE)
  file(MAKE_DIRECTORY "${dir}")
  # One fetch at a time per folder (two builds at once share the lists).
  file(LOCK "${dir}/fetch.lock" GUARD FUNCTION TIMEOUT 1800 RESULT_VARIABLE lock_rc)
  if(NOT lock_rc EQUAL 0)
    message(FATAL_ERROR "deps: cannot lock ${dir}/fetch.lock: ${lock_rc}")
  endif()
  if(EXISTS "${path}")
    file(SHA256 "${path}" actual)
    if(actual STREQUAL sha256)
      return()
    endif()
    message(STATUS "deps: ${path} has SHA-256 ${actual}, not ${sha256}; fetching it again")
    file(REMOVE "${path}")
  endif()

  set(apt_get "${SCOPE_SPEEDSCOPE_APT_GET}")
  if(NOT apt_get)
    set(apt_get apt-get)
  endif()
  _scope_speedscope_fetch_command("${apt_get}" "${dir}" "${package}" "${version}" "${suite}" "${dir}" by_hand)
  string(CONCAT help "\nIt is Debian's source package ${package}=${version} (${suite}): "
    "put ${tarball} (SHA-256 ${sha256}) into ${dir}, for example with\n  ${by_hand}\n"
    "then build again.")

  set(log "")
  set(rc "")
  if(SCOPE_SPEEDSCOPE_APT_GET)
    scope_speedscope_private_apt("${dir}" "${suite}" options)
    message(STATUS "deps: fetching ${package}=${version} from Debian ${suite} (private apt configuration in ${dir}/apt-${suite})")
    execute_process(
      COMMAND "${apt_get}" ${options} update
      RESULT_VARIABLE rc OUTPUT_VARIABLE update_log ERROR_VARIABLE update_log)
    string(APPEND log "$ apt-get update (exit ${rc})\n${update_log}")
    # A folder of this process's own: apt-get also fetches the .dsc and the
    # Debian changes; only the orig tarball is kept, and the hash decides.
    string(RANDOM LENGTH 10 token)
    set(tmp "${dir}/.fetch-${package}-${token}")
    file(MAKE_DIRECTORY "${tmp}")
    execute_process(
      COMMAND "${apt_get}" ${options} source --download-only --only-source "${package}=${version}"
      WORKING_DIRECTORY "${tmp}"
      RESULT_VARIABLE rc OUTPUT_VARIABLE source_log ERROR_VARIABLE source_log)
    string(APPEND log "$ apt-get source --download-only --only-source ${package}=${version} (exit ${rc})\n${source_log}")
    if(EXISTS "${tmp}/${tarball}")
      file(SHA256 "${tmp}/${tarball}" actual)
      if(actual STREQUAL sha256)
        file(RENAME "${tmp}/${tarball}" "${path}")
        file(REMOVE_RECURSE "${tmp}")
        return()
      endif()
      file(REMOVE_RECURSE "${tmp}")
      message(FATAL_ERROR "deps: ${tarball} as fetched has SHA-256 ${actual}, expected ${sha256}.${help}\n${log}")
    endif()
    file(REMOVE_RECURSE "${tmp}")
    message(FATAL_ERROR "deps: could not fetch ${tarball}.${help}\n${log}")
  endif()
  message(FATAL_ERROR "deps: apt-get not found, so ${tarball} could not be fetched.${help}")
endfunction()

# Fetches the pinned source package <NAME> (HDF5, ZLIB, PCRE2: the variables
# SCOPE_SPEEDSCOPE_<NAME>_*) and sets <out_var> to its tarball's path.
#   scope_speedscope_fetch_pinned(<NAME> <out_var> [DIR <dir>])
function(scope_speedscope_fetch_pinned name out_var)
  scope_speedscope_fetch_orig(
    "${SCOPE_SPEEDSCOPE_${name}_PACKAGE}" "${SCOPE_SPEEDSCOPE_${name}_VERSION}"
    "${SCOPE_SPEEDSCOPE_${name}_SUITE}" "${SCOPE_SPEEDSCOPE_${name}_TARBALL}"
    "${SCOPE_SPEEDSCOPE_${name}_SHA256}" path ${ARGN})
  set(${out_var} "${path}" PARENT_SCOPE)
endfunction()

# Sets <out_var> to the folder a library is installed into before it moves
# to <prefix>: beside it in the cache (so that the move is one rename on one
# file system), and this build tree's own.
function(scope_speedscope_staging_dir prefix out_var)
  string(SHA256 tree "${CMAKE_BINARY_DIR}")
  string(SUBSTRING "${tree}" 0 8 tree)
  set(${out_var} "${prefix}.partial-${tree}" PARENT_SCOPE)
endfunction()

# Sets <out_var> to the command (for an ExternalProject's INSTALL_COMMAND,
# after the install itself) that moves the library installed in <staging>
# to <prefix> in one rename under the cache's lock, and marks it complete.
# When another build has completed <prefix> meanwhile, that one is kept.
function(scope_speedscope_commit_command staging prefix out_var)
  set(${out_var}
    "${CMAKE_COMMAND}" "-DSTAGING=${staging}" "-DPREFIX=${prefix}"
    "-DLOCK=${SCOPE_SPEEDSCOPE_DEPS_DIR}/install.lock"
    -P "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/deps-commit.cmake"
    PARENT_SCOPE)
endfunction()

# Sets <out_var> to a 12-digit key of everything that shapes a built
# library: the given strings (tarball hash, compiler, flags) and the contents
# of the given files (options cache, patches, the including file). How a
# tarball is fetched does not shape it, so this file is not part of the key.
function(scope_speedscope_deps_key out_var)
  cmake_parse_arguments(ARG "" "" "STRINGS;FILES" ${ARGN})
  set(parts ${ARG_STRINGS})
  foreach(f IN LISTS ARG_FILES)
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
