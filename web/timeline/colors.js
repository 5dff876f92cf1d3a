// Stable colours for region names: the same name gets the same colour in
// every file and session (a hash of the name picks one of HUES hues), light
// fills with dark text in a light page, dark fills with light text in a dark
// one (both at a contrast of 7:1 or more). Merged blocks (calls too short to
// draw apart) are grey and hatched; bars outside a search are faded. A
// rank's summary band is coloured by its busy share on a sequential scale
// of one hue (ColorBrewer's blues: lightness alone carries the value, so it
// reads the same with any colour vision), pale to dark in a light page and
// dark to pale in a dark one. Comparing two runs, run B's calls are
// coloured by their ratio to A's on a diverging scale centred on 1 (ColorBrewer's
// RdBu with a grey middle, colour-blind safe): faster blue, as fast grey,
// slower orange to red, on a log scale clamped at ×0.5 and ×2; a call
// without a partner in A is hatched grey.

export const HUES = 30;

// FNV-1a over the UTF-16 code units: stable, fast, spreads similar names.
export function hueIndex(name) {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % HUES;
}

// The busy scale: BUSY_LEVELS + 1 colours, from 0 (nothing runs) to 1
// (busy all the time).
export const BUSY_LEVELS = 24;
const BUSY_STOPS = {
  light: ['#f7fbff', '#c6dbef', '#6baed6', '#2171b5', '#08306b'],
  dark: ['#1b2129', '#1c3a5c', '#2f6ea8', '#6baed6', '#c6dbef'],
};

// '#rrggbb' -> [r, g, b].
export const rgbOf = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

// t in [0, 1] (clamped) -> 'rgb(r g b)' on the busy scale.
export function busyColour(t, dark) {
  const stops = BUSY_STOPS[dark ? 'dark' : 'light'].map(rgbOf);
  const x = Math.max(0, Math.min(1, Number.isNaN(t) ? 0 : t)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const f = x - i;
  return `rgb(${stops[i].map((v, n) => Math.round(v + (stops[i + 1][n] - v) * f)).join(' ')})`;
}

// The level of a busy share on the scale (0 .. BUSY_LEVELS: the nearest).
export const busyLevel = (t) => (t <= 0 ? 0 : t >= 1 ? BUSY_LEVELS : (t * BUSY_LEVELS + 0.5) | 0);

// The ratio scale: RATIO_LEVELS colours, level RATIO_STEPS is a ratio of 1,
// level 0 ×RATIO_MIN or less, the last ×RATIO_MAX or more.
export const RATIO_STEPS = 8;
export const RATIO_LEVELS = 2 * RATIO_STEPS + 1;
export const RATIO_MIN = 0.5;
export const RATIO_MAX = 2;
const RATIO_STOPS = {
  light: ['#2166ac', '#92c5de', '#d9d9d9', '#f4a582', '#b2182b'],
  dark: ['#4b8fd1', '#2f5b82', '#40454d', '#9a5a36', '#e0643f'],
};
export const NO_PARTNER = { light: ['#f4f4f4', '#8a8a8a'], dark: ['#2b2f36', '#7c828c'] };

// A ratio's level on the scale (-1: NaN, no partner).
export function ratioLevel(ratio) {
  if (!(ratio > 0)) return -1;
  const x = Math.max(-1, Math.min(1, Math.log2(ratio)));
  return Math.round((x + 1) * RATIO_STEPS);
}

// The colour of a level of the ratio scale: '#rrggbb'.
export function ratioColour(level, dark) {
  const stops = RATIO_STOPS[dark ? 'dark' : 'light'].map(rgbOf);
  const x = (level / (RATIO_LEVELS - 1)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const f = x - i;
  const hex = stops[i].map((v, n) =>
    Math.round(v + (stops[i + 1][n] - v) * f)
      .toString(16)
      .padStart(2, '0'),
  );
  return `#${hex.join('')}`;
}

// Dark or light text, whichever reads better on `hex`.
function textOn(hex) {
  const [r, g, b] = rgbOf(hex).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.22 ? '#1d2430' : '#f6f7f9';
}

// hsl(h s% l%) -> 'rgb(r g b)' (CSS Color 4's conversion).
export function hslRgb(h, s, l) {
  const a = (s / 100) * Math.min(l / 100, 1 - l / 100);
  const f = (n) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l / 100 - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return `rgb(${f(0)} ${f(8)} ${f(4)})`;
}

export function palette(dark) {
  const fill = [];
  const fillRgb = []; // the same colours as rgb(), for pixels (a rank's band by region)
  const faded = [];
  for (let i = 0; i < HUES; i++) {
    const hue = Math.round((i * 360) / HUES);
    fill.push(dark ? `hsl(${hue} 42% 30%)` : `hsl(${hue} 62% 80%)`);
    fillRgb.push(dark ? hslRgb(hue, 42, 30) : hslRgb(hue, 62, 80));
    faded.push(dark ? `hsl(${hue} 8% 20%)` : `hsl(${hue} 12% 93%)`);
  }
  return {
    fill,
    fillRgb,
    faded,
    text: dark ? '#eef1f5' : '#1d2430',
    fadedText: dark ? '#7d8694' : '#7a818c',
    merged: dark ? '#56606e' : '#aab2bd',
    mergedStripe: dark ? '#3a424d' : '#d5dae1',
    background: dark ? '#15181d' : '#ffffff',
    band: dark ? '#1e232a' : '#eef1f5',
    bandText: dark ? '#e6e9ee' : '#1d2430',
    grid: dark ? 'rgba(255,255,255,0.07)' : 'rgba(0,0,0,0.07)',
    axis: dark ? '#a7b0bd' : '#596170',
    focus: dark ? '#f5b041' : '#b45309',
    selected: dark ? '#7aa5ff' : '#2257c5',
    range: dark ? 'rgba(122,165,255,0.25)' : 'rgba(34,87,197,0.18)',
    busy: Array.from({ length: BUSY_LEVELS + 1 }, (_, i) => busyColour(i / BUSY_LEVELS, dark)),
    ratio: Array.from({ length: RATIO_LEVELS }, (_, i) => ratioColour(i, dark)),
    ratioText: Array.from({ length: RATIO_LEVELS }, (_, i) => textOn(ratioColour(i, dark))),
    noPartner: NO_PARTNER[dark ? 'dark' : 'light'][0],
    noPartnerStripe: NO_PARTNER[dark ? 'dark' : 'light'][1],
  };
}
