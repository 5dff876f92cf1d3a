// scope-speedscope for JavaScript: the WebAssembly core behind a small API.
// This module is shared by the two entries, browser.js (browsers, Web Workers,
// bundlers) and node.js (Node); they only say how the wasm is found. Types in
// index.d.ts. No conversion logic lives here: reading, reconstruction, naming
// and writing happen in C++. This file moves bytes in and out and turns the
// core's error values into ScopeSpeedscopeError (the one place where that
// happens); what callers pass is checked in options.js, its only import (so
// no `node:` module reaches a browser bundle).
import {
  blobOnMainThreadError,
  canReadBlobsSynchronously,
  exportOptionsOf,
  inputOf,
  inputsOf,
  overviewOptionsOf,
  timelineOverviewOptionsOf,
  suggestOptionsOf,
  timelineClosedError,
  timelineLaneOf,
  timelineLanesOf,
  timelineExportOptionsOf,
  timelineCountOf,
  timelineFrameOf,
  timelineAlignedIntoOf,
  ALIGNED_COLUMNS,
  timelineOptionsOf,
  timelineRangeError,
  timelineTimeOf,
  timelineColumnsOf,
  timelineWidthOf,
  timelineWindowOf,
} from './options.js';

export { createOptionsOf } from './options.js';

// A copy of `view` (a column seen in the module's memory): in the memory of
// `lent` (a Float64Array the caller gave up) when its buffer is a plain
// ArrayBuffer large enough and not already in `taken` (the module's memory,
// the answer's other columns), else in a new Float64Array.
function copyInto(view, lent, taken) {
  const buffer = lent?.buffer;
  const fits = buffer instanceof ArrayBuffer && !taken.has(buffer) && buffer.byteLength >= view.byteLength;
  const out = fits ? new Float64Array(buffer, 0, view.length) : new Float64Array(view.length);
  taken.add(out.buffer);
  out.set(view);
  return out;
}

export const NS_PER_SECOND = 1_000_000_000;
export const SCHEMA_URL = 'https://www.speedscope.app/file-format-schema.json';
export const TIME_UNIT = 'seconds';

/**
 * A conversion failed; `message` is the same text the CLIs print,
 * `peopleMessage` the words for people (both from the core's one table).
 */
export class ScopeSpeedscopeError extends Error {
  constructor(kind, message, details = {}) {
    super(message);
    this.name = 'ScopeSpeedscopeError';
    /** 'ValueError', 'NestingError', 'CorruptProfileError', 'HDF5SchemaError', ... */
    this.kind = kind;
    /** Which message of the table: 'not_hdf5_no_signature', 'invalid_rank', ... */
    this.code = details.code ?? null;
    /** For people: without the file name (shown beside it) and without Python class names. */
    this.peopleMessage = details.peopleMessage ?? message;
    /** The input file to blame, as named in the input, or null. */
    this.file = details.file ?? null;
    /** The option to blame ('include', 'exclude', 'ranks', 'minDuration', 'timeWindow', ...), or null. */
    this.field = details.field ?? null;
    /** The position in that option's list (a filter pattern, a rank), or null. */
    this.index = details.index ?? null;
  }
}

function unwrap(result) {
  if (result.ok) return result.value;
  throw new ScopeSpeedscopeError(result.kind, result.message, result);
}

// A File or Blob up to this size is read whole (one FileReaderSync call) and
// handed to the core as bytes; larger ones are read lazily: the core's HDF5
// file driver (src/core/read/h5_driver.cpp) asks for slices, in blocks of 1 MiB,
// through blobSource. createScopeSpeedscope({ readWholeBytes }) changes it
// (0: always lazily).
const READ_WHOLE_BYTES = 256 * 1024 * 1024;
// The bytes of a small enough File or Blob, else null. A Blob that cannot be
// read (removed or changed since it was picked) is left to the lazy path,
// whose failing read the core reports (file_unreadable).
function readWhole(file, limit) {
  if (!file || file.size > limit) return null;
  try {
    return new Uint8Array(new FileReaderSync().readAsArrayBuffer(file));
  } catch {
    return null;
  }
}

