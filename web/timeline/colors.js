// Stable colours for region names: the same name gets the same colour in
// every file and session (a hash of the name picks one of HUES hues), light
// fills with dark text in a light page, dark fills with light text in a dark
// one (both at a contrast of 7:1 or more). Merged blocks (calls too short to
// draw apart) are grey and hatched; bars outside a search are faded.

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
  };
}
