// The viewer's budget: what showing a number of calls in speedscope costs, and
// what this machine can give it. Measured here (Chromium, 2 cores; docs/benchmarks.md,
// "The page, measured"): speedscope holds about 550–800 bytes per event and shows
// about 200,000 events a second; a call is two events (open and close).
//
// ?viewer-budget-mb=N sets the memory budget (tests use a tiny one).

export const EVENTS_PER_CALL = 2;
export const BYTES_PER_EVENT = 700;
export const SECONDS_PER_EVENT = 5e-6;
// Whatever the machine: speedscope's process dies of V8's heap limit (4 GB a
// process) somewhere above 18 M events (9 M calls worked, 10 M did not).
export const MAX_EVENTS = 16_000_000;
// A suggested narrowing aims at a quick first look (about ten seconds of
// speedscope), not at the most the budget allows.
export const SUGGESTED_CALLS = 1_000_000;
const DEFAULT_DEVICE_GB = 4; // when the browser does not say (navigator.deviceMemory is Chromium's)
const MEMORY_SHARE = 0.75; // of the device's memory, for the viewer's process
const TIME_BUDGET_S = 90;

export function budget(params = new URLSearchParams(window.location.search)) {
  const override = Number(params.get('viewer-budget-mb'));
  const deviceGb = navigator.deviceMemory || DEFAULT_DEVICE_GB;
  const bytes = override > 0 ? override * 1e6 : deviceGb * 2 ** 30 * MEMORY_SHARE;
  return { bytes, seconds: TIME_BUDGET_S, deviceGb: navigator.deviceMemory || null };
}

// What speedscope would need to show `calls` calls.
export function cost(calls) {
  const events = calls * EVENTS_PER_CALL;
  return { calls, events, bytes: events * BYTES_PER_EVENT, seconds: events * SECONDS_PER_EVENT };
}

export function fits(need, have) {
  return need.calls <= maxCalls(have);
}

// The most calls that fit.
export function maxCalls(have) {
  const events = Math.min(have.bytes / BYTES_PER_EVENT, have.seconds / SECONDS_PER_EVENT, MAX_EVENTS);
  return Math.floor(events / EVENTS_PER_CALL);
}

// What a suggested narrowing aims for, in events (the core's maxEvents).
export function suggestedEvents(have) {
  return Math.min(maxCalls(have), SUGGESTED_CALLS) * EVENTS_PER_CALL;
}
