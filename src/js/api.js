// scope-speedscope for JavaScript: the WebAssembly core behind a small API.
// This module is shared by the two entries, browser.js (browsers, Web Workers,
// bundlers) and node.js (Node); they only say how the wasm is found. Types in
// index.d.ts. No conversion logic lives here: reading, reconstruction, naming
// and writing happen in C++. This file is the facade: ScopeSpeedscope and
// instantiate(); behind it, errors.js (the core's error values become
// ScopeSpeedscopeError, in one place), inputs.js (Files read whole or
// lazily), sinks.js (outputs and progress), timeline.js (Timeline and
// RunComparison) and instantiate.js (loading the wasm); what callers pass is
// checked in options.js. None imports a `node:` module (so none reaches a
// browser bundle).
import {
  blobOnMainThreadError,
  canReadBlobsSynchronously,
  exportOptionsOf,
  inputOf,
  inputsOf,
  overviewOptionsOf,
  suggestOptionsOf,
  timelineClosedError,
  timelineOptionsOf,
} from './options.js';
import { ScopeSpeedscopeError, unwrap } from './errors.js';
import { READ_WHOLE_BYTES, blobSource, readWhole } from './inputs.js';
import { compileWasm, instantiateAsync, instantiateNow, wasmLoadError } from './instantiate.js';
import { collectingSink, concatChunks, guardSink, progressOf, warningOf } from './sinks.js';
import { RunComparison, Timeline, timelineIds, timelineRegistry } from './timeline.js';
import { decodeAnswer } from './wire.js';

export { createOptionsOf } from './options.js';
export { ScopeSpeedscopeError } from './errors.js';
export { concatChunks } from './sinks.js';
export { wasmLoadError } from './instantiate.js';
export { decodeAnswer } from './wire.js';

export const NS_PER_SECOND = 1_000_000_000;
export const SCHEMA_URL = 'https://www.speedscope.app/file-format-schema.json';
export const TIME_UNIT = 'seconds';

class ScopeSpeedscope {
  #module;
  #recreate;
  #readWholeBytes;
  #openPath;
  #pending = null;
  #stopped;
  #restarting;

