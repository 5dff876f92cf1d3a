// Times as the timeline shows them. The core gives integer nanoseconds from
// the document's origin (the speedscope output's "at" origin); the page shows
// them in seconds and their decimal parts, exactly (no float rounding: the
// digits come from the integer), so what the details say is what the core
// holds. Pure functions: the tests import them in Node.

const UNITS = [
  [1e9, 's', 9],
  [1e6, 'ms', 6],
  [1e3, 'µs', 3],
  [1, 'ns', 0],
];

// The unit a number of nanoseconds reads best in.
function unitOf(ns) {
  const abs = Math.abs(ns);
  for (const u of UNITS) if (abs >= u[0]) return u;
  return UNITS[UNITS.length - 1];
}

// Integer nanoseconds, exactly, in the largest unit it reaches:
// 1234567891 -> "1.234567891 s", 2500 -> "2.5 µs", 0 -> "0 ns".
export function exactTime(ns) {
  const n = Math.round(ns);
  const [scale, name, digits] = unitOf(n);
  if (digits === 0) return `${n} ${name}`;
  const sign = n < 0 ? '-' : '';
  const abs = BigInt(Math.abs(n));
  const big = BigInt(scale);
  const whole = abs / big;
  const frac = (abs % big).toString().padStart(digits, '0').replace(/0+$/, '');
  return `${sign}${whole}${frac ? `.${frac}` : ''} ${name}`;
}

// A time in a side table: at most 4 significant digits (never fewer than
// its whole part), in the unit exactTime uses, the exact value a hover
// away (the cell's title): 12345678901 -> "12.35 s", 857123456 ->
// "857.1 ms", 3075 -> "3.075 µs", 600 -> "600 ns". Rounding up to 1000 of
// a unit reads in the next: 999999 -> "1 ms".
export function tableTime(ns) {
  const n = Math.round(ns);
  let i = UNITS.indexOf(unitOf(n));
  let value = Math.abs(n) / UNITS[i][0];
  const whole = value < 1 ? 1 : Math.floor(Math.log10(value)) + 1;
  let text = value.toFixed(Math.max(0, 4 - whole));
  if (Number(text) >= 1000 && i > 0) {
    i--;
    value = Math.abs(n) / UNITS[i][0];
    text = value.toFixed(3);
  }
  if (text.includes('.')) text = text.replace(/\.?0+$/, '');
  return `${n < 0 ? '-' : ''}${text} ${UNITS[i][1]}`;
}

// A tick of an axis whose ticks are `step` ns apart (1, 2 or 5 times a power
// of ten): in the unit of the step, with the decimals the step needs.
export function tickLabel(ns, step) {
  const [scale, name] = unitOf(step);
  const decimals = Math.max(0, Math.ceil(-Math.log10(step / scale) - 1e-9));
  return `${(ns / scale).toFixed(decimals)} ${name}`;
}

// Ticks between start and end (ns) at least `minPx` apart on `width` px:
// { step, first }, first the first tick at or after start.
export function ticks(start, end, width, minPx = 90) {
  const span = Math.max(end - start, 1e-9);
  const rough = (span * minPx) / Math.max(width, 1);
  const pow = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= rough) ?? 10 * pow;
  const safe = Math.max(step, 1); // never below a nanosecond
  return { step: safe, first: Math.ceil(start / safe) * safe };
}

// A short time for people (the visible range, counts): 3 significant digits.
export function shortTime(ns) {
  const [scale, name] = unitOf(ns);
  return `${Number((ns / scale).toPrecision(3))} ${name}`;
}

const integer = new Intl.NumberFormat('en-US');
export const count = (n) => integer.format(n);

// What pointing at a rank's summary band says: "rank 2: busy 83 % at
// 2.5 µs" (share: 0 to 1, whole percents; null while it is asked for).
export function busyText(rank, share, time) {
  const what = share === null ? 'busy …' : `busy ${Math.round(share * 100)} %`;
  return `rank ${rank}: ${what} at ${exactTime(time)}`;
}

// What a rank's band shows at an instant: "rank 2: solve at 1.5 µs (its
// band shows depth 1)"; frame null: being asked, undefined: not available,
// -1: nothing runs there at that depth or above.
export function bandText(rank, frame, name, depth, time) {
  const at = `at ${exactTime(time)}`;
  const shows = depth == null ? '' : ` (its band shows depth ${depth})`;
  if (frame === null) return `rank ${rank}: … ${at}`;
  if (frame === undefined) return `rank ${rank} ${at} (this build cannot say what runs)`;
  if (frame < 0) return `rank ${rank}: nothing runs ${at}${shows}`;
  return `rank ${rank}: ${name} ${at}${shows}`;
}

// A frame's source location ({ file, line, text }, each null when unknown,
// the engine's frameSources) as the page shows it: { where: "cg.py:217" (or
// "line 217"), text: the source line on one line (ends trimmed, tabs and
// newlines as spaces), full: both, for the tooltip }; null when unknown.
export function sourceText(source) {
  if (!source) return null;
  const { file, line, text } = source;
  let where = file ?? '';
  if (line != null) where += where ? `:${line}` : `line ${line}`;
  const code = (text ?? '').replace(/[\u0000-\u001f\u007f]/g, ' ').trim();
  if (!where && !code) return null;
  return { where, text: code, full: [where, text ?? ''].filter(Boolean).join('\n') };
}
