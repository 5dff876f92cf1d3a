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

  constructor(module) {
    this.#module = module;
    this.version = module.version();
    if (module.schemaUrl() !== SCHEMA_URL || module.timeUnit() !== TIME_UNIT ||
        module.nsPerSecond() !== NS_PER_SECOND) {
      throw new Error('scope-speedscope: the JavaScript wrapper and the wasm module disagree');
    }
  }

  /** What a file holds: label, schema, ranks with lanes, regions with call counts. */
  inspect(input, name) {
    const one = input instanceof Uint8Array ? { name: name ?? 'profile.h5', bytes: input } : input;
    return this.#withInputs([one], ([prepared]) => unwrap(this.#module.inspect(prepared)));
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
    const written = this.#withInputs(inputs, (prepared) =>
      unwrap(this.#module.exportSpeedscope(prepared, coreOptions, guardedSink)));
    return options.sink ? written : outputs;
  }

  /** The speedscope document of one (small) input as an object. */
  buildSpeedscopeDocument(input, options = {}) {
    const [output] = this.exportSpeedscope([input], { ...options, sink: undefined });
    return JSON.parse(new TextDecoder().decode(concatChunks(output.chunks)));
  }

  /** Bytes of WebAssembly memory in use (it grows, never shrinks). */
  get wasmMemoryBytes() {
    return this.#module.HEAPU8.buffer.byteLength;
  }

  /** The command line shared with the native tool (used by the Node CLI). */
  cli = {
    parse: (args) => unwrap(this.#module.parseCli(args)),
    // 'export', 'view' or 'serve': the command args ask for (also when parse throws).
    command: (args) => this.#module.cliCommand(args),
    help: (command = 'export') => this.#module.cliHelp(command),
    usage: (command = 'export') => this.#module.cliUsage(command),
    summary: (written) => this.#module.cliSummary(written),
    fileNotFoundMessage: (path) => this.#module.fileNotFoundMessage(path),
  };

  // Copies bytes into the heap or mounts Files (WORKERFS), runs fn, and frees
  // everything again whatever happens.
  #withInputs(inputs, fn) {
    const m = this.#module;
    const pointers = [];
    const mounts = [];
    try {
      const prepared = inputs.map((input) => {
        if (!input || typeof input.name !== 'string') {
          throw new TypeError('scope-speedscope: each input needs a name');
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
          if (!m.WORKERFS) throw new TypeError('scope-speedscope: File inputs need a Web Worker');
          const dir = `/scope-speedscope-in-${++mountCounter}`;
          m.FS.mkdir(dir);
          m.FS.mount(m.WORKERFS, { blobs: [{ name: 'input.h5', data: input.file }] }, dir);
          mounts.push(dir);
          return { name: input.name, path: `${dir}/input.h5` };
        }
        if (typeof input.path === 'string') return { name: input.name, path: input.path };
        throw new TypeError(`scope-speedscope: input ${input.name} has neither bytes nor file`);
      });
      return fn(prepared);
    } finally {
      for (const ptr of pointers) m._free(ptr);
      for (const dir of mounts) {
        try { m.FS.unmount(dir); m.FS.rmdir(dir); } catch { /* already gone */ }
      }
    }
  }
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
  const moduleArgs = {};
  if (options.wasmBinary) {
    moduleArgs.wasmBinary = options.wasmBinary;
  } else if (onNode) {
    // Emscripten 3.1.6 would fetch() a file: URL under Node 20; hand it the bytes.
    const { readFile } = await import('node:fs/promises');
    moduleArgs.wasmBinary = await readFile(new URL('./scope-speedscope.wasm', import.meta.url));
  }
  if (options.locateFile) moduleArgs.locateFile = options.locateFile;
  moduleArgs.print = options.print ?? (() => {});
  moduleArgs.printErr = options.printErr ?? (() => {});
  const module = await createScopeSpeedscopeModule(moduleArgs);
  return new ScopeSpeedscope(module);
}

export default createScopeSpeedscope;