// A File or Blob as the core's lazy source: { size, read(offset, view) }.
// read fills the view (WebAssembly memory, valid during the call) and returns
// undefined; when the file ends first, the number of bytes it got (the core
// words that); else why it could not (src/wasm/bindings.cpp, JsSource). It
// never throws into the module.
function blobSource(file) {
  const reader = new FileReaderSync();
  return {
    size: file.size,
    read(offset, view) {
      try {
        const bytes = new Uint8Array(reader.readAsArrayBuffer(file.slice(offset, offset + view.byteLength)));
        if (bytes.byteLength !== view.byteLength) return bytes.byteLength;
        view.set(bytes);
        return undefined;
      } catch (error) {
        return String(error?.message ?? error);
      }
    },
  };
}

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
    const guardedSink = guardSink(js.sink ?? collectingSink(outputs), js.onProgress);
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
    const ready = await this.readInput(inputOf(input, 'input'));
    const progress = { progress: progressOf(js.onProgress) };
    const module = this.#live();
    const opened = this.#withInputs([ready], (m, [prepared]) => unwrap(m.openTimeline(prepared, core, progress)));
    const timeline = new Timeline(this.#callerOn(module), opened);
    timelineRegistry?.register(timeline, { module, id: opened.id }, timeline);
    return timeline;
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
    // The imbalance command's report (args as for parse, FILE read by the core).
    imbalance: (args) => {
      const { files } = this.cli.parse(args);
      const input = inputOf({ name: files[0], path: files[0] }, 'input');
      return this.#withInputs([input], (m, [prepared]) => unwrap(m.cliImbalance(prepared, args)));
    },
    // The diff command's report (args as for parse, A and B read by the core):
    // { text, regressed } (regressed: exit 3).
    diff: (args) => {
      const { files } = this.cli.parse(args);
      const inputs = files.slice(0, 2).map((f) => inputOf({ name: f, path: f }, 'input'));
      return this.#withInputs(inputs, (m, [a, b]) => unwrap(m.cliDiff(a, b, args)));
    },
  };

  #exportFiles(inputs, options) {
    const { core, js } = exportOptionsOf(options);
    const checked = inputsOf(inputs);
    const sink = js.sink ? guardSink(js.sink, js.onProgress) : { progress: progressOf(js.onProgress) };
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

// A timeline dropped without close() frees its columns when collected.
const timelineRegistry =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry(({ module, id }) => {
        try {
          module.timelineClose(id);
        } catch {
          /* that instance is gone */
        }
      })
    : null;

/**
 * A run's timeline, open in the module: lanes, frames and three queries.
 * Times are nanoseconds from the origin (the document's: the earliest first
 * call of the lanes shown), as numbers.
 */
// A timeline's id in the module (for compareRuns), kept out of its API.
const timelineIds = new WeakMap();

/**
 * Two runs compared (compareRuns): `regions` (compare_regions' rows), the
 * timelines `a` and `b`, `partnerLanes` (per lane of b, the lane of a of the
 * same name, or -1), `aligned()` (b's bars with each one's ratio to a).
 */
class RunComparison {
  #call;
  #id;
  #closed = false;

  constructor(call, opened, a, b) {
    this.#call = call;
    this.#id = opened.id;
    this.regions = opened.regions;
    this.partnerLanes = opened.partnerLanes;
    /** The comparison's frames: b's, then a's not among them; frameOfA: per frame of a, its index there. */
    this.frames = opened.frames;
    this.frameOfA = opened.frameOfA;
    this.memoryBytes = opened.memoryBytes;
    this.a = a;
    this.b = b;
  }

