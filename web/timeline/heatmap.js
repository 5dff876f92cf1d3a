// The heatmap of the selected region over ranks and steps (#tl-heatmap): a
// row per rank, a column per step (or group of steps, aligned.js), each cell
// coloured by how much longer (orange) or shorter (blue) than the step's
// median duration the rank's call took. Pointing at a cell names it in
// #tl-heatmap-hover; a click zooms the timeline to that step on every rank.
// Keyboard: the canvas takes the focus; arrows move between cells,
// Home/End to the first/last step, Enter zooms.

import { cellText, cellShare, divergingColour, percentText, scaleOf } from './aligned.js';
import { exactTime } from './format.js';

const LEFT = 34; // px for the rank labels
const MAX_CELL_W = 36;
const MAX_ROW_H = 18;
const MIN_ROW_H = 3;
const TARGET_H = 220; // px the rows share before they stop shrinking

const byId = (id) => document.getElementById(id);

export class Heatmap {
  #canvas;
  #onZoom;
  #grid = null;
  #name = '';
  #cell = { w: 0, h: 0 };
  #scale = 0.1;
  #hover = null; // { r, c }
  #cursor = { r: 0, c: 0 }; // the keyboard's cell
  #dark = window.matchMedia('(prefers-color-scheme: dark)');

