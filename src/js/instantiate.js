// Loading the wasm: compiled once (streaming when served as application/wasm),
// instantiated asynchronously, and again synchronously after a trap.
export async function compileWasm(moduleArgs) {
  if (moduleArgs.wasmBinary) return WebAssembly.compile(moduleArgs.wasmBinary);
  const url = moduleArgs.locateFile('scope-speedscope.wasm', '');
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const type = response.headers.get('content-type') ?? '';
  if (typeof WebAssembly.compileStreaming === 'function' && type.startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer()); // served with another type
}

// The Module object Emscripten 3.1.6 fills in is the argument of its
// factory; its instantiateWasm hook takes the instance from us.
function moduleArgsWith(moduleArgs, instantiateWasm) {
  return { print: () => {}, printErr: () => {}, ...moduleArgs, instantiateWasm };
}

export async function instantiateAsync(createModule, moduleArgs, compiled) {
  let failed;
  const failure = new Promise((_, reject) => {
    failed = reject;
  });
  const module = moduleArgsWith(moduleArgs, (imports, receiveInstance) => {
    WebAssembly.instantiate(compiled, imports).then((instance) => receiveInstance(instance, compiled), failed);
    return {};
  });
  await Promise.race([createModule(module), failure]);
  return module;
}

// Synchronously: the glue instantiates through the hook and runs at once.
export function instantiateNow(createModule, moduleArgs, compiled) {
  const module = moduleArgsWith(moduleArgs, (imports, receiveInstance) => {
    const instance = new WebAssembly.Instance(compiled, imports);
    receiveInstance(instance, compiled);
    return instance.exports;
  });
  createModule(module).catch(() => {});
  if (!module.calledRun) throw new Error('scope-speedscope: the wasm module did not start');
  return module;
}

/** The error when the .wasm cannot be read, fetched or instantiated. */
export function wasmLoadError(error, wasmFrom) {
  const detail = String(error?.message ?? error);
  return new Error(
    `scope-speedscope: could not load scope-speedscope.wasm${wasmFrom ? ` from ${wasmFrom}` : ''} (${detail}). ` +
      "It must be served next to the package's JavaScript (bundlers: see docs/package-api.md of scope-speedscope), " +
      'or pass createScopeSpeedscope({ locateFile }) or createScopeSpeedscope({ wasmBinary })',
    { cause: error },
  );
}
