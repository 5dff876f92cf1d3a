# cmake/wasm.cmake: every WebAssembly-only compile and link setting, in one place.
#
# Include it from the top-level CMakeLists.txt when EMSCRIPTEN is true, before
# any target is created (cmake/wasm-deps.cmake includes it as well). It:
#   - runs every emcc/em++ call (compile and link) with NODE_PATH set, since
#     Debian's Emscripten needs the node-acorn module from /usr/share/nodejs
#     ("Cannot find module 'acorn'" at link time otherwise);
#   - sets the optimisation level of Release builds (SCOPE_SPEEDSCOPE_WASM_OPT,
#     also used for HDF5 and zlib) and compiles all C++ with -fexceptions,
#     without which a `throw` aborts the module instead of reaching `catch`;
#   - provides scope_speedscope_configure_wasm_target(<target> web|node),
#     which adds the link flags of the JavaScript module (the npm package
#     builds both: scope-speedscope.js for browsers, scope-speedscope.node.js
#     for Node).
include_guard(GLOBAL)

if(NOT EMSCRIPTEN)
  message(FATAL_ERROR "cmake/wasm.cmake is for Emscripten builds only")
endif()

set(SCOPE_SPEEDSCOPE_EM_NODE_PATH "/usr/share/nodejs" CACHE PATH
  "NODE_PATH for emcc/em++ (Debian's Emscripten finds node-acorn there)")
set(SCOPE_SPEEDSCOPE_WASM_OPT "-O2" CACHE STRING
  "Optimisation flag of Release wasm builds, for our code, HDF5 and zlib (-O2 or -Os)")
set_property(CACHE SCOPE_SPEEDSCOPE_WASM_OPT PROPERTY STRINGS -O2 -O3 -Os -Oz)
find_program(SCOPE_SPEEDSCOPE_NODE node REQUIRED
  DOC "Node.js: runs HDF5's configure-time checks and the wasm tests")

# Prefix for commands that run emcc/em++ (also for add_custom_command).
set(SCOPE_SPEEDSCOPE_EM_ENV
  "${CMAKE_COMMAND}" -E env "NODE_PATH=${SCOPE_SPEEDSCOPE_EM_NODE_PATH}")
foreach(lang IN ITEMS C CXX)
  # Compile steps use the compiler launcher, link steps the linker launcher
  # (CMake >= 3.21, Makefile and Ninja generators).
  set(CMAKE_${lang}_COMPILER_LAUNCHER ${SCOPE_SPEEDSCOPE_EM_ENV})
  set(CMAKE_${lang}_LINKER_LAUNCHER ${SCOPE_SPEEDSCOPE_EM_ENV})
  # CMake also passes these flags to emcc when linking, where they choose the
  # wasm-opt/JS-minifier level.
  set(CMAKE_${lang}_FLAGS_RELEASE "${SCOPE_SPEEDSCOPE_WASM_OPT} -DNDEBUG")
endforeach()

add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:-fexceptions>")
# wasm has no 64x64->128-bit multiply: {fmt}'s __int128 path becomes calls to
# __multi3; its portable 32-bit path is faster there.
add_compile_definitions(FMT_USE_INT128=0)

# Emscripten 3.1.6 emits CommonJS-only Node code (require, __dirname) even for
# an ES module; this prologue of the Node variant defines them with static
# imports (no top-level await: bundlers and require(esm) reject it).
set(SCOPE_SPEEDSCOPE_WASM_NODE_SHIM "${CMAKE_CURRENT_LIST_DIR}/wasm-esm-node-shim.js")

