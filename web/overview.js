// A small overview of the run: how many calls start in each slice of time
// (the core's overview: time.edges, time.starts), drawn on a canvas in the
// options panel. Dragging across it picks a time window; the From/To fields
// beside it hold the same window for the keyboard, and are what the page
// sends to the core.
//
//   setUp({ picked })     picked({ start, end }) after a drag
//   show(overview)        draws the core's overview (null clears it)
//   mark(window)          shows the current window ({ start, end } or null)

import { $, duration, el } from './dom.js';

const HEIGHT = 64;
let onPick = () => {};
let redraw = () => {};

export function setUp({ picked }) {
  onPick = picked;
}

export function show(overview) {
  const edges = overview?.time?.edges ?? [];
  const counts = overview?.time?.starts ?? [];
  if (edges.length < 2 || !counts.length) {
    clear();
    return;
  }
  render($('overview'), { start: edges[0], end: edges[edges.length - 1], counts }, { picked: (w) => onPick(w) });
}

export function clear() {
  $('overview').replaceChildren();
  redraw = () => {};
}

export function mark(window) {
  redraw(window);
}

function render(container, histogram, { window: current = null, picked }) {
  const canvas = el('canvas', {
    role: 'img',
    'data-testid': 'overview-canvas',
    'aria-label':
      `Calls over time, from ${duration(histogram.start)} to ${duration(histogram.end)}; ` +
      'drag to pick a time window, or type it in the fields below.',
  });
  container.replaceChildren(canvas);
  let selection = current;
  const draw = () => paint(canvas, histogram, selection);
  redraw = (w) => {
    selection = w;
    draw();
  };
  new ResizeObserver(draw).observe(canvas);
  const timeAt = (clientX) => {
    const box = canvas.getBoundingClientRect();
    const f = Math.min(1, Math.max(0, (clientX - box.left) / box.width));
    return histogram.start + f * (histogram.end - histogram.start);
  };
  let anchor = null;
  canvas.addEventListener('pointerdown', (e) => {
    anchor = timeAt(e.clientX);
    canvas.setPointerCapture(e.pointerId);
  });
  canvas.addEventListener('pointermove', (e) => {
    if (anchor == null) return;
    const t = timeAt(e.clientX);
    selection = { start: Math.min(anchor, t), end: Math.max(anchor, t) };
    draw();
  });
  canvas.addEventListener('pointerup', () => {
    if (anchor == null) return;
    anchor = null;
    if (selection && selection.end > selection.start) picked(round(selection));
    else selection = current;
    draw();
  });
}

// Window edges rounded to 4 significant digits: readable in the fields.
function round({ start, end }) {
  const r = (v) => Number(v.toPrecision(4));
  return { start: r(start), end: r(end) };
}

function paint(canvas, { start, end, counts }, selection) {
  const ratio = window.devicePixelRatio || 1;
  const width = Math.max(1, Math.round(canvas.clientWidth * ratio));
  const height = Math.round(HEIGHT * ratio);
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  const styles = getComputedStyle(canvas);
  const accent = styles.getPropertyValue('--accent').trim() || '#2257c5';
  const muted = styles.getPropertyValue('--muted').trim() || '#888';
  ctx.clearRect(0, 0, width, height);
  const max = Math.max(...counts, 1);
  const barWidth = width / counts.length;
  ctx.fillStyle = muted;
  counts.forEach((n, i) => {
    if (!n) return;
    const h = Math.max(1, (Math.log1p(n) / Math.log1p(max)) * (height - 2));
    ctx.fillRect(i * barWidth, height - h, Math.max(1, barWidth - (barWidth > 3 ? 1 : 0)), h);
  });
  if (selection) {
    const x0 = ((selection.start - start) / (end - start)) * width;
    const x1 = ((selection.end - start) / (end - start)) * width;
    ctx.fillStyle = accent;
    ctx.globalAlpha = 0.25;
    ctx.fillRect(x0, 0, Math.max(2, x1 - x0), height);
    ctx.globalAlpha = 1;
    ctx.fillRect(x0, 0, 2 * ratio, height);
    ctx.fillRect(Math.max(x0, x1 - 2 * ratio), 0, 2 * ratio, height);
  }
}
