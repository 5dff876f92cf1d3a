// Types of the scope-speedscope package: one file for both entries, browser.js
// (browsers, Web Workers, bundlers) and node.js (Node), which share api.js.
// index.d.cts is a copy of it for CommonJS (require), whose index.cjs exports
// the same names.

export declare const NS_PER_SECOND: 1000000000;
export declare const SCHEMA_URL: 'https://www.speedscope.app/file-format-schema.json';
export declare const TIME_UNIT: 'seconds';

export type ErrorKind =
  | 'ValueError'
  | 'NestingError'
  | 'CorruptProfileError'
  | 'HDF5SchemaError'
  | 'FileNotFoundError'
  | 'OSError'
  | 'UsageError'
  | 'PatternError'
  | 'MemoryError'
  | 'Error';

/** The option an error blames. */
export type ErrorField = 'include' | 'exclude' | 'ranks' | 'minDuration' | 'timeWindow' | 'filepath' | 'overview';

/**
 * A failed conversion. `message` is exactly what the CLIs print after "error: ";
 * `peopleMessage` says the same for people (for a page that shows the file's
 * name beside it): it never repeats the file name and never names a Python
 * class. Both come from one table in the core (src/core/text/messages.cpp).
 * A conversion that stops inside the WebAssembly module (a trap such as
 * "memory access out of bounds") is code 'converter_stopped', kind
 * 'CorruptProfileError': "<name>: the file is damaged: the converter stopped
 * (<trap>)"; the next call gets a fresh module instance.
 */
export declare class ScopeSpeedscopeError extends Error {
  readonly name: 'ScopeSpeedscopeError';
  readonly kind: ErrorKind;
  /**
   * Which message: 'file_not_found', 'not_hdf5' (damaged or cut short),
   * 'not_hdf5_no_signature' (not HDF5 at all), 'not_hdf5_empty', 'corrupt_file',
   * 'truncated_index', 'overlapping_index', 'schema_not_integer',
   * 'schema_not_positive', 'schema_too_new', 'negative_index_value',
   * 'rank_out_of_range', 'thread_id_out_of_range', 'decoded_time_overflow',
   * 'bad_mpi_size', 'declared_size_exceeds_storage', 'strings_exceed_file',
   * 'damaged_string', 'duplicate_region_name', 'group_reached_twice',
   * 'converter_stopped', 'file_unreadable' (the bytes could not be read: not
   * damage), 'too_large' (more memory than one file may take: 2 GiB in this
   * package, as in the page; the native CLI takes the machine's memory and
   * says 'too_large_for_machine' past it),
   * 'unsupported_filter' (compressed with a filter other than gzip, shuffle,
   * LZF and Zstandard),
   * 'no_profiling_data',
   * 'no_regions_matched', 'no_calls_recorded', 'invalid_rank',
   * 'ends_before_starts', 'not_properly_nested', 'calls_overlap', 'too_many_calls',
   * 'invalid_regex', 'pattern_too_complex', 'pattern_match_failed',
   * 'empty_output_name', 'cannot_write', 'cannot_create_directory',
   * 'output_failed', 'invalid_duration', 'invalid_time_window',
   * 'time_window_backwards', 'nothing_left_min', 'nothing_left_window',
   * 'nothing_left_both', 'usage', 'bad_argument', 'out_of_memory', 'internal'
   * (null for errors made outside the core).
   */
  readonly code: string | null;
  /** The message for people. */
  readonly peopleMessage: string;
  /** The input to blame, as named in the input (`Input.name`); null when no input file is to blame. */
  readonly file: string | null;
  /** The option to blame; null when none is. */
  readonly field: ErrorField | null;
  /** The position in that option's list (`include` / `exclude` pattern, `ranks` entry); null otherwise. */
  readonly index: number | null;
  constructor(
    kind: ErrorKind,
    message: string,
    details?: {
      code?: string | null;
      peopleMessage?: string;
      file?: string | null;
      field?: ErrorField | null;
      index?: number | null;
    },
  );
}

/**
 * An HDF5 file: its name (used in messages and labels) and its bytes, a File
 * or Blob, or a path: in Node a file on disk, read lazily (any size), in
 * browsers a path in the module's file system. The synchronous methods
 * take a File or Blob only inside a Web Worker (read whole up to 256 MiB,
 * lazily above, any size); on the
 * main thread and in Node use the async methods, or readInput first.
 */
