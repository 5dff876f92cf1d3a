// The timeline's bands: one per lane, a header with its name over one row
// per depth (none while collapsed), stacked top to bottom, and the vertical
// scroll over them; the lanes list (#tl-lanes) whose buttons collapse them.

import { el } from '../dom.js';
import { count } from './format.js';
import { AXIS_H, BAND_GAP, HEADER_H, ROW_H } from './draw.js';

const byId = (id) => document.getElementById(id);

export class Bands {
  list = []; // [{ lane, name, top, height, depths, collapsed }]
  scrollY = 0;
  #contentHeight = 0;
  #collapsed = new Set();
  #lanes = [];
  #onToggle;

  // onToggle(lane): a band's button in the lanes list was pressed.
  constructor(onToggle) {
    this.#onToggle = onToggle;
  }

  // A new run's lanes ([{ name, calls, maxDepth }]), every band open, at the top.
  show(lanes) {
    this.#lanes = lanes;
    this.#collapsed = new Set();
    this.scrollY = 0;
    this.#layout();
    this.#renderList();
  }

  clear() {
    byId('tl-lanes').replaceChildren();
  }

  toggle(lane) {
    if (this.#collapsed.has(lane)) this.#collapsed.delete(lane);
    else this.#collapsed.add(lane);
    this.#layout();
    this.#renderList();
  }

  // The lanes whose rows are shown.
  get expandedLanes() {
    return this.list.filter((b) => !b.collapsed).map((b) => b.lane);
  }

  // The band at `y` px of the chart (below the axis), or null.
  at(y) {
    const cy = y - AXIS_H + this.scrollY;
    return this.list.find((b) => cy >= b.top && cy < b.top + b.height) ?? null;
  }

  // Scrolls by `dy` px within the bands, `visible` px of them in view.
  scrollBy(dy, visible) {
    const max = Math.max(0, this.#contentHeight - visible + ROW_H);
    this.scrollY = Math.min(max, Math.max(0, this.scrollY + dy));
  }

  // Scrolls so that the row of `item` ({ lane, depth }) is in view.
  scrollTo(item, visible) {
    const band = this.list[item.lane];
    if (!band) return;
    const y = band.top + HEADER_H + item.depth * ROW_H;
    if (y < this.scrollY + HEADER_H) this.scrollBy(y - HEADER_H - this.scrollY, visible);
    else if (y + ROW_H > this.scrollY + visible) this.scrollBy(y + 2 * ROW_H - visible - this.scrollY, visible);
  }

  #layout() {
    let y = 0;
    this.list = this.#lanes.map((lane, i) => {
      const collapsed = this.#collapsed.has(i);
      const depths = lane.maxDepth + 1;
      const height = HEADER_H + (collapsed ? 0 : depths * ROW_H) + BAND_GAP;
      const band = { lane: i, name: lane.name, top: y, height, depths, collapsed };
      y += height;
      return band;
    });
    this.#contentHeight = y;
  }

  #renderList() {
    byId('tl-lanes').replaceChildren(
      ...this.#lanes.map((lane, i) =>
        el(
          'li',
          {},
          el(
            'button',
            {
              type: 'button',
              className: 'tl-lane',
              'aria-expanded': String(!this.#collapsed.has(i)),
              'data-lane': String(i),
              onclick: () => this.#onToggle(i),
              title: this.#collapsed.has(i) ? 'Show this band' : 'Collapse this band',
            },
            el('span', { className: 'tl-lane-name', text: lane.name }),
            el('span', {
              className: 'tl-lane-calls',
              text: ` ${count(lane.calls)} ${lane.calls === 1 ? 'call' : 'calls'}`,
            }),
          ),
        ),
      ),
    );
  }
}
