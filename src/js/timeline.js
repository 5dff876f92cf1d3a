// The package's timeline: an open Timeline (lanes, frames and the queries
// of the core's columns in the module) and two runs compared (RunComparison).
// ScopeSpeedscope.openTimeline and compareRuns make them (api.js).
import {
  timelineOverviewOptionsOf,
  timelineClosedError,
  timelineLaneOf,
  timelineLanesOf,
  timelineExportOptionsOf,
  timelineCountOf,
  timelineDepthOf,
  timelineFrameOf,
  timelineAlignedIntoOf,
  ALIGNED_COLUMNS,
  timelineRangeError,
  timelineTimeOf,
  timelineColumnsOf,
  timelineWidthOf,
  timelineWindowOf,
} from './options.js';
import { ScopeSpeedscopeError, unwrap } from './errors.js';
import { collectingSink, guardSink } from './sinks.js';

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

// A timeline dropped without close() frees its columns when collected.
export const timelineRegistry =
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
export const timelineIds = new WeakMap();

/**
 * Two runs compared (compareRuns): `regions` (compare_regions' rows), the
 * timelines `a` and `b`, `partnerLanes` (per lane of b, the lane of a of the
 * same name, or -1), `aligned()` (b's bars with each one's ratio to a).
 */
export class RunComparison {
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

export class Timeline {
  #call;
  #callWithInput;
  #unreadRanks;
  #id;
  #closed = false;

  constructor(call, opened, callWithInput) {
    this.#call = call;
    this.#callWithInput = callWithInput;
    this.#id = opened.id;
    this.#unreadRanks = opened.unreadRanks.length;
    timelineIds.set(this, opened.id);
    /** [{ name, calls, maxDepth, start, end }], the document's profiles in order. */
    this.lanes = opened.lanes;
    /** The document's shared.frames names, in order. */
    this.frames = opened.frames;
    /**
     * Opened with sourceLocations: per frame, its region's { file, line, text }
     * (each null when unknown); else an empty array.
     */
    this.frameSources = opened.frameSources ?? [];
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
  #run(method, fn, call = this.#call) {
    if (this.#closed) throw timelineClosedError(method);
    try {
      return call(method, fn);
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
   * What a band of `lanes` (e.g. one rank's) shows at `width` pixels over
   * [start, end): an Int32Array of, per pixel, the frame of the deepest call
   * at a depth <= `depth` running at the pixel's middle instant on the first
   * of the lanes running one; -1 where none does.
   */
  bandFrames(lanes, depth, start, end, width) {
    if (this.#closed) throw timelineClosedError('bandFrames');
    const chosen = timelineLanesOf('bandFrames', lanes, true);
    timelineDepthOf('bandFrames', depth);
    timelineWindowOf('bandFrames', start, end);
    timelineWidthOf('bandFrames', width);
    return this.#run('bandFrames', (m) => unwrap(m.timelineBandFrames(this.#id, chosen, depth, start, end, width)));
  }

  /**
   * The depth a band of `lanes` shows unless told: the first depth below
   * the regions whose calls there last 95 % or more of the lanes' time (a
   * run inside one `main` looping over `step` shows what each step does).
   */
  bandDepth(lanes) {
    if (this.#closed) throw timelineClosedError('bandDepth');
    const chosen = timelineLanesOf('bandDepth', lanes, true);
    return this.#run('bandDepth', (m) => unwrap(m.timelineBandDepth(this.#id, chosen)));
  }

  /**
   * The document exportSpeedscope writes for this timeline's file, ranks,
   * include and exclude, narrowed by options.timeWindow / minDuration, written
   * from the columns held here (the file is not read again): the same bytes,
   * whichever ranks it holds. A narrowing whose region order depends on ranks
   * it does not hold (two calls of one lane with the same clipped times whose
   * outer one those ranks decide) is a RangeError: export from the file then.
   * options.sourceLocations: true gives each frame its file and line, as the
   * export's option does; it needs a timeline opened with sourceLocations
   * (else a RangeError).
   */
  exportSpeedscope(options) {
    if (this.#closed) throw timelineClosedError('exportSpeedscope');
    const { core, js } = timelineExportOptionsOf(options);
    const outputs = [];
    const guardedSink = guardSink(js.sink ?? collectingSink(outputs), js.onProgress);
    // A timeline opened without some ranks' calls reads them (and drops
    // them) before its first export: the file's export fails on their damage.
    const written =
      this.#unreadRanks > 0
        ? this.#run(
            'exportSpeedscope',
            (m, input) => unwrap(m.timelineExportSpeedscope(this.#id, core, guardedSink, input)),
            this.#callWithInput,
          )
        : this.#run('exportSpeedscope', (m) =>
            unwrap(m.timelineExportSpeedscope(this.#id, core, guardedSink, undefined)),
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