export type Input =
  { name: string; bytes: Uint8Array | ArrayBuffer } | { name: string; file: Blob } | { name: string; path: string };

export interface Progress {
  /** 'index': openTimeline making its columns (one step a lane). */
  phase: 'read' | 'reconstruct' | 'write' | 'index';
  done: number;
  total: number;
}

/**
 * Bytes in an ArrayBuffer of their own: Uint8Array<ArrayBuffer> in
 * TypeScript 5.7 and later (what `new Blob(chunks)` and `fs.writeFile` take),
 * Uint8Array before.
 */
export type Bytes = ReturnType<Uint8Array['slice']>;

export interface Output {
  /** As scope-profiler's export_speedscope names it, e.g. "profile.speedscope.json". */
  fileName: string;
  /** Concatenated, the document's bytes (ASCII JSON). */
  chunks: Bytes[];
}

/** Receives outputs as they are written; see docs/package-api.md. Methods may throw: the export then fails. */
export interface OutputSink {
  open(fileName: string): void;
  write(chunk: Uint8Array): void; // valid during the call only: copy it
  close(): void;
  /** Every output is complete (optional). */
  commit?(): void;
  /** The export failed: drop what was written (optional). */
  abort?(): void;
}

/**
 * Options of exportSpeedscope; null or undefined means the default. A wrong
 * type or an unknown option is a TypeError naming it.
 */
export interface RegionTotals {
  calls: number;
  /** The sum of the region's call durations, ns. */
  total: number;
  /** The sum of each call's duration less its direct children's, ns. */
  self: number;
}

export interface RegionComparison {
  name: string;
  a: RegionTotals;
  b: RegionTotals;
  deltaTotal: number;
  deltaSelf: number;
  /** 100 × (b.self − a.self) / a.self; null when a.self is 0. */
  deltaSelfPct: number | null;
}

/** A row of a window (RunComparison.regionsIn). */
export interface WindowRegionComparison extends RegionComparison {
  /** 100 × (b.total − a.total) / a.total; null when a.total is 0. */
  deltaTotalPct: number | null;
}

export interface RunComparison {
  /** Per region name with a call in either run: both runs' totals and the change; largest deltaSelf first. */
  regions: RegionComparison[];
  /**
   * The rows of [start, end) of each run (each from its own origin): each
   * run's regions of the window joined by name as `regions` joins them over
   * the whole run (where they are its rows); largest deltaSelf first.
   */
  regionsIn(start: number, end: number): WindowRegionComparison[];
  /** Both runs as timelines (opened with the same options). */
  a: Timeline;
  b: Timeline;
  /** Per lane of b: the lane of a with the same name, or -1. */
  partnerLanes: number[];
  /** The comparison's frames: b's, then a's not among them, in a's order. */
  frames: string[];
  /** Per frame of a: its index in `frames`. */
  frameOfA: Int32Array;
  /** Bytes the alignment holds beside the two timelines. */
  memoryBytes: number;
  /**
   * b's bars of `lane` (as b.bars) and each one's ratio: its calls' durations
   * over their partners' in a (the lane of the same name, the same region, the
   * k-th call of that region in the lane by start), NaN without a partner.
   */
  aligned(lane: number, start: number, end: number, width: number): TimelineBars & { ratio: Float64Array };
  /** Frees both runs (closes a and b). */
  close(): void;
}

/**
 * timeline.exportSpeedscope's options: the export's, less the selection the
 * timeline was opened with. sourceLocations: true needs a timeline opened with
 * sourceLocations: true (its frames' sources are the ones it read).
 */
export type TimelineExportOptions = Omit<ExportOptions, 'ranks' | 'include' | 'exclude' | 'labels' | 'onWarning'>;

