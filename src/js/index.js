// scope-speedscope for JavaScript: the WebAssembly core behind a small API.
// One file for Node, browsers and Web Workers; types in index.d.ts.
// No conversion logic lives here: reading, reconstruction, naming and writing
// happen in C++. This file moves bytes in and out and turns the core's error
// values into ScopeSpeedscopeError (the one place where that happens).
import createScopeSpeedscopeModule from './scope-speedscope.js';

const onNode =
  typeof process === 'object' && typeof process.versions === 'object' &&
  typeof process.versions.node === 'string' && typeof window === 'undefined' &&
  typeof WorkerGlobalScope === 'undefined';

export const NS_PER_SECOND = 1_000_000_000;
export const SCHEMA_URL = 'https://www.speedscope.app/file-format-schema.json';
export const TIME_UNIT = 'seconds';

/** A conversion failed; `message` is the same text the CLIs print. */
export class ScopeSpeedscopeError extends Error {
  constructor(kind, message) {
    super(message);
    this.name = 'ScopeSpeedscopeError';
    /** 'ValueError', 'NestingError', 'CorruptProfileError', 'HDF5SchemaError', ... */
    this.kind = kind;
  }
}

function unwrap(result) {
  if (result.ok) return result.value;
  throw new ScopeSpeedscopeError(result.kind, result.message);
}

let mountCounter = 0;

class ScopeSpeedscope {
  #module;
  #recreate;
  #pending = null;
  #stoppedMessage;

  constructor(module, recreate) {
    this.#module = module;
    this.#recreate = recreate;
    // The core's words for a trap (messages::converter_stopped), taken now:
    // after a trap the instance must not be asked for anything.
    this.#stoppedMessage = module.converterStoppedMessage('\u0001', '\u0002');
    this.version = module.version();
    if (module.schemaUrl() !== SCHEMA_URL || module.timeUnit() !== TIME_UNIT ||
        module.nsPerSecond() !== NS_PER_SECOND) {
      throw new Error('scope-speedscope: the JavaScript wrapper and the wasm module disagree');
    }
  }

  /** What a file holds: label, schema, ranks with lanes, regions with call counts. */
  inspect(input, name) {
    const one = input instanceof Uint8Array ? { name: name ?? 'profile.h5', bytes: input } : input;
    return this.#withInputs([one], (m, [prepared]) => unwrap(m.inspect(prepared)));
  }

  /**
   * Checks one include/exclude pattern with the engine the export uses:
   * null when it compiles, else the message an export would fail with.
   */
  checkPattern(pattern) {
    const text = String(pattern);
    return this.#guarded([], (m) => m.checkPattern(text));
  }

