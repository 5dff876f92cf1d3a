// The timeline's visible window: [start, end) in nanoseconds from the origin
// (fractions allowed), kept inside the run and at least MIN_SPAN across. The
// run starts at 0, or earlier when a comparison draws run A before B's
// origin (lined up at a call: bounds()).
// Arithmetic only: the view (view.js) redraws after every change.

export const MIN_SPAN = 8; // ns: the deepest zoom shows 8 ns across the chart

export class Viewport {
  start = 0;
  end = 1;
  runStart = 0; // where the chart's time starts (below 0: run A drawn before B's origin)
  runEnd = 1; // the end of the run's last call (+1 ns)

  // A new run, shown whole.
  show(runEnd) {
    this.runStart = 0;
    this.runEnd = runEnd;
    this.start = 0;
    this.end = runEnd;
  }

  // New bounds of the chart's time (the window kept inside them).
  bounds(runStart, runEnd) {
    this.runStart = runStart;
    this.runEnd = runEnd;
    this.set(this.start, this.end);
  }

  // No run: the window keeps its place, the run is one nanosecond.
  clear() {
    this.runStart = 0;
    this.runEnd = 1;
  }

  // [start, end) around its own middle, widened to MIN_SPAN, narrowed to the
  // run and moved inside it.
  set(start, end) {
    const first = this.runStart;
    const run = this.runEnd - first;
    let span = Math.min(Math.max(end - start, MIN_SPAN), run);
    let a = start + (end - start - span) / 2;
    if (a < first) a = first;
    if (a + span > this.runEnd) a = this.runEnd - span;
    if (a < first) {
      a = first;
      span = run;
    }
    this.start = a;
    this.end = a + span;
  }

  // Nanoseconds a pixel of a chart `width` px wide.
  nsPerPx(width) {
    return (this.end - this.start) / Math.max(width, 1);
  }

  // The time at `x` px of a chart `width` px wide.
  timeAt(x, width) {
    return this.start + ((this.end - this.start) * x) / Math.max(width, 1);
  }

  // Zooms by `factor` (below 1: in) keeping the time `t` where it is.
  zoomAround(t, factor) {
    this.set(t - (t - this.start) * factor, t + (this.end - t) * factor);
  }

  panBy(ns) {
    this.set(this.start + ns, this.end + ns);
  }

  // The window in whole nanoseconds (what regions and speedscope get).
  // (From 0: a view wholly before B's origin, of run A lined up earlier, is [0, 1).)
  get window() {
    const start = Math.max(0, Math.floor(this.start));
    return { start, end: Math.max(start + 1, Math.min(this.runEnd, Math.ceil(this.end))) };
  }

  get isWholeRun() {
    return this.start <= this.runStart && this.end >= this.runEnd;
  }
}