export interface ExportOptions {
  /** Base path as export_speedscope takes it. Default "profile.speedscope.json". */
  filepath?: string | null;
  /** Ranks (integers), used as given, or 'all': every rank of each input (the CLIs' --ranks all). Default [0]. */
  ranks?: number[] | 'all' | null;
  /** Regular expressions matched at the start of region names (Python re.match). */
  include?: string | string[] | null;
  exclude?: string | string[] | null;
  /** Labels replacing each input's label, in order. */
  labels?: string[] | null;
  /**
   * Drop every call shorter than this: seconds (1e-4) or text ("100us", "2ms",
   * "500ns", "1s", "0.5"). The output is then exactly the export of a file
   * holding only the kept calls. Default: none (scope-profiler's output).
   */
  minDuration?: TimeValue | null;
  /**
   * Keep the calls that overlap [start, end), in seconds from the run's first
   * call (the earliest start in the whole file), cut at the window's edges;
   * null for an open end. Also "START:END" as on the command line.
   */
  timeWindow?: [TimeValue | null, TimeValue | null] | string | null;
  /**
   * Give each frame its region's `file` and `line` (the CLIs'
   * --source-locations): the lowest rank's row's, "file" only when known (not
   * ""), "line" only when known (>= 0). Default false: scope-profiler's
   * frames, `{name}` only, and nothing of the source is read.
   */
  sourceLocations?: boolean | null;
  onProgress?: ((progress: Progress) => void) | null;
  /** Each warning of a read: with sourceLocations, source values read as unknown. */
  onWarning?: ((message: string) => void) | null;
  /** Stream outputs here instead of returning their chunks. */
  sink?: OutputSink;
  /** Chunk size in bytes, a positive integer (default 65536). */
  flushSize?: number | null;
}

/** Seconds as a number, or text: "1e-4", "0.5", "500ns", "100us", "2ms", "1s". */
export type TimeValue = number | string;

export interface OverviewOptions {
  /** Default [0], as the export. */
  ranks?: number[] | null;
  include?: string | string[] | null;
  exclude?: string | string[] | null;
  /** At most this many time bins (default 200). */
  bins?: number;
  /** When given, the result carries `suggestion` for this budget of events (two a call). */
  maxEvents?: number | null;
}

/**
 * What a selection (ranks x regions kept by the filters) of one input holds.
 * Times are seconds from the run's first call, the origin of `timeWindow`.
 *
 * Exact counts for narrowing:
 * - the calls `timeWindow: [time.edges[a], time.edges[b]]` keeps:
 *   `calls - sum(time.ends[0 .. a-1]) - sum(time.starts[b ..])`;
 * - the calls `minDuration: durations.labels[j]` keeps: `durations.atLeast[j]`.
 */
export interface Overview {
  calls: number;
  /** Two a call: what the viewer gets. */
  events: number;
  /** The selection's first start and last end (a call that does not last counts 1 ns); null without calls. */
  firstStart: number | null;
  lastEnd: number | null;
  time: {
    /** Bin width in seconds: 1, 2 or 5 times a power of ten. */
    binWidth: number;
    binWidthNs: number;
    /** The first edge in ns from the origin. */
    firstEdgeNs: number;
    /** bins + 1 edges, seconds (empty without calls). */
    edges: number[];
    /** Calls starting in each bin. */
    starts: number[];
    /** Calls whose time ends in each bin (a call covers [start, end), or [start, start + 1 ns) when it does not last). */
    ends: number[];
  };
  durations: {
    /** Edge j: 1, 1.25, 1.6, 2, 2.5, 3.15, 4, 5, 6.3, 8 times 10^k ns, in seconds, up to the longest call. */
    edges: number[];
    /** The same edges as minDuration text: "1ns", "1.25ns", ..., "31.5us", "2ms". */
    labels: string[];
    /** counts[0]: calls shorter than edges[0] (1 ns); counts[j + 1]: calls from edges[j] to edges[j + 1]. */
    counts: number[];
    /** atLeast[j]: calls lasting edges[j] or longer (what minDuration: labels[j] keeps). */
    atLeast: number[];
  };
  /** With `maxEvents` only. */
  suggestion?: NarrowingSuggestion;
}