  /**
   * Converts inputs ({name, bytes} or, in a worker, {name, file}) and returns
   * [{fileName, chunks}], or streams each output into options.sink.
   */
  exportSpeedscope(inputs, options = {}) {
    if (!Array.isArray(inputs)) inputs = [inputs];
    const outputs = [];
    const sink = options.sink ?? collectingSink(outputs);
    const guardedSink = guardSink(sink, options.onProgress);
    const coreOptions = {
      filepath: options.filepath ?? 'profile.speedscope.json',
      ranks: options.ranks ?? null,
      include: normalizePatterns(options.include),
      exclude: normalizePatterns(options.exclude),
      labels: options.labels ?? [],
    };
    if (options.flushSize !== undefined) coreOptions.flushSize = options.flushSize;
    const written = this.#withInputs(inputs, (m, prepared) =>
      unwrap(m.exportSpeedscope(prepared, coreOptions, guardedSink)));
    return options.sink ? written : outputs;
  }

  /** The speedscope document of one (small) input as an object. */
  buildSpeedscopeDocument(input, options = {}) {
    const [output] = this.exportSpeedscope([input], { ...options, sink: undefined });
    return JSON.parse(new TextDecoder().decode(concatChunks(output.chunks)));
  }

  /** Bytes of WebAssembly memory in use (it grows, never shrinks). */
  get wasmMemoryBytes() {
    return this.#live().HEAPU8.buffer.byteLength;
  }

  /** The command line shared with the native tool (used by the Node CLI). */
  cli = {
    parse: (args) => unwrap(this.#live().parseCli(args)),
    help: () => this.#live().cliHelp(),
    usage: () => this.#live().cliUsage(),
    summary: (written) => this.#live().cliSummary(written),
    fileNotFoundMessage: (path) => this.#live().fileNotFoundMessage(path),
  };

  // The module instance, made again first when a trap dropped it.
  #live() {
    if (!this.#module) {
      try {
        this.#module = this.#recreate();
      } catch {
        // A page's main thread may refuse to instantiate synchronously.
        this.#pending ??= this.#recreate.later().then(
          (m) => { this.#module ??= m; this.#pending = null; },
          () => { this.#pending = null; });
        throw new ScopeSpeedscopeError('Error',
          'scope-speedscope: the converter is being restarted after a failure; try again');
      }
    }
    return this.#module;
  }

  // The one place that notices a trap: a conversion that stopped inside the
  // module (memory access out of bounds, unreachable, null function,
  // Aborted(...), a stack overflow) leaves that instance unusable. It is
  // dropped (the next call makes a fresh one of the same compiled code) and
  // the failure reported as a ScopeSpeedscopeError naming the input(s); the
  // handling itself calls nothing that needs much stack.
  #guarded(names, fn) {
    const m = this.#live();
    try {
      return fn(m);
    } catch (error) {
      if (!isTrap(error)) throw error;
      this.#module = null;
      const name = names.join(', ') || 'scope-speedscope';
      const what = trapText(error);
      throw new ScopeSpeedscopeError('CorruptProfileError',
        this.#stoppedMessage.replace('\u0001', () => name).replace('\u0002', () => what));
    }
  }

  // Copies bytes into the heap or mounts Files (WORKERFS), runs fn, and frees
  // everything again whatever happens (nothing to free after a trap: that
  // instance is gone).
  #withInputs(inputs, fn) {
    const names = inputs.map((input) => String(input?.name));
    return this.#guarded(names, (m) => this.#withInputsOn(m, inputs, fn));
  }

  #withInputsOn(m, inputs, fn) {
    const pointers = [];
    const mounts = [];
    let trapped = false;
    try {
      const prepared = inputs.map((input) => {
        if (!input || typeof input.name !== 'string') {
          throw inputError('each input needs a name');
        }
        if (input.bytes instanceof Uint8Array) {
          const size = input.bytes.byteLength;
          const ptr = m._malloc(Math.max(size, 1));
          if (!ptr) throw new ScopeSpeedscopeError('MemoryError', 'out of memory');
          pointers.push(ptr);
          m.HEAPU8.set(input.bytes, ptr);
          return { name: input.name, ptr, size };
        }
        if (input.file && typeof input.file.slice === 'function') {
          if (!m.WORKERFS) throw inputError('File inputs need a Web Worker');
          const dir = `/scope-speedscope-in-${++mountCounter}`;
          m.FS.mkdir(dir);
          m.FS.mount(m.WORKERFS, { blobs: [{ name: 'input.h5', data: input.file }] }, dir);
          mounts.push(dir);
          return { name: input.name, path: `${dir}/input.h5` };
        }
        if (typeof input.path === 'string') return { name: input.name, path: input.path };
        throw inputError(`input ${input.name} has neither bytes nor file`);
      });
      return fn(m, prepared);
    } catch (error) {
      trapped = isTrap(error);
      throw error;
    } finally {
      if (!trapped) {
        for (const ptr of pointers) m._free(ptr);
        for (const dir of mounts) {
          try { m.FS.unmount(dir); m.FS.rmdir(dir); } catch { /* already gone */ }
        }
      }
    }
  }
}

// The wrapper's own refusals of its arguments (thrown before the module runs).
const INPUT_ERROR = Symbol('scope-speedscope input error');
function inputError(message) {
  const error = new TypeError(`scope-speedscope: ${message}`);
  error[INPUT_ERROR] = true;
  return error;
}

// The core returns its failures as values (src/wasm/bindings.cpp), so
// anything else thrown while the module runs means the instance is no longer
// sound: a WebAssembly trap (RuntimeError, also what Emscripten's abort()
// throws), the engine's stack overflow (RangeError), or an error of the
// Emscripten glue reading a corrupted heap (TypeError, ...).
function isTrap(error) {
  return !(error instanceof ScopeSpeedscopeError) && !(error && error[INPUT_ERROR]);
}

