// What callers of scope-speedscope pass, checked in this one place: the
// options of exportSpeedscope and createScopeSpeedscope, and inputs. A wrong
// type is a TypeError naming the option, before anything is read or
// converted; values are checked by the core (a rank the file does not have,
// a bad regular expression), whose errors are ScopeSpeedscopeErrors.
// Part of api.js (imported by it alone); imports nothing.

function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`;
    case 'number':
      return `a number (${value})`;
    case 'bigint':
      return `a bigint (${value}n)`;
    case 'boolean':
      return `a boolean (${value})`;
    case 'function':
      return 'a function';
    case 'undefined':
      return 'undefined';
    default:
      return value?.constructor?.name ? `an object (${value.constructor.name})` : 'an object';
  }
}

function optionError(message) {
  return new TypeError(`scope-speedscope: ${message}`);
}

function each(value, name, what, ok) {
  if (!Array.isArray(value)) throw optionError(`${name} must be ${what}, not ${describe(value)}`);
  value.forEach((item, i) => {
    if (!ok(item)) throw optionError(`${name} must be ${what}; ${name}[${i}] is ${describe(item)}`);
  });
  return [...value];
}

const isString = (v) => typeof v === 'string';
const isFunction = (v) => typeof v === 'function';

const checks = {
  boolean: (value, name) => {
    if (typeof value !== 'boolean') throw optionError(`${name} must be true or false, not ${describe(value)}`);
    return value;
  },
  string: (value, name) => {
    if (!isString(value)) throw optionError(`${name} must be a string, not ${describe(value)}`);
    return value;
  },
  strings: (value, name) => each(value, name, 'an array of strings', isString),
  // A pattern or a list of them (regular expressions, matched by the core).
  patterns: (value, name) =>
    isString(value) ? [value] : each(value, name, 'a string or an array of strings', isString),
  // Rank numbers are checked against the file by the core ("Invalid rank requested").
  integers: (value, name) => each(value, name, 'an array of integers', Number.isSafeInteger),
  // openTimeline's and exportSpeedscope's ranks: 'all' (every rank of the file) or rank numbers.
  ranksOrAll: (value, name) => {
    if (value === 'all') return value;
    if (!Array.isArray(value))
      throw optionError(`${name} must be 'all' or an array of integers, not ${describe(value)}`);
    return checks.integers(value, name);
  },
  positiveInteger: (value, name) => {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw optionError(`${name} must be a positive integer, not ${describe(value)}`);
    }
    return value;
  },
  nonNegativeInteger: (value, name) => {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw optionError(`${name} must be a non-negative integer, not ${describe(value)}`);
    }
    return value;
  },
  // Seconds, or text such as "100us" (the core checks the value).
  time: (value, name) => {
    if (typeof value !== 'number' && !isString(value)) {
      throw optionError(`${name} must be a number of seconds or a string such as "100us", not ${describe(value)}`);
    }
    return value;
  },
  // [start, end] (each seconds, text or null for an open end) or "START:END".
  window: (value, name) => {
    if (isString(value)) return value;
    const ok = (v) => v === null || typeof v === 'number' || isString(v);
    if (!Array.isArray(value) || value.length !== 2 || !value.every(ok)) {
      throw optionError(
        `${name} must be [start, end] (each a number of seconds, a string such as "2ms", or null) or a string "START:END", not ${describe(value)}`,
      );
    }
    return [...value];
  },
  function: (value, name) => {
    if (!isFunction(value)) throw optionError(`${name} must be a function, not ${describe(value)}`);
    return value;
  },
  sink: (value, name) => {
    if (typeof value !== 'object') {
      throw optionError(`${name} must be an object with open, write and close methods, not ${describe(value)}`);
    }
    for (const method of ['open', 'write', 'close']) {
      if (!isFunction(value[method])) {
        throw optionError(
          `${name}.${method} must be a function (a sink has open, write and close methods, and optionally commit and abort), not ${describe(value[method])}`,
        );
      }
    }
    for (const method of ['commit', 'abort']) {
      if (value[method] !== undefined && !isFunction(value[method])) {
        throw optionError(`${name}.${method} must be a function, not ${describe(value[method])}`);
      }
    }
    return value;
  },
};

// Every option of exportSpeedscope: its check and its default. `undefined`
// and `null` mean the default. Options marked `js` stay in this file; the
// others go to the core (src/wasm/bindings.cpp reads them by these names).
// A new option is one line here and one in index.d.ts (ExportOptions).
const EXPORT_OPTIONS = {
  filepath: { check: checks.string, default: 'profile.speedscope.json' },
  ranks: { check: checks.ranksOrAll, default: null },
  include: { check: checks.patterns, default: null },
  exclude: { check: checks.patterns, default: null },
  labels: { check: checks.strings, default: [] },
  minDuration: { check: checks.time, default: null },
  timeWindow: { check: checks.window, default: null },
  flushSize: { check: checks.positiveInteger, default: undefined },
  sourceLocations: { check: checks.boolean, default: false },
  onProgress: { check: checks.function, default: undefined, js: true },
  onWarning: { check: checks.function, default: undefined, js: true },
  sink: { check: checks.sink, default: undefined, js: true },
};

function optionsOf(options, specs, what) {
  if (options === undefined || options === null) options = {};
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw optionError(`${what} must be an object, not ${describe(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!Object.hasOwn(specs, key)) {
      throw optionError(`unknown option ${JSON.stringify(key)} (the options are ${Object.keys(specs).join(', ')})`);
    }
  }
  const core = {};
  const js = {};
  for (const [name, spec] of Object.entries(specs)) {
    const value = options[name];
    const checked = value === undefined || value === null ? spec.default : spec.check(value, name);
    if (checked !== undefined) (spec.js ? js : core)[name] = checked;
  }
  return { core, js };
}