/** A narrowing that brings a selection within a budget of events. */
export interface NarrowingSuggestion {
  /** No narrowing needed. */
  fits: boolean;
  calls: number;
  events: number;
  maxCalls: number;
  /** The smallest duration edge that fits (and keeps a call); pass `value` as `minDuration`. */
  minDuration: { value: string; seconds: number; calls: number; events: number } | null;
  /**
   * The longest bin-aligned window that fits (and keeps a call), the earliest
   * of equals; pass `value` as `timeWindow` (exact text), `text` is "START:END".
   */
  timeWindow: {
    value: [string, string];
    text: string;
    start: number;
    end: number;
    calls: number;
    events: number;
  } | null;
  /**
   * The one to offer first: the one that keeps more calls (a minimum duration
   * that keeps a few long calls is no look at the run), 'minDuration' when
   * both keep as many; null when neither exists (or the selection fits).
   */
  preferred: 'minDuration' | 'timeWindow' | null;
}

export interface Inspection {
  label: string;
  displayLabel: string;
  schemaVersion: number;
  storageLayout: string;
  /** Valid ranks are 0 .. numRanks - 1. */
  numRanks: number;
  calls: number;
  ranks: Array<{
    rank: number;
    calls: number;
    lanes: Array<{ lane: number; label: string; profileName: string; calls: number }>;
  }>;
  regions: Array<{ name: string; calls: number; ranks: number[] }>;
}

export interface SpeedscopeDocument {
  $schema: typeof SCHEMA_URL;
  exporter: string;
  name: string;
  activeProfileIndex: number;
  shared: { frames: Array<{ name: string }> };
  profiles: Array<{
    type: 'evented';
    name: string;
    unit: typeof TIME_UNIT;
    startValue: number;
    endValue: number;
    events: Array<{ type: 'O' | 'C'; frame: number; at: number }>;
  }>;
}

/** Options of openTimeline; null or undefined means the default (as for the export). */
export interface TimelineOptions {
  /**
   * Ranks (integers), used as given, or 'all': every rank of the file. Default
   * [0], or every rank the run has when it has no rank 0 (one process's file).
   */
  ranks?: number[] | 'all' | null;
  include?: string | string[] | null;
  exclude?: string | string[] | null;
  /** Read each region's source location: `timeline.frameSources`. Default false. */
  sourceLocations?: boolean | null;
  onProgress?: ((progress: Progress) => void) | null;
  /** Each warning of the read: with sourceLocations, source values read as unknown. */
  onWarning?: ((message: string) => void) | null;
}

/** A frame's source location; each part null when the file does not record it (or it was bad). */
export interface FrameSource {
  file: string | null;
  line: number | null;
  text: string | null;
}

/** One lane: a profile of the speedscope document the same options write. */
export interface TimelineLane {
  /** The profile's name: "rank 0", "rank 0 - MainThread", ... */
  name: string;
  calls: number;
  /** Its deepest depth, 0 at the top. */
  maxDepth: number;
  /** Its first call's start, ns from the origin. */
  start: number;
  /** Its latest end, ns from the origin. */
  end: number;
  /** The MPI rank it belongs to. */
  rank: number;
}

/**
 * Items of one lane over a window, depth after depth, each depth in time
 * order; item i is (start[i], end[i], depth[i], frame[i], count[i]). A call
 * lasting a pixel or more is an item of its own (count 1); shorter calls may
 * be merged into blocks (count calls, the first start and the last end, their
 * frame when they share one, else -1). Fresh arrays: transfer them freely.
 */
export interface TimelineBars {
  start: Float64Array;
  end: Float64Array;
  depth: Uint32Array;
  frame: Int32Array;
  count: Uint32Array;
  /** Items come depth after depth: rows[d] .. rows[d + 1] are depth d's (the lane's maxDepth + 2 entries). */
  rows: Uint32Array;
}

export interface TimelineStackEntry {
  frame: number;
  name: string;
  start: number;
  end: number;
  depth: number;
  /** Its duration less its children's (ns). */
  self: number;
}

export interface TimelineRegion {
  frame: number;
  name: string;
  /** Calls of the frame overlapping the window. */
  calls: number;
  /** Its calls cut to the window, summed, a call inside one of its own region too (ns): diff's total. */
  total: number;
  /** Each call cut to the window less its direct children cut to it (ns). */
  self: number;
}

/**
 * One region in a window across the selected ranks: a rank's value is the
 * region's covered time there (the union of its calls over that rank's
 * lanes, not regions()' total; 0 on a rank without calls of it in the
 * window), in ns.
 */
