// The details of the hovered, focused or selected call, as text in
// [data-testid=call-details]: name, start, duration, self time (asked of the
// core: the worker's stack query), depth and lane, exact to the nanosecond;
// its source location when the file records it (file:line and the line of
// code, monospace, one line, the whole on hover);
// a merged block says how many calls it stands for; a rank's summary band,
// its busy share at the pixel pointed at. Comparing two runs, a call of B
// also gives its partner's duration in A (B's over its ratio), or says it
// has none, and a call of A its partner's in B; a selected call with a
// partner offers "Align at this call" (run A moved so that the partner
// starts with the call of B). A's calls are described in A's own times
// (the chart draws them `shift` ns later when the runs are lined up at a
// call).

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

// What B took for a call of A `duration` ns long whose ratio (B over A) is `ratio`.
export function partnerInBText(duration, ratio) {
  if (Number.isNaN(ratio)) return 'no partner in B';
  return `${exactTime(Math.round(duration * ratio))}, B ${ratioText(ratio)}`;
}

export class CallDetails {
  #client;
  #box;
  #onAlign;
  #shown = 0; // bumps with every change of the call described

  // onAlign(): "Align at this call" was pressed (the selected call).
  constructor(client, { onAlign = () => {} } = {}) {
    this.#client = client;
    this.#box = document.getElementById('call-details');
    this.#onAlign = onAlign;
  }

  // Describes `item` of the run `info` ({ timeline, lanes, frames }); no
  // item: the hint, or `note`; no run: nothing. how: { selected (the item
  // is the selected call), shift (ns run A is drawn later: its calls' own
  // times are the item's less it) }.
  show(item, info, note = null, { selected = false, shift = 0 } = {}) {
    const shown = ++this.#shown;
    if (!item || !info) {
      this.#box.dataset.state = 'none';
      this.#box.replaceChildren(el('p', { className: 'hint', text: note ?? (info ? HINT : '') }));
      return;
    }
    const ofA = info.lanes[item.lane]?.run === 'a';
    const own = ofA && shift ? { ...item, start: item.start - shift, end: item.end - shift } : item;
    const how = { ofA, selected, drawnAt: own === item ? null : item.start };
    if (item.count > 1) {
      this.#showMerged(own, info, how);
      return;
    }
    this.#showCall(own, info, null, how);
    this.#client.query('stack', { timeline: info.timeline, lane: own.lane, time: own.start }).then((reply) => {
      if (shown !== this.#shown || reply.type !== 'result') return;
      const call = reply.stack.find((s) => s.depth === own.depth && s.start === own.start);
      if (call) this.#showCall(own, info, call.self, how);
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

  #showMerged(item, info, { ofA }) {
    const against = ofA ? 'no partner in B' : 'no partner in A';
    this.#box.dataset.state = 'merged';
    this.#box.replaceChildren(
      el(
        'dl',
        {},
        field('merged', 'Merged', `${count(item.count)} calls too short to draw apart; zoom in to see them`),
        item.ratio === undefined
          ? null
          : field('ratio', ofA ? 'B against A' : 'Against A', item.ratio >= 0 ? ratioText(item.ratio) : against),
        item.frame >= 0 ? field('name', 'Region', info.frames[item.frame]) : null,
        field('start', 'From', exactTime(item.start)),
        field('end', 'To', exactTime(item.end)),
        field('depth', 'Depth', String(item.depth)),
        field('lane', 'Lane', info.lanes[item.lane].name),
      ),
    );
  }

  // self: the call's self time, or null while the core is asked.
  #showCall(item, info, self, { ofA, selected, drawnAt }) {
    const comparing = item.ratio !== undefined;
    const duration = item.end - item.start;
    const partner = comparing && !Number.isNaN(item.ratio);
    const focused = document.activeElement?.id === 'align-at-call'; // kept on the button drawn anew
    this.#box.dataset.state = self == null ? 'loading' : 'call';
    this.#box.replaceChildren(
      el(
        'dl',
        {},
        field('name', 'Name', info.frames[item.frame]),
        sourceField(info, item.frame),
        field('start', ofA ? 'Start in A' : 'Start', exactTime(item.start)),
        drawnAt === null ? null : field('drawn-at', 'Drawn at', exactTime(drawnAt)),
        field('duration', comparing ? `Duration in ${ofA ? 'A' : 'B'}` : 'Duration', exactTime(duration)),
        comparing && !ofA ? field('baseline', 'In A', baselineText(duration, item.ratio)) : null,
        comparing && ofA ? field('partner', 'In B', partnerInBText(duration, item.ratio)) : null,
        field('self', 'Self', self == null ? '…' : exactTime(self)),
        field('depth', 'Depth', String(item.depth)),
        field('lane', 'Lane', info.lanes[item.lane].name),
      ),
      // (replaceChildren would write a null as the text "null")
      ...(selected && partner ? [this.#alignButton()] : []),
    );
    if (focused) document.getElementById('align-at-call')?.focus();
  }

  #alignButton() {
    const button = el('button', {
      type: 'button',
      className: 'button small',
      id: 'align-at-call',
      'data-testid': 'align-at-call',
      text: 'Align at this call',
      title: "Move run A so that this call's partner starts with the call of B",
    });
    button.addEventListener('click', () => this.#onAlign());
    return button;
  }
}