  // onZoom(start, end): a cell was chosen; [start, end) is its step on every rank.
  constructor(onZoom) {
    this.#onZoom = onZoom;
    this.#canvas = byId('tl-heatmap');
    this.#canvas.addEventListener('pointermove', (e) => this.#point(e));
    this.#canvas.addEventListener('pointerleave', () => this.#setHover(null));
    // A press moves the keyboard's cell there (before the focus shows it).
    this.#canvas.addEventListener('pointerdown', (e) => {
      this.#cursor = this.#cellAt(e) ?? this.#cursor;
    });
    this.#canvas.addEventListener('click', (e) => {
      const at = this.#cellAt(e);
      if (at) this.#zoom(at);
    });
    this.#canvas.addEventListener('keydown', (e) => this.#key(e));
    this.#canvas.addEventListener('focus', () => this.#setHover(this.#cursor));
    this.#canvas.addEventListener('blur', () => this.#setHover(null));
    this.#dark.addEventListener('change', () => this.#draw());
    new ResizeObserver(() => this.#draw()).observe(byId('tl-ranks'));
  }

  // Columns that fit the box (a few px each).
  get maxColumns() {
    return Math.max(1, Math.floor((byId('tl-ranks').clientWidth - LEFT) / 3));
  }

  clear() {
    this.#grid = null;
    byId('tl-heatmap-box').hidden = true;
  }

  // grid: the core's alignedGrid (through the worker); name: the region's.
  show(grid, name) {
    this.#grid = grid;
    this.#name = name;
    this.#hover = null;
    this.#cursor = { r: Math.min(this.#cursor.r, grid.rows - 1), c: Math.min(this.#cursor.c, grid.cols - 1) };
    this.#scale = scaleOf(grid);
    const box = byId('tl-heatmap-box');
    box.hidden = false;
    const empty = !grid.cols || !grid.rows;
    this.#canvas.hidden = empty;
    byId('tl-heatmap-title').textContent = `${name} on each rank, step by step`;
    byId('tl-heatmap-legend').textContent = empty
      ? `No call of ${name} starts in view on every rank (${grid.common} on each over the run).`
      : `Each cell: a rank's call against the median of that step over the ranks; blue shorter, orange longer ` +
        `(full colour at ${percentText(this.#scale)}). ${this.#stepsText()} Click a cell to zoom to that step.`;
    byId('tl-heatmap-hover').textContent = '';
    this.#canvas.setAttribute('aria-label', `Heatmap of ${name}: ${grid.rows} ranks by ${grid.cols} columns`);
    this.#canvas.dataset.rows = String(grid.rows);
    this.#canvas.dataset.cols = String(grid.cols);
    if (!empty) this.#draw();
  }

  #stepsText() {
    const g = this.#grid;
    const steps = g.kLast[g.cols - 1] - g.kFirst[0] + 1;
    const span = `Steps ${g.kFirst[0]} to ${g.kLast[g.cols - 1]}`;
    return g.group > 1 ? `${span}, ${g.group} to a column.` : `${span} (${steps}).`;
  }

  // Where cell (r, c) is drawn, in CSS px of the canvas (for the tests too).
  cellBox(r, c) {
    return { x: LEFT + c * this.#cell.w, y: r * this.#cell.h, w: this.#cell.w, h: this.#cell.h };
  }

  #draw() {
    const g = this.#grid;
    if (!g || !g.cols) return;
    const width = byId('tl-ranks').clientWidth;
    const w = Math.max(1, Math.min(MAX_CELL_W, (width - LEFT) / g.cols));
    const h = Math.max(MIN_ROW_H, Math.min(MAX_ROW_H, Math.floor(TARGET_H / g.rows)));
    this.#cell = { w, h };
    const gap = w >= 5 && h >= 5 ? 1 : 0; // a line of the page's border colour between cells
    const cssW = Math.ceil(LEFT + w * g.cols + gap);
    const cssH = h * g.rows + gap;
    const dpr = window.devicePixelRatio || 1;
    this.#canvas.width = Math.round(cssW * dpr);
    this.#canvas.height = Math.round(cssH * dpr);
    this.#canvas.style.width = `${cssW}px`;
    this.#canvas.style.height = `${cssH}px`;
    this.#canvas.dataset.cellWidth = String(w);
    this.#canvas.dataset.rowHeight = String(h);
    this.#canvas.dataset.left = String(LEFT);
    const ctx = this.#canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, cssW, cssH);
    const dark = this.#dark.matches;
    ctx.fillStyle = dark ? '#394250' : '#d5dae1';
    if (gap) ctx.fillRect(LEFT, 0, cssW - LEFT, cssH);
    for (let r = 0; r < g.rows; r++) {
      for (let c = 0; c < g.cols; c++) {
        ctx.fillStyle = divergingColour(cellShare(g, r * g.cols + c) / this.#scale, dark);
        ctx.fillRect(LEFT + c * w + gap, r * h + gap, Math.max(1, w - gap), Math.max(1, h - gap));
      }
    }
    this.#drawLabels(ctx, h, dark);
    this.#drawMark(ctx, dark);
  }

  #drawLabels(ctx, h, dark) {
    const g = this.#grid;
    ctx.fillStyle = dark ? '#a7b0bd' : '#596170';
    ctx.font = `${Math.min(11, Math.max(8, h - 2))}px system-ui, sans-serif`;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    const every = Math.max(1, Math.ceil(12 / h)); // a label every 12 px at least
    for (let r = 0; r < g.rows; r += every) ctx.fillText(String(g.ranks[r]), LEFT - 4, r * h + h / 2);
  }

  // The hovered (or keyboard) cell, outlined.
  #drawMark(ctx, dark) {
    const at = this.#hover;
    if (!at) return;
    const b = this.cellBox(at.r, at.c);
    ctx.strokeStyle = dark ? '#f5b041' : '#1d2430';
    ctx.lineWidth = 2;
    ctx.strokeRect(b.x + 1, b.y + 1, Math.max(1, b.w - 2), Math.max(1, b.h - 2));
  }

  #cellAt(e) {
    const g = this.#grid;
    if (!g || !g.cols) return null;
    const rect = this.#canvas.getBoundingClientRect();
    const c = Math.floor((e.clientX - rect.left - LEFT) / this.#cell.w);
    const r = Math.floor((e.clientY - rect.top) / this.#cell.h);
    return r >= 0 && r < g.rows && c >= 0 && c < g.cols ? { r, c } : null;
  }

  #point(e) {
    this.#setHover(this.#cellAt(e));
    this.#canvas.style.cursor = this.#hover ? 'pointer' : '';
  }

  #setHover(at) {
    const g = this.#grid;
    if (!g || !g.cols) return;
    this.#hover = at;
    const text = at ? cellText(g, this.#name, at.r, at.c, exactTime) : '';
    byId('tl-heatmap-hover').textContent = text;
    this.#canvas.title = text;
    this.#draw();
  }

  #key(e) {
    const g = this.#grid;
    if (!g || !g.cols) return;
    const moves = {
      ArrowLeft: [0, -1],
      ArrowRight: [0, 1],
      ArrowUp: [-1, 0],
      ArrowDown: [1, 0],
      Home: [0, -g.cols],
      End: [0, g.cols],
    };
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.#zoom(this.#cursor);
      return;
    }
    const move = moves[e.key];
    if (!move) return;
    e.preventDefault();
    const clamp = (v, n) => Math.max(0, Math.min(n - 1, v));
    this.#cursor = { r: clamp(this.#cursor.r + move[0], g.rows), c: clamp(this.#cursor.c + move[1], g.cols) };
    this.#setHover(this.#cursor);
  }

  #zoom({ r, c }) {
    const g = this.#grid;
    const cell = r * g.cols + c;
    this.#onZoom(g.spanStart[cell], g.spanEnd[cell]);
  }
}