export interface TimelineImbalance {
  frame: number;
  name: string;
  /** The selected ranks (each rank with a lane, once). */
  ranks: number;
  min: number;
  median: number;
  mean: number;
  max: number;
  /** (max - mean) / max; 0 when max is 0. */
  imbalance: number;
  /** The lowest rank holding max. */
  slowestRank: number;
}

/**
 * The k-th call of a frame on every selected rank, lined up: calls of the
 * frame on a rank (all its lanes) numbered 0, 1, ... over the whole run by
 * start (then lane, then depth). Entry i is (k[i], rank[i], start[i],
 * end[i], lateness[i], excess[i]), k then rank ascending, for each k below
 * `common` whose call starts in the window on at least one rank.
 */
export interface TimelineAlignedCalls {
  k: Float64Array;
  rank: Float64Array;
  start: Float64Array;
  end: Float64Array;
  /** start - the median start over the ranks at k (ns). */
  lateness: Float64Array;
  /** duration - the median duration at k (ns). */
  excess: Float64Array;
  /** The selected ranks, ascending. */
  ranks: number[];
  /** Per rank: its calls of the frame in the whole run (beyond `common`: counts[r] - common). */
  counts: number[];
  /** The smallest count: every rank has each k below it. */
  common: number;
}

/**
 * A run's timeline, open in the module (see docs/package-api.md, Timeline).
 * Times are nanoseconds from the origin (the document's: the earliest start
 * among the lanes shown). A call covers [start, end); one that does not last
 * covers the nanosecond at its start. Bad arguments are a TypeError (wrong
 * type, closed timeline) or RangeError (lane out of range, end <= start,
 * width outside 1 to `maxWidth`) naming them.
 */
export interface Timeline {
  readonly lanes: TimelineLane[];
  /** The document's shared.frames names, in order. */
  readonly frames: string[];
  /**
   * Opened with sourceLocations: per frame (index as in `frames`), its region's
   * source location, the lowest rank's row's; else empty.
   */
  readonly frameSources: FrameSource[];
  /** Bytes the columns hold in the module. */
  readonly memoryBytes: number;
  /** The widest `bars` query, in pixels (16384). */
  readonly maxWidth: number;
  /**
   * The origin in nanoseconds from the run's first call (the earliest start in
   * the whole file, whatever the ranks and filters): a timeline time `t` is
   * the instant `originInRun + t` of `timeWindow` (e.g. `` `${originInRun + t}ns` ``).
   */
  readonly originInRun: number;
  /** The end of the window holding every call: the latest lane end (at least 0) + 1, ns. */
  readonly runEnd: number;
  /** The calls of `lane` overlapping [start, end) at `width` pixels (1 to `maxWidth`); at most 2 * width + 4 items a depth. */
  bars(lane: number, start: number, end: number, width: number): TimelineBars;
  /** The calls of `lane` covering the instant `time`, from depth 0 down. */
  stackAt(lane: number, time: number): TimelineStackEntry[];
  /** Per frame with a call overlapping [start, end) on `lanes` (default all), in frame order; summed over the lanes. */
  regions(start: number, end: number, lanes?: number[] | null): TimelineRegion[];
  /**
   * The window around the middle of [start, end) holding at most `maxCalls`
   * calls over every lane: [start, end) itself when it does, else the widest
   * window centred on floor((start + end) / 2) that does (one nanosecond
   * when none does). What the page opens in speedscope within its budget.
   */
  windowWithin(start: number, end: number, maxCalls: number): { start: number; end: number; calls: number };
  /** Who waits for whom in [start, end): per region, its spread over the ranks; largest max - mean first. */
  imbalance(start: number, end: number): TimelineImbalance[];
  /**
   * The k-th calls of `frame` (an index into `frames`) on every rank, for the
   * k starting in [start, end). `into`: an earlier answer the caller is done
   * with, whose columns' memory this one reuses (a TypeError unless its six
   * columns are Float64Arrays); it must not be read afterwards.
   */
  alignedCalls(frame: number, start: number, end: number, into?: TimelineAlignedCalls): TimelineAlignedCalls;
  /**
   * The heatmap of `frame`'s aligned calls in [start, end), at most
   * `maxColumns` (an integer ≥ 1) wide, built in the core: a column is one
   * step, or `group` consecutive steps; a cell (r * cols + c) shows the step
   * of its column whose call on rank r strays furthest from its step's
   * median duration (the first on ties).
   */
  alignedGrid(frame: number, start: number, end: number, maxColumns: number): TimelineAlignedGrid;
  /** Each rank's mean lateness (ns) over `frame`'s aligned calls in [start, end); NaN without a step. */
  meanLateness(frame: number, start: number, end: number): { ranks: number[]; lateness: number[] };
  /**
   * How busy `lanes` (lane indices, e.g. one rank's) are at `width` pixels over
   * [start, end): per pixel, the fraction of its time their top-level calls
   * cover, averaged over the lanes (what a rank collapsed to one band shows).
   */
  busy(lanes: number[], start: number, end: number, width: number): Float32Array;
  /**
   * What a band of `lanes` (e.g. one rank's) shows at `width` pixels over
   * [start, end): per pixel, the frame of the deepest call at a depth <=
   * `depth` running at the pixel's middle instant on the first of the lanes
   * running one; -1 where none does.
   */
  bandFrames(lanes: number[], depth: number, start: number, end: number, width: number): Int32Array;
  /** The depth a band of `lanes` shows unless told: the first below the regions lasting 95 % of their time. */
  bandDepth(lanes: number[]): number;
  /**
   * exportSpeedscope of this timeline's file with its ranks, include and
   * exclude, narrowed by `timeWindow` / `minDuration`, written from the columns
   * held here without reading the file again: the same bytes and errors,
   * whichever ranks it holds. A narrowing whose region order depends on ranks
   * it does not hold is a RangeError (export from the file then). A timeline
   * opened by path or File with some ranks did not read the other ranks'
   * calls: its first export reads them (and drops them), so that damage there
   * fails it as it fails the file's export.
   */
  /**
   * `overview()` of this timeline's file, ranks, include and exclude, from
   * the columns held here without reading the file again (with `maxEvents`,
   * the suggestion too).
   */
  overview(options?: { bins?: number; maxEvents?: number }): Overview;
  exportSpeedscope(options?: TimelineExportOptions & { sink?: undefined }): Output[];
  exportSpeedscope(options: TimelineExportOptions & { sink: OutputSink }): string[];
  /** Frees its memory in the module; later queries throw a TypeError. */
  close(): void;
}