/** Checks exportSpeedscope's options; returns { core, js } (what the core gets, what stays here). */
export function exportOptionsOf(options) {
  return optionsOf(options, EXPORT_OPTIONS, 'options');
}

// timeline.exportSpeedscope's: the export's, less what the timeline was opened with.
const TIMELINE_EXPORT_OPTIONS = Object.fromEntries(
  Object.entries(EXPORT_OPTIONS).filter(
    ([name]) => !['ranks', 'include', 'exclude', 'labels', 'onWarning'].includes(name),
  ),
);

/** Checks timeline.exportSpeedscope's options; returns { core, js }. */
export function timelineExportOptionsOf(options) {
  return optionsOf(options, TIMELINE_EXPORT_OPTIONS, "timeline.exportSpeedscope's options");
}

// overview's options, all for the core.
const OVERVIEW_OPTIONS = {
  ranks: { check: checks.integers, default: null },
  include: { check: checks.patterns, default: null },
  exclude: { check: checks.patterns, default: null },
  bins: { check: checks.positiveInteger, default: 200 },
  maxEvents: { check: checks.nonNegativeInteger, default: null },
};

/** Checks overview's options; returns what the core gets. */
export function overviewOptionsOf(options) {
  return optionsOf(options, OVERVIEW_OPTIONS, "overview's options").core;
}

// timeline.overview's options: the overview's own (the selection is the timeline's).
const TIMELINE_OVERVIEW_OPTIONS = {
  bins: OVERVIEW_OPTIONS.bins,
  maxEvents: OVERVIEW_OPTIONS.maxEvents,
};

/** Checks timeline.overview's options; returns what the core gets. */
export function timelineOverviewOptionsOf(options) {
  return optionsOf(options, TIMELINE_OVERVIEW_OPTIONS, "timeline.overview's options").core;
}

/** Checks suggestNarrowing's arguments; returns { maxEvents }. */
export function suggestOptionsOf(overview, options) {
  if (
    overview === null ||
    typeof overview !== 'object' ||
    typeof overview.time !== 'object' ||
    typeof overview.durations !== 'object'
  ) {
    throw optionError(`suggestNarrowing's first argument must be what overview() returned, not ${describe(overview)}`);
  }
  if (options === null || typeof options !== 'object') {
    throw optionError(`suggestNarrowing's options must be an object { maxEvents }, not ${describe(options)}`);
  }
  return { maxEvents: checks.nonNegativeInteger(options.maxEvents, 'maxEvents') };
}

// openTimeline's options: ranks, filters and sourceLocations for the core,
// onProgress and onWarning here.
const TIMELINE_OPTIONS = {
  ranks: { check: checks.ranksOrAll, default: null },
  include: { check: checks.patterns, default: null },
  exclude: { check: checks.patterns, default: null },
  sourceLocations: { check: checks.boolean, default: false },
  onProgress: { check: checks.function, default: undefined, js: true },
  onWarning: { check: checks.function, default: undefined, js: true },
};