# scope_speedscope_configure_wasm_target(<target> <kind>)
#   Makes the executable <target> an ES module (classic: a script) exporting the factory
#   `createScopeSpeedscopeModule` (embind API, Module.FS, growable memory up to
#   4 GB, C++ exceptions). All kinds make the same .wasm (scripts/build-dist.mjs
#   checks web and node); only the JavaScript glue differs. <kind> is
#   web:  browsers and Web Workers (-sENVIRONMENT=web,worker): no Node code
#         at all, so bundlers never see a `node:` module, `require` or a
#         top-level await. Files come as bytes in the heap or as a reader
#         the core calls for slices (a File in a worker: src/js/api.js).
#   node: Node only (-sENVIRONMENT=node), with the prologue above. Pass the
#         wasm bytes: createScopeSpeedscopeModule({ wasmBinary }), since
#         Emscripten 3.1.6 would fetch() a file path under Node 20. Its file
#         system is Node's (NODERAWFS): the core writes the Node CLI's
#         outputs itself, by the rule it writes the native CLI's
#         (FileOutputTarget). The .wasm stays the same: the file system is
#         the glue's.
#   classic: like web, but a classic script (no import/export, no
#         import.meta), defining the factory as a global (or module.exports
#         for a bundler), and without eval (-sDYNAMIC_EXECUTION=0: embind
#         makes no `new Function`): what a classic Worker made from a Blob can
#         run under its page's Content-Security-Policy, which it inherits. The
#         single-file page (scripts/build-single.mjs) uses it; pass the wasm
#         bytes: createScopeSpeedscopeModule({ wasmBinary }).
function(scope_speedscope_configure_wasm_target target kind)
  set(module_flags -sEXPORT_ES6=1)
  if(kind STREQUAL "web")
    set(kind_flags -sENVIRONMENT=web,worker
                   -sEXPORTED_RUNTIME_METHODS=FS,HEAPU8)
  elseif(kind STREQUAL "node")
    set(kind_flags -sENVIRONMENT=node -sNODERAWFS=1
                   -sEXPORTED_RUNTIME_METHODS=FS,HEAPU8
                   # A library must not install process-wide handlers in the embedding app.
                   -sNODEJS_CATCH_EXIT=0 -sNODEJS_CATCH_REJECTION=0
                   "SHELL:--extern-pre-js ${SCOPE_SPEEDSCOPE_WASM_NODE_SHIM}")
    set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS
      "${SCOPE_SPEEDSCOPE_WASM_NODE_SHIM}")
  elseif(kind STREQUAL "classic")
    set(kind_flags -sENVIRONMENT=web,worker
                   -sEXPORTED_RUNTIME_METHODS=FS,HEAPU8 -sDYNAMIC_EXECUTION=0)
    set(module_flags)
  else()
    message(FATAL_ERROR
      "scope_speedscope_configure_wasm_target(${target} ${kind}): kind must be web, node or classic")
  endif()
  if(module_flags)
    # No import.meta in the glue: Emscripten would use it for its own path and
    # for a default `new URL('<name>.wasm', import.meta.url)`, which bundlers
    # follow (webpack: "Can't resolve 'scope-speedscope.node.wasm'") or write
    # out as the build machine's file:// URL. The entries find the wasm
    # themselves (browser.js: new URL(import.meta.url); node.js: wasmBinary).
    list(APPEND module_flags -sUSE_ES6_IMPORT_META=0)
  endif()
  target_link_options(${target} PRIVATE
    -fexceptions
    --bind
    -sMODULARIZE=1 ${module_flags} -sEXPORT_NAME=createScopeSpeedscopeModule
    -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB
    # Each growth copies the whole heap: start at 64 MiB and double (in steps
    # of at most 256 MiB) instead of creeping up by 20 %.
    -sINITIAL_MEMORY=64MB -sMEMORY_GROWTH_GEOMETRIC_STEP=1.0
    -sMEMORY_GROWTH_GEOMETRIC_CAP=256MB
    -sFORCE_FILESYSTEM=1
    # The wrapper copies input bytes into the heap itself.
    -sEXPORTED_FUNCTIONS=_malloc,_free
    ${kind_flags})
endfunction()