export interface TimelineAlignedGrid {
  rows: number;
  cols: number;
  group: number;
  ranks: number[];
  counts: number[];
  common: number;
  /** Per column: its first and last step. */
  kFirst: Float64Array;
  kLast: Float64Array;
  /** Per cell: the step shown, its call's excess and duration (ns), and that step's span over every rank. */
  k: Float64Array;
  excess: Float64Array;
  duration: Float64Array;
  spanStart: Float64Array;
  spanEnd: Float64Array;
}

export interface CliOptions {
  files: string[];
  filepath: string;
  ranks: number[];
  include: string[] | null;
  exclude: string[] | null;
  labels: string[];
  /** --min-duration and --time-window as given, or null. */
  minDuration: string | null;
  timeWindow: string | null;
  quiet: boolean;
  help: boolean;
  version: boolean;
  /** The Node CLI's command: the export (default), `view` or `serve`. */
  command: CliCommand;
  /** view: false when no -o/--filepath was given (outputs are only served). */
  writeOutputs: boolean;
  /** view and serve: --port N, or null for the command's default. */
  port: number | null;
  /** view: open the default browser (false with --no-open). */
  open: boolean;
  /** serve: --host ADDR ('' for 127.0.0.1). */
  host: string;
  /** serve: --web DIR ('' for the page next to the package). */
  webDir: string;
  /** diff and serve: `vs` was given; aFiles the files before it (diff: 1 without vs). */
  vs: boolean;
  aFiles: number;
}

export type CliCommand = 'export' | 'view' | 'serve' | 'imbalance' | 'diff';

