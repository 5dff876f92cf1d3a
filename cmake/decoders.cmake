# cmake/decoders.cmake: the decoders behind HDF5 filters 32000 (LZF) and
# 32015 (Zstandard), which the reader registers with H5Zregister
# (src/core/read/h5_filters.cpp). Included by the top-level CMakeLists.txt in
# every build, native and wasm alike: both decode with the same code, and
# the sanitizer and fuzz presets instrument it like the project's own.
#
# Sources are Debian's source packages, fetched by exact version like HDF5's
# (cmake/deps.cmake: private apt configuration, pinned SHA-256, one lock) and
# unpacked once into the dependency cache (src-<package>-<hash>, moved in by
# one rename under the cache's lock: cmake/deps-commit.cmake). They are then
# compiled here as two small static libraries:
#   deps::zstd  libzstd's decompressor only (lib/common + lib/decompress):
#               no compressor, no dictionary builder, no legacy formats, no
#               threads, no assembly, one sequence decoder, and
#               cmake/patches/zstd-1.5.4-one-answer-32-and-64-bit.patch: the
#               native (64-bit) build decodes a damaged frame as the wasm
#               (32-bit) one does;
#   deps::lzf   liblzf's lzf_d.c (Marc Lehmann's LZF, the library h5py's LZF
#               filter embeds: liblzf is its upstream), input checks on.
include_guard(GLOBAL)

include("${CMAKE_CURRENT_LIST_DIR}/deps.cmake")

# Sets <out_var> to the folder that holds the unpacked sources of the pinned
# package <NAME> (ZSTD, LZF), fetching and unpacking them when missing, with
# the given patches applied (-p1 in <top>, the tarball's top folder): the
# folder's key hashes the tarball and the patches.
#   scope_speedscope_unpacked_sources(<NAME> <out_var> [TOP <top> PATCHES <file>...])
function(scope_speedscope_unpacked_sources name out_var)
  cmake_parse_arguments(ARG "" "TOP" "PATCHES" ${ARGN})
  string(TOLOWER "${SCOPE_SPEEDSCOPE_${name}_PACKAGE}" package)
  scope_speedscope_deps_key(key STRINGS "${SCOPE_SPEEDSCOPE_${name}_SHA256}" FILES ${ARG_PATCHES})
  set(prefix "${SCOPE_SPEEDSCOPE_DEPS_DIR}/src-${package}-${key}")
  set(${out_var} "${prefix}" PARENT_SCOPE)
  if(EXISTS "${prefix}/complete.stamp")
    return()
  endif()
  scope_speedscope_fetch_pinned(${name} archive)
  scope_speedscope_staging_dir("${prefix}" staging)
  file(REMOVE_RECURSE "${staging}")
  file(ARCHIVE_EXTRACT INPUT "${archive}" DESTINATION "${staging}")
  foreach(p IN LISTS ARG_PATCHES)
    find_program(SCOPE_SPEEDSCOPE_PATCH patch REQUIRED DOC "patch(1), applies cmake/patches/")
    execute_process(COMMAND "${SCOPE_SPEEDSCOPE_PATCH}" -p1 --forward --batch -i "${p}"
                    WORKING_DIRECTORY "${staging}/${ARG_TOP}" RESULT_VARIABLE rc
                    OUTPUT_VARIABLE out ERROR_VARIABLE out)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "deps: ${p} does not apply to ${package}:\n${out}")
    endif()
  endforeach()
  execute_process(
    COMMAND "${CMAKE_COMMAND}" "-DSTAGING=${staging}" "-DPREFIX=${prefix}"
            "-DLOCK=${SCOPE_SPEEDSCOPE_DEPS_DIR}/install.lock"
            -P "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/deps-commit.cmake"
    RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "deps: could not move the sources of ${package} into ${prefix}")
  endif()
endfunction()

# ---- Zstandard: decompression only -------------------------------------------
# The patch and ZSTD_FORCE_DECOMPRESS_SEQUENCES_SHORT make the 64-bit and the
# 32-bit (wasm) builds give one answer per damaged frame (the patch says how).
scope_speedscope_unpacked_sources(ZSTD _scope_zstd_root TOP zstd-1.5.4
  PATCHES "${CMAKE_CURRENT_LIST_DIR}/patches/zstd-1.5.4-one-answer-32-and-64-bit.patch")
set(_scope_zstd "${_scope_zstd_root}/zstd-1.5.4/lib")
add_library(scope_speedscope_zstd STATIC
  "${_scope_zstd}/common/debug.c"
  "${_scope_zstd}/common/entropy_common.c"
  "${_scope_zstd}/common/error_private.c"
  "${_scope_zstd}/common/fse_decompress.c"
  "${_scope_zstd}/common/xxhash.c"
  "${_scope_zstd}/common/zstd_common.c"
  "${_scope_zstd}/decompress/huf_decompress.c"
  "${_scope_zstd}/decompress/zstd_ddict.c"
  "${_scope_zstd}/decompress/zstd_decompress.c"
  "${_scope_zstd}/decompress/zstd_decompress_block.c")
target_include_directories(scope_speedscope_zstd SYSTEM PUBLIC "${_scope_zstd}")
target_compile_definitions(scope_speedscope_zstd
  PRIVATE XXH_NAMESPACE=ZSTD_ DEBUGLEVEL=0 ZSTD_LEGACY_SUPPORT=0 ZSTD_DISABLE_ASM ZSTD_TRACE=0
          ZSTD_FORCE_DECOMPRESS_SEQUENCES_SHORT)
set_target_properties(scope_speedscope_zstd PROPERTIES POSITION_INDEPENDENT_CODE ON)
add_library(deps::zstd ALIAS scope_speedscope_zstd)

# ---- LZF: the decompressor ----------------------------------------------------
scope_speedscope_unpacked_sources(LZF _scope_lzf_root)
set(_scope_lzf "${_scope_lzf_root}/liblzf-3.6")
add_library(scope_speedscope_lzf STATIC "${_scope_lzf}/lzf_d.c")
target_include_directories(scope_speedscope_lzf SYSTEM PUBLIC "${_scope_lzf}")
# CHECK_INPUT: a stream that runs past its input is refused (EINVAL), never
# read beyond; the output is always bounded by the buffer given.
target_compile_definitions(scope_speedscope_lzf PRIVATE CHECK_INPUT=1 AVOID_ERRNO=0)
set_target_properties(scope_speedscope_lzf PROPERTIES POSITION_INDEPENDENT_CODE ON)
add_library(deps::lzf ALIAS scope_speedscope_lzf)

# Their sources are not ours to change: no warnings from them.
target_compile_options(scope_speedscope_zstd PRIVATE -w)
target_compile_options(scope_speedscope_lzf PRIVATE -w)

