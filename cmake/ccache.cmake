# cmake/ccache.cmake: compiles the project's own code through ccache when it
# is installed (scripts/setup.sh installs it), with paths taken relative to
# the source tree and the working folder left out of the hash, so that a
# second clone, CI after a first run and a clean-clone check reuse the
# objects of the first (the third-party libraries are kept in the dependency
# cache instead, cmake/deps.cmake). SCOPE_SPEEDSCOPE_CCACHE=OFF turns it off.
include_guard(GLOBAL)
option(SCOPE_SPEEDSCOPE_CCACHE "Compile through ccache when it is installed" ON)
if(SCOPE_SPEEDSCOPE_CCACHE)
  find_program(SCOPE_SPEEDSCOPE_CCACHE_PROGRAM ccache DOC "ccache, caches compiled objects")
  if(SCOPE_SPEEDSCOPE_CCACHE_PROGRAM)
    set(_scope_launcher "${CMAKE_COMMAND}" -E env
      "CCACHE_BASEDIR=${PROJECT_SOURCE_DIR}" "CCACHE_NOHASHDIR=true"
      "${SCOPE_SPEEDSCOPE_CCACHE_PROGRAM}")
    set(CMAKE_C_COMPILER_LAUNCHER ${_scope_launcher})
    set(CMAKE_CXX_COMPILER_LAUNCHER ${_scope_launcher})
  endif()
endif()