export interface ScopeSpeedscope {
  readonly version: string;
  /** Bytes of WebAssembly memory (grows on demand, never shrinks). */
  readonly wasmMemoryBytes: number;
  /**
   * The largest File or Blob read whole (one read, its bytes handed to the
   * core); larger ones are read lazily. createScopeSpeedscope's
   * `readWholeBytes` (default 256 MiB).
   */
  readonly readWholeBytes: number;
  /**
   * What a file holds. Reads the region table, the rank/region index and the
   * lane columns, not the calls' times (a few MB of a 1.5 GB job; schema 1
   * is read whole): damage in the times is reported by the export or
   * openTimeline that reads them.
   */
  inspect(input: Uint8Array | Input, name?: string): Inspection;
  /**
   * Two runs of the same code compared region by region: per region name with a
   * call in either selection, its calls, total and self time in each run (ns)
   * and the change; largest growth of self time first. Errors as openTimeline's.
   */
  compareRuns(a: Input, b: Input, options?: TimelineOptions): Promise<RunComparison>;
  /**
   * One request of the page's protocol (docs/engine-protocol.md) answered by
   * the core's engine in this module, the dispatcher `serve` answers with
   * natively. `inputs` are the files the request reads (`file`; `fileA`,
   * `fileB` of timeline-compare-open; the timeline's file again for a
   * timeline-export of a timeline opened without some ranks); `sink` where a
   * timeline-export writes. The answer's columns are typed arrays over one
   * buffer.
   */
  engineRequest(
    request: { type: string; [field: string]: unknown },
    io?: {
      inputs?: { file?: Input; fileA?: Input; fileB?: Input };
      sink?: OutputSink;
      onProgress?: (p: Progress) => void;
    },
  ): EngineAnswer;
  /**
   * engineRequest for a server: the request's JSON text as received (text
   * that is not a request is answered with an error naming it), the
   * answer's bytes in the wire format, undecoded (decodeAnswer reads them).
   */
  engineAnswer(
    text: string,
    io?: {
      inputs?: { file?: Input; fileA?: Input; fileB?: Input };
      sink?: OutputSink;
      onProgress?: (p: Progress) => void;
    },
  ): Uint8Array;
  /** The version of docs/engine-protocol.md engineRequest answers. */
  readonly engineProtocol: number;
  /** serve's guards (the native server's own, src/cli/serve_guard.hpp). */
  readonly serve: {
    /** status 0 lets the request through; setCookie: the Set-Cookie to answer with ('' for none). */
    check(
      head: { host: string; origin: string; cookie: string; token: string; chunked: boolean; contentLength: number },
      listenHost: string,
      token: string,
    ): { status: number; message: string; setCookie: string };
    /** A request path as a file relative to the page's folder, or null when it is not one. */
    webPath(target: string): { relative: string; directory: boolean } | null;
    /** A new token: 64 hex digits. */
    newToken(): string;
    /** The largest request body served (1 MiB). */
    maxRequestBytes(): number;
    /**
     * serve's runs (src/cli/serve_runs.hpp): each file's index read, the files
     * grouped as the page groups picked files (`vsAt`: how many come before
     * `vs`, or null) and each job checked; throws the error opening them
     * together. `aFiles`: run A's files when `compare`, else all.
     */
    plan(files: Input[], vsAt?: number | null): { aFiles: number; compare: boolean; infos: unknown[]; names: string };
    /**
     * engineAnswer for a served page: the inputs the request reads are the
     * served `files`, named by its `served` field or by position.
     */
    answer(
      text: string,
      io: {
        files: Input[];
        aFiles: number;
        compare: boolean;
        sink?: OutputSink;
        onProgress?: (p: Progress) => void;
      },
    ): Uint8Array;
    /** What makes two opens the same timeline ('' for a request that opens none). */
    openKey(text: string): string;
  };
  exportSpeedscope(inputs: Input | Input[], options?: ExportOptions & { sink?: undefined }): Output[];
  exportSpeedscope(inputs: Input | Input[], options: ExportOptions & { sink: OutputSink }): string[];
  buildSpeedscopeDocument(input: Input, options?: Omit<ExportOptions, 'sink'>): SpeedscopeDocument;
  /** Calls over time and by duration for a selection of one input (reads the file once). */
  overview(input: Input, options?: OverviewOptions | null): Overview;
  /** overview for any input, also a File or Blob on the main thread. */
  overviewAsync(input: Input, options?: OverviewOptions | null): Promise<Overview>;
  /**
   * Opens the run's timeline (one input, any kind: a File or Blob is read
   * first on the main thread): the same selection and errors as the export.
   * With `ranks` other than 'all', a path or File of schema 2 or 3 is read
   * for those ranks' calls only (and the other ranks' start times, which the
   * region order and the origin need): opening rank 0 of a 64-rank job reads
   * a fraction of it; damage in the rest is found by its first export.
   * An array of inputs is one job written one file per process
   * (`<prefix>_rank<NNNNN>.h5`), opened as one run: files holding disjoint
   * ranks with the same `mpi_size`, or each one process's file; else a
   * ValueError naming the files (`job_same_rank`, `job_not_one_job`).
   */
  openTimeline(input: Input | Input[], options?: TimelineOptions | null): Promise<Timeline>;
  /** The narrowing that fits `maxEvents`, from an overview (no file read). */
  suggestNarrowing(overview: Overview, options: { maxEvents: number }): NarrowingSuggestion;
  /**
   * Checks one include/exclude pattern (Python's re syntax) with the engine
   * the export uses (PCRE2 in the module): null when it compiles, else the
   * message an export with it would fail with (kind 'PatternError'), e.g.
   * "Invalid regular expression '(': missing closing parenthesis at position 1".
   */
  checkPattern(pattern: string): string | null;
  /**
   * An input the synchronous methods take: a File or Blob is read into
   * { name, bytes } on the main thread and in Node, and returned as it is in
   * a Web Worker (read while converting: whole up to 256 MiB, lazily above);
   * other inputs as they are.
   */
  readInput(input: Input): Promise<Input>;
  /** exportSpeedscope for any input, also a File or Blob on the main thread. */
  exportSpeedscopeAsync(inputs: Input | Input[], options?: ExportOptions & { sink?: undefined }): Promise<Output[]>;
  exportSpeedscopeAsync(inputs: Input | Input[], options: ExportOptions & { sink: OutputSink }): Promise<string[]>;
  /** inspect for any input, also a File or Blob on the main thread. */
  inspectAsync(input: Input): Promise<Inspection>;
  readonly cli: {
    parse(args: string[]): CliOptions;
    command(args: string[]): CliCommand;
    help(command?: CliCommand): string;
    usage(command?: CliCommand): string;
    summary(written: string[]): string;
    fileNotFoundMessage(path: string): string;
    /**
     * The export written as files by the core, by the native CLI's rule (each
     * to a temporary file beside it, renamed once every output is complete)
     * and with its messages; in Node, files on disk. A `sink` in the options
     * gets every output as well. Returns the written paths.
     */
    exportFiles(inputs: Input | Input[], options?: ExportOptions): string[];
    /** The imbalance command's report (table or JSON) for its arguments, as the native CLI prints it. */
    imbalance(args: string[], onWarning?: (message: string) => void): string;
  };
}