  constructor(module, recreate, { readWholeBytes = READ_WHOLE_BYTES, openPath = null } = {}) {
    this.#readWholeBytes = readWholeBytes;
    // Node: a path names a file on disk, read lazily (node.js's openPath);
    // elsewhere a path in the module's file system.
    this.#openPath = openPath;
    this.#module = module;
    this.#recreate = recreate;
    // The core's words for a trap (the table's converter_stopped), taken here:
    // after a trap the instance must not be asked for anything.
    this.#stopped = module.errorFor('converter_stopped', { path: '\u0001', what: '\u0002' });
    this.#restarting = module.errorFor('internal', {
      detail: 'scope-speedscope: the converter is being restarted after a failure; try again',
    });
    this.version = module.version();
    if (
      module.schemaUrl() !== SCHEMA_URL ||
      module.timeUnit() !== TIME_UNIT ||
      module.nsPerSecond() !== NS_PER_SECOND
    ) {
      throw new Error('scope-speedscope: the JavaScript wrapper and the wasm module disagree');
    }
  }

  /** What a file holds: label, schema, ranks with lanes, regions with call counts. */
  inspect(input, name) {
    const one = input instanceof Uint8Array ? { name: name ?? 'profile.h5', bytes: input } : input;
    const checked = inputOf(one, 'input');
    return this.#withInputs([checked], (m, [prepared]) => unwrap(m.inspect(prepared)));
  }

  /**
   * Checks one include/exclude pattern with the engine the export uses (PCRE2
   * in the module): null when it compiles, else the message an export with it
   * would fail with (kind PatternError).
   */
  checkPattern(pattern) {
    if (typeof pattern !== 'string') {
      throw new TypeError(`scope-speedscope: checkPattern(pattern): pattern must be a string, not ${typeof pattern}`);
    }
    return this.#guarded([], (m) => m.checkPattern(pattern));
  }

  /**
   * Converts inputs ({name, bytes}, {name, path} or, in a Web Worker,
   * {name, file}) and returns [{fileName, chunks}], or streams each output
   * into options.sink and returns the written file names.
   */
  exportSpeedscope(inputs, options) {
    const { core, js } = exportOptionsOf(options);
    const checked = inputsOf(inputs);
    const outputs = [];
    const guardedSink = guardSink(js.sink ?? collectingSink(outputs), js.onProgress, js.onWarning);
    const written = this.#withInputs(checked, (m, prepared) => unwrap(m.exportSpeedscope(prepared, core, guardedSink)));
    return js.sink ? written : outputs;
  }

  /**
   * An input whose File or Blob can be used by the synchronous methods here:
   * on the main thread (and in Node) it is read into { name, bytes }; in a
   * Web Worker it is returned as it is (read lazily while converting).
   */
  async readInput(input) {
    const checked = inputOf(input, 'input');
    if (!checked.file || canReadBlobsSynchronously) return checked;
    return { name: checked.name, bytes: new Uint8Array(await checked.file.arrayBuffer()) };
  }

  /** exportSpeedscope for any input, also a File or Blob on the main thread. */
  async exportSpeedscopeAsync(inputs, options) {
    exportOptionsOf(options); // fail before reading anything
    const checked = inputsOf(inputs);
    const ready = [];
    for (const input of checked) ready.push(await this.readInput(input));
    return this.exportSpeedscope(ready, options);
  }

  /** inspect for any input, also a File or Blob on the main thread. */
  async inspectAsync(input) {
    return this.inspect(await this.readInput(input));
  }

  /**
   * What a selection (ranks x filtered regions) of one input holds: calls,
   * time range, a call-density histogram over time and one of durations
   * (see index.d.ts); with options.maxEvents, the suggested narrowing too.
   */
  overview(input, options) {
    const core = overviewOptionsOf(options);
    const checked = inputOf(input, 'input');
    return this.#withInputs([checked], (m, [prepared]) => unwrap(m.overview(prepared, core)));
  }

  /** overview for any input, also a File or Blob on the main thread. */
  async overviewAsync(input, options) {
    overviewOptionsOf(options); // fail before reading anything
    return this.overview(await this.readInput(input), options);
  }

  /** The min-duration and time window that bring an overview's selection within maxEvents. */
  suggestNarrowing(overview, options) {
    const { maxEvents } = suggestOptionsOf(overview, options);
    return this.#guarded([], (m) => unwrap(m.suggestNarrowing(overview, maxEvents)));
  }

  /**
   * Opens the run's timeline: the lanes, frames and calls of the speedscope
   * document the same options write, kept as columns in the module for
   * level-of-detail queries (see Timeline below and index.d.ts). Any input,
   * also a File or Blob on the main thread. Call close() when done.
   */
  async openTimeline(input, options) {
    const { core, js } = timelineOptionsOf(options); // fail before reading anything
    // An array: one job written one file per process, opened as one run.
    const job = Array.isArray(input);
    const checked = job ? inputsOf(input) : [inputOf(input, 'input')];
    const all = [];
    for (const each of checked) all.push(await this.readInput(each));
    const ready = job ? all : all[0];
    const progress = { progress: progressOf(js.onProgress), warning: warningOf(js.onWarning) };
    const module = this.#live();
    const opened = this.#withInputs(all, (m, prepared) =>
      unwrap(m.openTimeline(job ? prepared : prepared[0], core, progress)),
    );
    const timeline = new Timeline(this.#callerOn(module), opened, this.#inputCallerOn(module, ready));
    timelineRegistry?.register(timeline, { module, id: opened.id }, timeline);
    return timeline;
  }

  // The same with the timeline's input prepared again (its file read for
  // the ranks it did not read, when it exports).
  #inputCallerOn(module, input) {
    return (method, fn) => {
      if (this.#module !== module) throw timelineClosedError(method);
      if (Array.isArray(input)) return this.#withInputs(input, (m, prepared) => fn(m, prepared));
      return this.#withInputs([input], (m, [prepared]) => fn(m, prepared));
    };
  }

  // Queries of what a module holds run guarded like every call; after a trap
  // the instance holding it is gone, and what it held with it.
  #callerOn(module) {
    return (method, fn) => {
      if (this.#module !== module) throw timelineClosedError(method);
      return this.#guarded([], fn);
    };
  }

  /**
   * Two runs of the same code (inputs and options as openTimeline takes them),
   * both opened as timelines and B's calls lined up with A's: a RunComparison
   * (regions, a, b, partnerLanes, aligned(), close()).
   */
  async compareRuns(a, b, options) {
    timelineOptionsOf(options); // fail before reading anything
    const ta = await this.openTimeline(a, options);
    let tb = null;
    try {
      tb = await this.openTimeline(b, options);
      const module = this.#live();
      const opened = this.#guarded([], () => unwrap(module.compareOpen(timelineIds.get(ta), timelineIds.get(tb))));
      return new RunComparison(this.#callerOn(module), opened, ta, tb);
    } catch (error) {
      ta.close();
      tb?.close();
      throw error;
    }
  }

  /**
   * One request of the page's protocol (docs/engine-protocol.md), answered
   * by the core's engine in this module (the same dispatcher `serve`
   * answers with natively): `request` { type, ...fields } (JSON-able);
   * `inputs` { file, fileA, fileB }, the inputs it reads, as
   * exportSpeedscope takes them; `sink` where a timeline-export writes;
   * `onProgress` as elsewhere. Returns the decoded answer: { type: 'result'
   * | 'error' | 'refused', ... }, its columns typed arrays over one buffer.
   */
  engineRequest(request, { inputs = {}, sink = null, onProgress = null } = {}) {
    if (request === null || typeof request !== 'object' || typeof request.type !== 'string') {
      throw new TypeError('scope-speedscope: engineRequest(request): request must be an object with a type');
    }
    return decodeAnswer(this.engineAnswer(JSON.stringify(request), { inputs, sink, onProgress }));
  }

  /**
   * engineRequest for a server: the request's JSON text as it came (text
   * that is not JSON, or not a request, is answered with an error naming
   * it), the answer's bytes in the wire format (docs/engine-protocol.md,
   * "Wire"), undecoded: what `serve` sends to the page.
   */
  engineAnswer(text, { inputs = {}, sink = null, onProgress = null } = {}) {
    if (typeof text !== 'string') throw new TypeError('scope-speedscope: engineAnswer(text): text must be a string');
    const keys = Object.keys(inputs ?? {}).filter((k) => inputs[k] != null);
    const checked = keys.map((k) => inputOf(inputs[k], k));
    const core = sink ? guardSink(sink, onProgress) : { progress: progressOf(onProgress) };
    return this.#withInputs(checked, (m, prepared) =>
      m.engineDispatch(text, Object.fromEntries(keys.map((k, i) => [k, prepared[i]])), core),
    );
  }

  /** The version of docs/engine-protocol.md engineRequest answers. */
  get engineProtocol() {
    return this.#live().engineProtocol();
  }

  /** The speedscope document of one (small) input as an object. */
  buildSpeedscopeDocument(input, options = {}) {
    const [output] = this.exportSpeedscope([input], { ...options, sink: undefined });
    return JSON.parse(new TextDecoder().decode(concatChunks(output.chunks)));
  }

  /**
   * The largest File or Blob read whole (one read, handed to the core as
   * bytes); larger ones are read lazily (createScopeSpeedscope's option).
   */
  get readWholeBytes() {
    return this.#readWholeBytes;
  }

  /** Bytes of WebAssembly memory in use (it grows, never shrinks). */
  get wasmMemoryBytes() {
    return this.#live().HEAPU8.buffer.byteLength;
  }

  /** The command line shared with the native tool (used by the Node CLI). */
  /**
   * serve's guards (src/cli/serve_guard.hpp), the native server's own:
   * check({ host, origin, cookie, token, chunked, contentLength },
   * listenHost, token) gives { status (0: let it through), message,
   * setCookie }; webPath(target) the request path's { relative, directory }
   * or null; newToken() 64 hex digits; maxRequestBytes() the largest body.
   * And its runs (src/cli/serve_runs.hpp): plan(files, vsAt) reads each
   * file's index and groups them (vsAt: the files before `vs`, or null):
   * { aFiles, compare, infos, names }, or throws the error opening them
   * together; answer(text, { files, aFiles, compare, sink, onProgress })
   * engineAnswer with the served files as inputs (by the request's
   * `served`, or by position); openKey(text) what makes two opens the same
   * timeline ('' for a request that opens none).
   */
  serve = {
    check: (head, listenHost, token) => this.#live().serveCheck(head, listenHost, token),
    webPath: (target) => this.#live().serveWebPath(target),
    newToken: () => this.#live().serveNewToken(),
    maxRequestBytes: () => this.#live().serveMaxRequestBytes(),
    plan: (files, vsAt = null) => {
      const checked = files.map((f, i) => inputOf(f, `files[${i}]`));
      return JSON.parse(this.#withInputs(checked, (m, prepared) => unwrap(m.servePlan(prepared, vsAt ?? -1))));
    },
    answer: (text, { files, aFiles, compare, sink = null, onProgress = null }) => {
      if (typeof text !== 'string') throw new TypeError('scope-speedscope: serve.answer(text): text must be a string');
      const checked = files.map((f, i) => inputOf(f, `files[${i}]`));
      const core = sink ? guardSink(sink, onProgress) : { progress: progressOf(onProgress) };
      return this.#withInputs(checked, (m, prepared) => m.serveDispatch(text, prepared, aFiles, !!compare, core));
    },
    openKey: (text) => this.#live().serveOpenKey(text),
  };

  cli = {
    parse: (args) => unwrap(this.#live().parseCli(args)),
    // 'export', 'view' or 'serve': the command args ask for (also when parse throws).
    command: (args) => this.#live().cliCommand(args),
    help: (command = 'export') => this.#live().cliHelp(command),
    usage: (command = 'export') => this.#live().cliUsage(command),
    summary: (written) => this.#live().cliSummary(written),
    fileNotFoundMessage: (path) => this.#live().fileNotFoundMessage(path),
    // The export written as files by the core, as the native CLI writes them
    // (src/wasm/bindings.cpp, export_files); exportSpeedscope's options, a
    // `sink` getting every output as well. Returns the written paths.
    exportFiles: (inputs, options) => this.#exportFiles(inputs, options),
    // The imbalance command's report (args as for parse, its FILEs, one job's,
    // read by the core). onWarning(text): each warning of the read (--source:
    // a value read as unknown).
    imbalance: (args, onWarning) => {
      const { files } = this.cli.parse(args);
      const inputs = files.map((f) => inputOf({ name: f, path: f }, 'input'));
      const warn = warningOf(onWarning);
      return this.#withInputs(inputs, (m, prepared) => unwrap(m.cliImbalance(prepared, args, warn)));
    },
    // The diff command's report (args as for parse: `A B` or `A... vs B...`,
    // the files read by the core): { text, regressed } (regressed: exit 3);
    // onWarning as for imbalance.
    diff: (args, onWarning) => {
      const { files } = this.cli.parse(args);
      const inputs = files.map((f) => inputOf({ name: f, path: f }, 'input'));
      const warn = warningOf(onWarning);
      return this.#withInputs(inputs, (m, prepared) => unwrap(m.cliDiff(prepared, args, warn)));
    },
  };

  #exportFiles(inputs, options) {
    const { core, js } = exportOptionsOf(options);
    const checked = inputsOf(inputs);
    const sink = js.sink
      ? guardSink(js.sink, js.onProgress, js.onWarning)
      : { progress: progressOf(js.onProgress), warning: warningOf(js.onWarning) };
    return this.#withInputs(checked, (m, prepared) => unwrap(m.exportFiles(prepared, core, sink)));
  }

  // The module instance, made anew first when a trap dropped it.
  #live() {
    if (!this.#module) {
      try {
        this.#module = this.#recreate();
      } catch {
        // A page's main thread may refuse to instantiate synchronously.
        this.#pending ??= this.#recreate.later().then(
          (m) => {
            this.#module ??= m;
            this.#pending = null;
          },
          () => {
            this.#pending = null;
          },
        );
        throw new ScopeSpeedscopeError(this.#restarting.kind, this.#restarting.message, this.#restarting);
      }
    }
    return this.#module;
  }

  // The one place that notices a trap. The core returns its failures as
  // values (src/wasm/bindings.cpp) and the arguments are checked before this
  // runs, so anything else thrown while the module runs means the instance
  // cannot be trusted: a WebAssembly trap (RuntimeError: memory access out of
  // bounds, unreachable, null function; also what Emscripten's abort()
  // throws), the engine's stack overflow (RangeError), or Emscripten's glue
  // failing on a corrupted heap (TypeError, ...). The instance is dropped (the
  // next call makes a fresh one of the same compiled code) and the failure
  // reported as a ScopeSpeedscopeError naming the input(s), without calling
  // into anything that needs much stack.
  #guarded(names, fn) {
    const m = this.#live();
    try {
      return fn(m);
    } catch (error) {
      if (error instanceof ScopeSpeedscopeError) throw error;
      this.#module = null;
      const name = names.join(', ') || 'scope-speedscope';
      const what = String(error?.message ?? error).replace(/^RuntimeError: /, '') || 'unknown failure';
      const fill = (text) => text.replace('\u0001', () => name).replace('\u0002', () => what);
      const t = this.#stopped;
      throw new ScopeSpeedscopeError(t.kind, fill(t.message), {
        ...t,
        peopleMessage: fill(t.peopleMessage),
        file: names.length === 1 ? names[0] : null,
      });
    }
  }

  // Copies bytes into the heap or makes lazy sources of Files and paths
  // (Node), runs fn(module, prepared inputs), and frees everything again
  // whatever happens (nothing after a trap: that instance is gone). Inputs
  // are checked already.
  #withInputs(inputs, fn) {
    for (const input of inputs) {
      if (input.file && !canReadBlobsSynchronously) throw blobOnMainThreadError(input.name);
    }
    return this.#guarded(
      inputs.map((input) => input.name),
      (m) => this.#withInputsOn(m, inputs, fn),
    );
  }

  #withInputsOn(m, inputs, fn) {
    const pointers = [];
    const closers = [];
    let trapped = false;
    try {
      const prepared = inputs.map((input) => {
        const bytes = input.bytes ?? readWhole(input.file, this.#readWholeBytes);
        if (bytes) {
          const size = bytes.byteLength;
          const ptr = m._malloc(Math.max(size, 1));
          if (!ptr) unwrap(m.errorFor('out_of_memory', { file: input.name }));
          pointers.push(ptr);
          m.HEAPU8.set(bytes, ptr);
          return { name: input.name, ptr, size };
        }
        if (input.file) {
          const { size, read } = blobSource(input.file);
          return { name: input.name, size, read };
        }
        if (this.#openPath) {
          const opened = this.#openPath(input.path);
          if (opened.error)
            unwrap(m.errorFor(opened.error.code, { ...opened.error.args, path: input.name, file: input.name }));
          closers.push(opened.close);
          return { name: input.name, size: opened.size, read: opened.read };
        }
        return { name: input.name, path: input.path };
      });
      return fn(m, prepared);
    } catch (error) {
      trapped = !(error instanceof ScopeSpeedscopeError);
      throw error;
    } finally {
      for (const close of closers) close();
      if (!trapped) {
        for (const ptr of pointers) m._free(ptr);
      }
    }
  }
}

/**
 * Instantiates the wasm module made by `createModule` (an Emscripten factory)
 * with the checked create options (see createOptionsOf; the entries add how
 * the .wasm is found: `wasmBinary`, or `locateFile` giving its URL) and wraps
 * it. `wasmFrom` names where the .wasm comes from, for the message when it
 * cannot be loaded. The compiled code is kept: after a trap the wrapper makes
 * a fresh instance of it synchronously (see ScopeSpeedscope#guarded).
 */
export async function instantiate(createModule, moduleArgs, wasmFrom, { openPath = null } = {}) {
  let compiled;
  let module;
  try {
    compiled = await compileWasm(moduleArgs);
    module = await instantiateAsync(createModule, moduleArgs, compiled);
  } catch (error) {
    throw wasmLoadError(error, wasmFrom);
  }
  const recreate = () => instantiateNow(createModule, moduleArgs, compiled);
  recreate.later = () => instantiateAsync(createModule, moduleArgs, compiled);
  return new ScopeSpeedscope(module, recreate, { readWholeBytes: moduleArgs.readWholeBytes, openPath });
}