  /**
   * B's bars of `lane` (as timeline.bars) and each one's `ratio`: its calls'
   * durations over their partners' in A (same lane name, region and k-th call
   * of that region in the lane), NaN without a partner. Fresh typed arrays.
   */
  aligned(lane, start, end, width) {
    if (this.#closed) throw timelineClosedError('aligned');
    timelineLaneOf('aligned', lane);
    timelineWindowOf('aligned', start, end);
    timelineWidthOf('aligned', width);
    return this.#run('aligned', (m) => {
      const bars = unwrap(m.compareAligned(this.#id, lane, start, end, width));
      const out = {};
      for (const key of ['start', 'end', 'depth', 'frame', 'count', 'ratio', 'rows']) out[key] = bars[key].slice();
      return out;
    });
  }

  // Runs a query; the core's refusal of an argument is a RangeError.
  #run(method, fn) {
    try {
      return this.#call(method, fn);
    } catch (error) {
      if (error instanceof ScopeSpeedscopeError && error.code === 'bad_argument') {
        throw timelineRangeError(method, error.message);
      }
      throw error;
    }
  }

  /**
   * The rows of [start, end) of each run (each from its own origin), as
   * `regions` over the whole run: each run's regions of the window joined by
   * name in the core, with deltaTotalPct beside deltaSelfPct; largest
   * deltaSelf first, then by name.
   */
  regionsIn(start, end) {
    if (this.#closed) throw timelineClosedError('regionsIn');
    timelineWindowOf('regionsIn', start, end);
    return this.#run('regionsIn', (m) => unwrap(m.compareRegionsIn(this.#id, start, end)));
  }

  /** Frees both runs' columns in the module. */
  close() {
    if (this.#closed) return;
    this.#closed = true;
    this.a.close(); // the comparison goes with its timelines
    this.b.close();
  }
}

class Timeline {
  #call;
  #id;
  #closed = false;

  constructor(call, opened) {
    this.#call = call;
    this.#id = opened.id;
    timelineIds.set(this, opened.id);
    /** [{ name, calls, maxDepth, start, end }], the document's profiles in order. */
    this.lanes = opened.lanes;
    /** The document's shared.frames names, in order. */
    this.frames = opened.frames;
    /** Bytes the columns hold in the module. */
    this.memoryBytes = opened.memoryBytes;
    /** The widest bars query, in pixels (the core's limit). */
    this.maxWidth = opened.maxWidth;
    /** The origin in ns from the run's first call: the zero of `timeWindow`. */
    this.originInRun = opened.originInRun;
    /** The end of the window holding every call: the latest lane end (at least 0) + 1. */
    this.runEnd = opened.runEnd;
  }

  // Runs a query; the core's refusal of an argument is a RangeError.
  #run(method, fn) {
    if (this.#closed) throw timelineClosedError(method);
    try {
      return this.#call(method, fn);
    } catch (error) {
      if (error instanceof ScopeSpeedscopeError && error.code === 'bad_argument') {
        throw timelineRangeError(method, error.message);
      }
      throw error;
    }
  }

  /**
   * The calls of one lane overlapping [start, end) at `width` pixels, depth
   * after depth in time order: fresh typed arrays (transferable).
   */
  bars(lane, start, end, width) {
    if (this.#closed) throw timelineClosedError('bars');
    timelineLaneOf('bars', lane);
    timelineWindowOf('bars', start, end);
    timelineWidthOf('bars', width);
    return this.#run('bars', (m) => {
      const v = unwrap(m.timelineBars(this.#id, lane, start, end, width));
      return {
        start: v.start.slice(),
        end: v.end.slice(),
        depth: v.depth.slice(),
        frame: v.frame.slice(),
        count: v.count.slice(),
        rows: v.rows.slice(),
      };
    });
  }

  /** The calls of `lane` covering the instant `time`, from depth 0 down. */
  stackAt(lane, time) {
    if (this.#closed) throw timelineClosedError('stackAt');
    timelineLaneOf('stackAt', lane);
    timelineTimeOf('stackAt', time, 'time');
    const stack = this.#run('stackAt', (m) => unwrap(m.timelineStackAt(this.#id, lane, time)));
    return stack.map((e) => ({
      frame: e.frame,
      name: this.frames[e.frame],
      start: e.start,
      end: e.end,
      depth: e.depth,
      self: e.self,
    }));
  }

  /** Per frame with a call overlapping [start, end) on `lanes` (default all): calls, total, self. */
  regions(start, end, lanes) {
    if (this.#closed) throw timelineClosedError('regions');
    timelineWindowOf('regions', start, end);
    const chosen = timelineLanesOf('regions', lanes);
    const regions = this.#run('regions', (m) => unwrap(m.timelineRegions(this.#id, start, end, chosen)));
    return regions.map((r) => ({
      frame: r.frame,
      name: this.frames[r.frame],
      calls: r.calls,
      total: r.total,
      self: r.self,
    }));
  }

  /**
   * Who waits for whom in [start, end): one row per region with calls there,
   * { frame, name, ranks, min, median, mean, max, imbalance, slowestRank },
   * a rank's value being the region's covered time on it (the union of its
   * calls over its lanes; not regions()' total, which sums every call),
   * largest max - mean first.
   */
  imbalance(start, end) {
    if (this.#closed) throw timelineClosedError('imbalance');
    timelineWindowOf('imbalance', start, end);
    const rows = this.#run('imbalance', (m) => unwrap(m.timelineImbalance(this.#id, start, end)));
    return rows.map((r) => ({ ...r, name: this.frames[r.frame] }));
  }

  /**
   * The k-th call of `frame` on every rank, lined up, for each k below every
   * rank's count whose call starts in [start, end) on some rank: Float64Arrays
   * { k, rank, start, end, lateness, excess } (k, then rank, ascending), and
   * ranks, counts (per rank, over the whole run) and common (the smallest count).
   * `into`, an earlier answer the caller is done with, lends its columns'
   * memory to this one (memory touched before is several times cheaper to
   * write than fresh: at 2.7 M entries the columns are 130 MB).
   */
  alignedCalls(frame, start, end, into) {
    if (this.#closed) throw timelineClosedError('alignedCalls');
    timelineFrameOf('alignedCalls', frame);
    timelineWindowOf('alignedCalls', start, end);
    const lent = timelineAlignedIntoOf('alignedCalls', into);
    return this.#run('alignedCalls', (m) => {
      const v = unwrap(m.timelineAlignedCalls(this.#id, frame, start, end));
      const taken = new Set([m.HEAPU8.buffer]);
      for (const key of ALIGNED_COLUMNS) v[key] = copyInto(v[key], lent?.[key], taken);
      return v;
    });
  }

  /**
   * The Ranks panel's heatmap of `frame`'s aligned calls in [start, end) at
   * most `maxColumns` wide, built in the core from alignedCalls' answer: a
   * column is one step k, or `group` consecutive steps; a cell (r * cols + c)
   * shows the step of its column whose call on rank r strays furthest from
   * its step's median duration. { rows, cols, group, ranks, counts, common,
   * kFirst, kLast (Float64Array per column), k, excess, duration, spanStart,
   * spanEnd (Float64Array per cell) }, fresh arrays.
   */
  alignedGrid(frame, start, end, maxColumns) {
    if (this.#closed) throw timelineClosedError('alignedGrid');
    timelineFrameOf('alignedGrid', frame);
    timelineWindowOf('alignedGrid', start, end);
    timelineColumnsOf('alignedGrid', maxColumns);
    return this.#run('alignedGrid', (m) => unwrap(m.timelineAlignedGrid(this.#id, frame, start, end, maxColumns)));
  }

  /**
   * Each rank's mean lateness over `frame`'s aligned calls in [start, end)
   * (start − the step's median start, in ns): { ranks, lateness }, NaN for
   * every rank when no step is in the window.
   */
  meanLateness(frame, start, end) {
    if (this.#closed) throw timelineClosedError('meanLateness');
    timelineFrameOf('meanLateness', frame);
    timelineWindowOf('meanLateness', start, end);
    return this.#run('meanLateness', (m) => unwrap(m.timelineLateness(this.#id, frame, start, end)));
  }

  /**
   * How busy `lanes` (an array of lane indices, e.g. one rank's) are at
   * `width` pixels over [start, end): a Float32Array of the fraction of each
   * pixel's time their top-level calls cover, averaged over the lanes.
   */
  busy(lanes, start, end, width) {
    if (this.#closed) throw timelineClosedError('busy');
    const chosen = timelineLanesOf('busy', lanes, true);
    timelineWindowOf('busy', start, end);
    timelineWidthOf('busy', width);
    return this.#run('busy', (m) => unwrap(m.timelineBusy(this.#id, chosen, start, end, width)));
  }

  /**
   * The document exportSpeedscope writes for this timeline's file, ranks,
   * include and exclude, narrowed by options.timeWindow / minDuration, written
   * from the columns held here (the file is not read again): the same bytes,
   * whichever ranks it holds. A narrowing whose region order depends on ranks
   * it does not hold (two calls of one lane with the same clipped times whose
   * outer one those ranks decide) is a RangeError: export from the file then.
   */
  exportSpeedscope(options) {
    if (this.#closed) throw timelineClosedError('exportSpeedscope');
    const { core, js } = timelineExportOptionsOf(options);
    const outputs = [];
    const guardedSink = guardSink(js.sink ?? collectingSink(outputs), js.onProgress);
    const written = this.#run('exportSpeedscope', (m) =>
      unwrap(m.timelineExportSpeedscope(this.#id, core, guardedSink)),
    );
    return js.sink ? written : outputs;
  }

  /**
   * overview() of this timeline's file, ranks, include and exclude, from the
   * columns held here (the file is not read again): { calls, events,
   * firstStart, lastEnd, time, durations } and, with options.maxEvents, the
   * suggestion. options: { bins, maxEvents }.
   */
  overview(options) {
    if (this.#closed) throw timelineClosedError('overview');
    const core = timelineOverviewOptionsOf(options);
    return this.#run('overview', (m) => unwrap(m.timelineOverview(this.#id, core)));
  }

  /**
   * The window around the middle of [start, end) holding at most `maxCalls`
   * calls over every lane ([start, end) when it does): what fits a budget.
   */
  windowWithin(start, end, maxCalls) {
    if (this.#closed) throw timelineClosedError('windowWithin');
    timelineWindowOf('windowWithin', start, end);
    timelineCountOf('windowWithin', maxCalls, 'maxCalls');
    return this.#run('windowWithin', (m) => unwrap(m.timelineWindowWithin(this.#id, start, end, maxCalls)));
  }

  /** Frees the columns in the module; the timeline cannot be asked again. */
  close() {
    if (this.#closed) return;
    this.#closed = true;
    timelineRegistry?.unregister(this);
    try {
      this.#call('close', (m) => m.timelineClose(this.#id));
    } catch (error) {
      if (!(error instanceof TypeError)) throw error; // its instance is gone already
    }
  }
}

function collectingSink(outputs) {
  let current = null;
  return {
    open(fileName) {
      current = { fileName, chunks: [] };
    },
    write(view) {
      current.chunks.push(view.slice());
    },
    close() {
      outputs.push(current);
      current = null;
    },
    commit() {},
    abort() {
      outputs.length = 0;
      current = null;
    },
  };
}

// A progress callback for the core, which it cannot stop by throwing.
function progressOf(onProgress) {
  return (phase, done, total) => {
    if (onProgress) {
      try {
        onProgress({ phase, done, total });
      } catch {
        /* a progress callback cannot stop us */
      }
    }
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
    abort: () => {
      call('abort');
    },
    progress: progressOf(onProgress),
  };
}

export function concatChunks(chunks) {
  const size = chunks.reduce((n, c) => n + c.byteLength, 0);
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
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

async function compileWasm(moduleArgs) {
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

async function instantiateAsync(createModule, moduleArgs, compiled) {
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
function instantiateNow(createModule, moduleArgs, compiled) {
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