function trapText(error) {
  return String(error?.message ?? error).replace(/^RuntimeError: /, '') || 'unknown failure';
}

function normalizePatterns(patterns) {
  if (patterns === undefined || patterns === null) return null;
  return typeof patterns === 'string' ? [patterns] : [...patterns];
}

function collectingSink(outputs) {
  let current = null;
  return {
    open(fileName) { current = { fileName, chunks: [] }; },
    write(view) { current.chunks.push(view.slice()); },
    close() { outputs.push(current); current = null; },
    commit() {},
    abort() { outputs.length = 0; current = null; },
  };
}

// The core calls these; they must not throw (see src/wasm/bindings.cpp):
// a failure comes back as its message.
function guardSink(sink, onProgress) {
  const call = (method, ...args) => {
    try {
      if (typeof sink[method] === 'function') sink[method](...args);
      return undefined;
    } catch (error) {
      return String(error && error.message ? error.message : error);
    }
  };
  return {
    open: (path) => call('open', path),
    write: (view) => call('write', view),
    close: () => call('close'),
    commit: () => call('commit'),
    abort: () => { call('abort'); },
    progress: (phase, done, total) => {
      if (onProgress) {
        try { onProgress({ phase, done, total }); } catch { /* a progress callback cannot stop us */ }
      }
    },
  };
}

export function concatChunks(chunks) {
  const size = chunks.reduce((n, c) => n + c.byteLength, 0);
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) { out.set(c, offset); offset += c.byteLength; }
  return out;
}

/** Loads the wasm module once; call again for an independent instance. */
export async function createScopeSpeedscope(options = {}) {
  const compiled = await compileWasm(options);
  const recreate = () => instantiate(compiled, options);
  recreate.later = () => instantiateAsync(compiled, options);
  return new ScopeSpeedscope(await instantiateAsync(compiled, options), recreate);
}

// The compiled code, kept so that a new instance can be made synchronously
// after a trap.
async function compileWasm(options) {
  if (options.wasmBinary) return WebAssembly.compile(options.wasmBinary);
  if (onNode) {
    // Emscripten 3.1.6 would fetch() a file: URL under Node 20; read the bytes.
    const { readFile } = await import('node:fs/promises');
    return WebAssembly.compile(await readFile(new URL('./scope-speedscope.wasm', import.meta.url)));
  }
  const url = options.locateFile
    ? options.locateFile('scope-speedscope.wasm', new URL('.', import.meta.url).href)
    : new URL('./scope-speedscope.wasm', import.meta.url).href;
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`scope-speedscope: cannot load ${url} (HTTP ${response.status})`);
  const type = response.headers.get('content-type') ?? '';
  if (typeof WebAssembly.compileStreaming === 'function' && type.startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());  // served with another type
}

// One module instance of the compiled code (the object passed to the
// Emscripten factory becomes the Module). Synchronously, for a rebuild after
// a trap: the glue instantiates through instantiateWasm and runs at once.
function instantiate(compiled, options) {
  const module = moduleArgs(options, (imports, receiveInstance) => {
    const instance = new WebAssembly.Instance(compiled, imports);
    receiveInstance(instance, compiled);
    return instance.exports;
  });
  createScopeSpeedscopeModule(module).catch(() => {});
  if (!module.calledRun) throw new Error('scope-speedscope: the wasm module did not start');
  return module;
}

async function instantiateAsync(compiled, options) {
  let failed;
  const failure = new Promise((_, reject) => { failed = reject; });
  const module = moduleArgs(options, (imports, receiveInstance) => {
    WebAssembly.instantiate(compiled, imports)
      .then((instance) => receiveInstance(instance, compiled), failed);
    return {};
  });
  await Promise.race([createScopeSpeedscopeModule(module), failure]);
  return module;
}

function moduleArgs(options, instantiateWasm) {
  return {
    print: options.print ?? (() => {}),
    printErr: options.printErr ?? (() => {}),
    instantiateWasm,
  };
}

export default createScopeSpeedscope;