export interface CreateOptions {
  /** The .wasm bytes. Default: under Node read from the package, in browsers fetched (see locateFile). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /**
   * Where the .wasm is (Emscripten's locateFile, called with "scope-speedscope.wasm"):
   * a URL in browsers, a path or file: URL under Node. Default: next to the
   * package's JavaScript, `new URL('./scope-speedscope.wasm', import.meta.url)`.
   */
  locateFile?: (file: string, prefix: string) => string;
  /**
   * In a Web Worker, a File or Blob up to this many bytes is read whole before
   * converting (one read); a larger one is read lazily, as HDF5 asks (memory
   * bounded, but one synchronous read per HDF5 read). Default 256 MiB; 0
   * reads every File lazily.
   */
  readWholeBytes?: number;
  print?: (text: string) => void;
  printErr?: (text: string) => void;
}

export declare function createScopeSpeedscope(options?: CreateOptions): Promise<ScopeSpeedscope>;
export declare function concatChunks(chunks: Uint8Array[]): Bytes;
/** An engine answer (docs/engine-protocol.md): 'result' with its fields, 'error' or 'refused'. */
export type EngineAnswer =
  | ({ type: 'result' } & Record<string, unknown>)
  | {
      type: 'error';
      kind: string;
      code: string;
      message: string;
      wording: string;
      file: string | null;
      field: string | null;
      index: number | null;
    }
  | { type: 'refused'; message: string };
/** Decodes an engine answer's wire bytes (docs/engine-protocol.md, "Wire"). */
export declare function decodeAnswer(bytes: Uint8Array | ArrayBuffer): EngineAnswer;
export default createScopeSpeedscope;