/** Checks openTimeline's options; returns { core, js }. */
export function timelineOptionsOf(options) {
  return optionsOf(options, TIMELINE_OPTIONS, "openTimeline's options");
}

// The arguments of a timeline's queries. Here, what the core's parameters
// can hold: a TypeError naming the argument for a value of another type (a
// lane is an integer index, a time a finite number, a width an integer
// number of pixels), a RangeError for a negative lane or width. The values
// (a lane the timeline has, a window that ends after it starts, a width the
// core draws at) are the core's to judge: timelineRangeError turns its
// refusal into a RangeError.
function timelineError(Kind, method, message) {
  return new Kind(`scope-speedscope: timeline.${method}: ${message}`);
}

export function timelineLaneOf(method, lane, name = 'lane') {
  if (!Number.isInteger(lane)) {
    throw timelineError(
      TypeError,
      method,
      `${name} must be an integer (an index into timeline.lanes), not ${describe(lane)}`,
    );
  }
  if (lane < 0) throw timelineError(RangeError, method, `${name} ${lane} is out of range (lanes are numbered from 0)`);
  return lane;
}

export function timelineTimeOf(method, value, name) {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw timelineError(
      TypeError,
      method,
      `${name} must be a finite number of nanoseconds from the origin, not ${describe(value)}`,
    );
  }
  return value;
}

export function timelineWindowOf(method, start, end) {
  timelineTimeOf(method, start, 'start');
  timelineTimeOf(method, end, 'end');
}

export function timelineColumnsOf(method, columns) {
  if (!Number.isInteger(columns)) {
    throw timelineError(TypeError, method, `maxColumns must be an integer, not ${describe(columns)}`);
  }
  if (columns < 1) throw timelineError(RangeError, method, `maxColumns ${columns} is out of range (at least 1)`);
  return columns;
}

export function timelineWidthOf(method, width) {
  if (!Number.isInteger(width)) {
    throw timelineError(TypeError, method, `width must be an integer number of pixels, not ${describe(width)}`);
  }
  if (width < 0) throw timelineError(RangeError, method, `width ${width} is out of range (a number of pixels)`);
  return width;
}

// A count of calls (windowWithin's budget): a whole number, 0 or more.
export function timelineCountOf(method, value, name) {
  if (!Number.isInteger(value)) {
    throw timelineError(TypeError, method, `${name} must be an integer number of calls, not ${describe(value)}`);
  }
  if (value < 0) throw timelineError(RangeError, method, `${name} ${value} is out of range (a number of calls)`);
  return value;
}

// bandFrames' depth: a whole number, 0 at the top.
export function timelineDepthOf(method, depth) {
  if (!Number.isInteger(depth)) {
    throw timelineError(TypeError, method, `depth must be an integer depth (0 at the top), not ${describe(depth)}`);
  }
  if (depth < 0) throw timelineError(RangeError, method, `depth ${depth} is out of range (0 at the top)`);
  return depth;
}

// alignedCalls' frame: an index into timeline.frames (the core checks its range).
export function timelineFrameOf(method, frame) {
  if (!Number.isInteger(frame)) {
    throw timelineError(
      TypeError,
      method,
      `frame must be an integer (an index into timeline.frames), not ${describe(frame)}`,
    );
  }
  return frame;
}

// The entry columns of an alignedCalls answer.
export const ALIGNED_COLUMNS = ['k', 'rank', 'start', 'end', 'lateness', 'excess'];

// alignedCalls' `into`: undefined, or an earlier answer whose six columns
// are Float64Arrays (the caller gives them up: their memory holds the next
// answer).
export function timelineAlignedIntoOf(method, into) {
  if (into === undefined) return null;
  if (into === null || typeof into !== 'object') {
    throw timelineError(TypeError, method, `into must be an earlier answer of ${method}, not ${describe(into)}`);
  }
  for (const key of ALIGNED_COLUMNS) {
    if (!(into[key] instanceof Float64Array)) {
      throw timelineError(
        TypeError,
        method,
        `into.${key} must be a Float64Array (into: an earlier answer of ${method}), not ${describe(into[key])}`,
      );
    }
  }
  return into;
}

