// Stable colours for region names: the same name gets the same colour in
// every file and session (a hash of the name picks one of HUES hues), light
// fills with dark text in a light page, dark fills with light text in a dark
// one (both at a contrast of 7:1 or more). Merged blocks (calls too short to
// draw apart) are grey and hatched; bars outside a search are faded. A
// rank's summary band is coloured by its busy share on a sequential scale
// of one hue (ColorBrewer's blues: lightness alone carries the value, so it
// reads the same with any colour vision), pale to dark in a light page and
// dark to pale in a dark one.

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

export function palette(dark) {
  const fill = [];
  const faded = [];
  for (let i = 0; i < HUES; i++) {
    const hue = Math.round((i * 360) / HUES);
    fill.push(dark ? `hsl(${hue} 42% 30%)` : `hsl(${hue} 62% 80%)`);
    faded.push(dark ? `hsl(${hue} 8% 20%)` : `hsl(${hue} 12% 93%)`);
  }
  return {
    fill,
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
  };
}
