// The details of the hovered, focused or selected call, as text in
// [data-testid=call-details]: name, start, duration, self time (asked of the
// core: the worker's stack query), depth and lane, exact to the nanosecond;
// its source location when the file records it (file:line and the line of
// code, monospace, one line, the whole on hover);
// a merged block says how many calls it stands for; a rank's summary band,
// its busy share at the pixel pointed at. Comparing two runs, a call of B
// also gives its partner's duration in A (B's over its ratio), or says it
// has none.

import { el } from '../dom.js';
import { bandText, busyText, count, exactTime, sourceText } from './format.js';

const HINT = 'Point at a call, or focus the chart and press Enter, to see its details.';

const field = (name, label, value) => [el('dt', { text: label }), el('dd', { 'data-field': name, text: value })];

// The Source field of frame `frame` of `info` (its frameSources), or null.
function sourceField(info, frame) {
  const source = sourceText(info.frameSources?.[frame]);
  if (!source) return null;
  const dd = el('dd', { 'data-field': 'source', className: 'source', title: source.full });
  dd.append(el('span', { className: 'where', text: source.where }));
  if (source.text) dd.append(el('code', { text: source.text }));
  return [el('dt', { text: 'Source' }), dd];
}

// "×1.25 slower", "×0.8 faster", "as fast": a ratio of B over A for people.
export function ratioText(ratio) {
  const r = Number(ratio.toPrecision(3));
  if (r === 1) return 'as fast';
  return `×${r} (${r > 1 ? 'slower' : 'faster'})`;
}

// What A took for a call of B `duration` ns long whose ratio to A is `ratio`.
export function baselineText(duration, ratio) {
  if (!(ratio > 0)) return 'no partner in A';
  return `${exactTime(Math.round(duration / ratio))}, B ${ratioText(ratio)}`;
}

export class CallDetails {
  #client;
  #box;
  #shown = 0; // bumps with every change of the call described

  constructor(client) {
    this.#client = client;
    this.#box = document.getElementById('call-details');
  }

  // Describes `item` of the run `info` ({ timeline, lanes, frames }); no
  // item: the hint, or `note`; no run: nothing.
  show(item, info, note = null) {
    const shown = ++this.#shown;
    if (!item || !info) {
      this.#box.dataset.state = 'none';
      this.#box.replaceChildren(el('p', { className: 'hint', text: note ?? (info ? HINT : '') }));
      return;
    }
    if (item.count > 1) {
      this.#showMerged(item, info);
      return;
    }
    this.#showCall(item, info, null);
    this.#client.query('stack', { timeline: info.timeline, lane: item.lane, time: item.start }).then((reply) => {
      if (shown !== this.#shown || reply.type !== 'result') return;
      const call = reply.stack.find((s) => s.depth === item.depth && s.start === item.start);
      if (call) this.#showCall(item, info, call.self);
    });
  }

  // A rank's busy share at one pixel: { rank, share (null: being asked;
  // undefined: not available), time, pixel, width } (pixel of width: what
  // the share was asked for, for the tests).
  showBusy({ rank, share, time, pixel, width }) {
    ++this.#shown;
    const known = share !== undefined;
    this.#box.dataset.state = share === null ? 'loading' : 'busy';
    const text = known
      ? busyText(rank, share, time)
      : `rank ${rank} at ${exactTime(time)} (this build cannot say how busy)`;
    const p = el('p', { 'data-field': 'busy', text });
    Object.assign(p.dataset, { rank: String(rank), pixel: String(pixel), width: String(width) });
    this.#box.replaceChildren(p);
  }

  // The region a rank's band shows at one pixel: { rank, frame (null:
  // being asked; undefined: not available; -1: nothing runs), name, depth
  // (the band's), time, pixel, width }.
  showBand({ rank, frame, name, depth, time, pixel, width }) {
    ++this.#shown;
    this.#box.dataset.state = frame === null ? 'loading' : 'band';
    const text = bandText(rank, frame, name, depth, time);
    const p = el('p', { 'data-field': 'band', text });
    Object.assign(p.dataset, {
      rank: String(rank),
      pixel: String(pixel),
      width: String(width),
      frame: frame == null ? '' : String(frame),
      depth: depth == null ? '' : String(depth),
    });
    this.#box.replaceChildren(p);
  }

  // The timeline stopped answering: says so in place of the details.
  failed(reply) {
    this.#box.replaceChildren(
      el('p', { className: 'tl-error', text: `The timeline stopped: ${reply.wording ?? reply.message}` }),
    );
  }

  #showMerged(item, info) {
    this.#box.dataset.state = 'merged';
    this.#box.replaceChildren(
      el(
        'dl',
        {},
        field('merged', 'Merged', `${count(item.count)} calls too short to draw apart; zoom in to see them`),
        item.ratio === undefined
          ? null
          : field('ratio', 'Against A', item.ratio > 0 ? ratioText(item.ratio) : 'no partner in A'),
        item.frame >= 0 ? field('name', 'Region', info.frames[item.frame]) : null,
        field('start', 'From', exactTime(item.start)),
        field('end', 'To', exactTime(item.end)),
        field('depth', 'Depth', String(item.depth)),
        field('lane', 'Lane', info.lanes[item.lane].name),
      ),
    );
  }

  // self: the call's self time, or null while the core is asked.
  #showCall(item, info, self) {
    this.#box.dataset.state = self == null ? 'loading' : 'call';
    this.#box.replaceChildren(
      el(
        'dl',
        {},
        field('name', 'Name', info.frames[item.frame]),
        sourceField(info, item.frame),
        field('start', 'Start', exactTime(item.start)),
        field('duration', item.ratio === undefined ? 'Duration' : 'Duration in B', exactTime(item.end - item.start)),
        item.ratio === undefined ? null : field('baseline', 'In A', baselineText(item.end - item.start, item.ratio)),
        field('self', 'Self', self == null ? '…' : exactTime(self)),
        field('depth', 'Depth', String(item.depth)),
        field('lane', 'Lane', info.lanes[item.lane].name),
      ),
    );
  }
}