// regions' lanes: undefined or null for all, else lane indices.
export function timelineLanesOf(method, value, required = false) {
  if ((value === undefined || value === null) && !required) return null;
  if (!Array.isArray(value)) {
    throw timelineError(TypeError, method, `lanes must be an array of lane indices, not ${describe(value)}`);
  }
  return value.map((lane, i) => timelineLaneOf(method, lane, `lanes[${i}]`));
}

// The core's refusal of an argument's value (its bad_argument detail, which
// may start with the query's name) as a RangeError naming the query.
// Queries the core answers through another one, whose name its refusals carry.
const ANSWERED_BY = { alignedGrid: 'alignedCalls', meanLateness: 'alignedCalls' };

export function timelineRangeError(method, detail) {
  const named = [method, ANSWERED_BY[method]].find((m) => m && detail.startsWith(`${m}: `));
  const own = named ? detail.slice(named.length + 2) : detail;
  return timelineError(RangeError, method, own);
}

export function timelineClosedError(method) {
  return timelineError(TypeError, method, 'the timeline is closed');
}

const CREATE_OPTIONS = {
  wasmBinary: (value, name) => {
    if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return value;
    throw optionError(`${name} must be an ArrayBuffer or a Uint8Array, not ${describe(value)}`);
  },
  locateFile: checks.function,
  readWholeBytes: checks.nonNegativeInteger,
  print: checks.function,
  printErr: checks.function,
};

/** Checks createScopeSpeedscope's options; returns a copy without the unset ones. */
export function createOptionsOf(options) {
  if (options === undefined || options === null) options = {};
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw optionError(`createScopeSpeedscope's options must be an object, not ${describe(options)}`);
  }
  const out = {};
  for (const [key, value] of Object.entries(options)) {
    if (!Object.hasOwn(CREATE_OPTIONS, key)) {
      throw optionError(
        `unknown option ${JSON.stringify(key)} of createScopeSpeedscope (the options are ${Object.keys(CREATE_OPTIONS).join(', ')})`,
      );
    }
    if (value !== undefined && value !== null) out[key] = CREATE_OPTIONS[key](value, key);
  }
  return out;
}

// A File or Blob can be read synchronously (FileReaderSync, as the core's
// reads need) only inside (dedicated) Web Workers.
export const canReadBlobsSynchronously = typeof FileReaderSync === 'function';

const isBlob = (v) =>
  v !== null &&
  typeof v === 'object' &&
  typeof v.size === 'number' &&
  typeof v.slice === 'function' &&
  typeof v.arrayBuffer === 'function';

const INPUT_SHAPES = '{ name, bytes } (a Uint8Array), { name, file } (a File or Blob) or { name, path }';

/** Checks one input; returns { name, bytes } | { name, file } | { name, path }. */
export function inputOf(input, where) {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw optionError(`${where} must be an object: ${INPUT_SHAPES}, not ${describe(input)}`);
  }
  if (!isString(input.name)) {
    throw optionError(
      `${where}.name must be a string (the file's name, used in messages and labels), not ${describe(input.name)}`,
    );
  }
  const { name } = input;
  if (input.bytes !== undefined) {
    if (input.bytes instanceof Uint8Array) return { name, bytes: input.bytes };
    if (input.bytes instanceof ArrayBuffer) return { name, bytes: new Uint8Array(input.bytes) };
    throw optionError(`input ${name}: bytes must be a Uint8Array or an ArrayBuffer, not ${describe(input.bytes)}`);
  }
  if (input.file !== undefined) {
    if (isBlob(input.file)) return { name, file: input.file };
    throw optionError(`input ${name}: file must be a File or a Blob, not ${describe(input.file)}`);
  }
  if (input.path !== undefined) {
    if (isString(input.path)) return { name, path: input.path };
    throw optionError(`input ${name}: path must be a string, not ${describe(input.path)}`);
  }
  throw optionError(`input ${name} has no bytes, file or path; an input is ${INPUT_SHAPES}`);
}

export function inputsOf(inputs) {
  if (!Array.isArray(inputs)) return [inputOf(inputs, 'input')];
  return inputs.map((input, i) => inputOf(input, `inputs[${i}]`));
}

export function blobOnMainThreadError(name) {
  return optionError(
    `input ${name}: a File or Blob can be read synchronously only inside a Web Worker. ` +
      'Here, use the async methods (await sp.exportSpeedscopeAsync(inputs, options), await sp.inspectAsync(input)), ' +
      'or read it first: await sp.readInput({ name, file }) gives { name, bytes }.',
  );
}
