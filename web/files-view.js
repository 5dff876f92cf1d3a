// What each chosen file holds (from the core's inspection): label, schema,
// ranks and lanes, regions with their call counts. Shown in the options panel;
// a file that could not be read is marked here, its message is in the one
// error box of the page.

import { $, bytes, count, el } from './dom.js';

const REGION_ROWS_SHOWN = 500;

export function render(files) {
  $('files').replaceChildren(...files.map(card));
}

function card({ file, info, error }) {
  const node = el('article', { className: 'file-card', 'data-testid': 'file-card' },
    el('h3', {}, el('span', { className: 'file-name', text: file.name }),
      el('span', { className: 'size', text: ` ${bytes(file.size)}` })));
  if (error) {
    node.classList.add('bad');
    node.append(el('p', { className: 'bad-note', text: 'Not converted: see the message above.' }));
    return node;
  }
  if (!info) {
    node.append(el('p', { className: 'hint', text: 'Reading…' }));
    return node;
  }
  const lanes = info.ranks.reduce((n, r) => n + r.lanes.length, 0);
  node.append(el('dl', { className: 'facts' },
    el('dt', { text: 'Label' }), el('dd', { 'data-testid': 'label', text: info.displayLabel ?? '' },
      info.label ? null : el('span', { className: 'hint', text: ' (file name)' })),
    el('dt', { text: 'Schema' }),
    el('dd', { text: `version ${info.schemaVersion}${info.storageLayout ? `, ${info.storageLayout}` : ''}` }),
    el('dt', { text: 'Ranks' }), el('dd', { text: `${count(info.numRanks)} (${count(info.ranks.length)} with calls)` }),
    el('dt', { text: 'Lanes' }), el('dd', { text: count(lanes) }),
    el('dt', { text: 'Calls' }), el('dd', { 'data-testid': 'calls', text: count(info.calls) })));

  const rankRows = [];
  for (const r of info.ranks) {
    for (const lane of r.lanes) {
      rankRows.push(el('tr', {},
        el('td', { className: 'num', text: String(r.rank) }),
        el('td', { text: lane.label || '(one stack)' }),
        el('td', { className: 'num', text: count(lane.calls) })));
    }
    if (!r.lanes.length) {
      rankRows.push(el('tr', {}, el('td', { className: 'num', text: String(r.rank) }),
        el('td', { text: '—' }), el('td', { className: 'num', text: count(r.calls) })));
    }
  }
  node.append(el('details', {},
    el('summary', { text: `Ranks and lanes (${count(rankRows.length)})` }),
    el('div', { className: 'table-box' }, el('table', {},
      el('thead', {}, el('tr', {}, el('th', { scope: 'col', className: 'num', text: 'Rank' }),
        el('th', { scope: 'col', text: 'Lane' }), el('th', { scope: 'col', className: 'num', text: 'Calls' }))),
      el('tbody', {}, rankRows)))));

  const regions = info.regions.slice(0, REGION_ROWS_SHOWN);
  node.append(el('details', { open: info.regions.length <= 12 },
    el('summary', { text: `Regions (${count(info.regions.length)})` }),
    el('div', { className: 'table-box' }, el('table', { 'data-testid': 'regions' },
      el('thead', {}, el('tr', {}, el('th', { scope: 'col', text: 'Region' }),
        el('th', { scope: 'col', className: 'num', text: 'Calls' }))),
      el('tbody', {}, regions.map((r) => el('tr', {},
        el('td', { className: 'region', text: r.name }),
        el('td', { className: 'num', text: count(r.calls) })))))),
    info.regions.length > regions.length
      ? el('p', { className: 'hint', text: `First ${count(regions.length)} of ${count(info.regions.length)} shown.` })
      : null));
  return node;
}
