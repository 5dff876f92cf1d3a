# cmake/pcre2-wasm.cmake: every option of the PCRE2 10.42 WebAssembly build.
#
# An initial cache, passed with -C by cmake/wasm-deps.cmake when it configures
# Debian's pcre2 source with the parent's Emscripten toolchain file. The
# caller defines, before -C:
#   SCOPE_SPEEDSCOPE_DEPS_PREFIX  install prefix
#   SCOPE_SPEEDSCOPE_WASM_OPT     optimisation flag (-O2, -Os, ...)
# Natively the project uses Debian's libpcre2-dev, the same version.
foreach(input IN ITEMS SCOPE_SPEEDSCOPE_DEPS_PREFIX SCOPE_SPEEDSCOPE_WASM_OPT)
  if(NOT DEFINED ${input})
    message(FATAL_ERROR "pcre2-wasm.cmake: define ${input} before -C")
  endif()
endforeach()

set(CMAKE_BUILD_TYPE Release CACHE STRING "")
set(CMAKE_C_FLAGS_RELEASE "${SCOPE_SPEEDSCOPE_WASM_OPT} -DNDEBUG" CACHE STRING "")
set(CMAKE_INSTALL_PREFIX "${SCOPE_SPEEDSCOPE_DEPS_PREFIX}" CACHE PATH "")

# The 8-bit library (UTF-8 patterns and subjects) as a static library only;
# no pcre2grep, no tests, no POSIX wrapper users.
set(BUILD_SHARED_LIBS OFF CACHE BOOL "")
set(BUILD_STATIC_LIBS ON CACHE BOOL "")
set(PCRE2_BUILD_PCRE2_8 ON CACHE BOOL "")
set(PCRE2_BUILD_PCRE2_16 OFF CACHE BOOL "")
set(PCRE2_BUILD_PCRE2_32 OFF CACHE BOOL "")
set(PCRE2_BUILD_PCRE2GREP OFF CACHE BOOL "")
set(PCRE2_BUILD_TESTS OFF CACHE BOOL "")
set(PCRE2_SHOW_REPORT OFF CACHE BOOL "")

# Unicode (UTF mode and Unicode properties for \w, \d, \s: Python's
# re.UNICODE). No JIT: it cannot generate code inside WebAssembly; the
# interpreter matches without recursing on the machine stack.
set(PCRE2_SUPPORT_UNICODE ON CACHE BOOL "")
set(PCRE2_SUPPORT_JIT OFF CACHE BOOL "")
# The newline convention of Python's re: only "\n" ends a line ('.', '$').
set(PCRE2_NEWLINE LF CACHE STRING "")
