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
  const node = el(
    'article',
    { className: 'file-card', 'data-testid': 'file-card' },
    el(
      'h3',
      {},
      el('span', { className: 'file-name', text: file.name }),
      el('span', { className: 'size', text: ` ${bytes(file.size)}` }),
    ),
  );
  if (error) {
    node.classList.add('bad');
    node.append(el('p', { className: 'bad-note', text: 'Not converted: see the message above.' }));
  } else if (!info) {
    node.append(el('p', { className: 'hint', text: 'Reading…' }));
  } else {
    node.append(facts(info), ranksAndLanes(info), regionsTable(info));
  }
  return node;
}

// Label, schema, ranks, lanes and calls.
function facts(info) {
  const lanes = info.ranks.reduce((n, r) => n + r.lanes.length, 0);
  return el(
    'dl',
    { className: 'facts' },
    el('dt', { text: 'Label' }),
    el(
      'dd',
      { 'data-testid': 'label', text: info.displayLabel ?? '' },
      info.label ? null : el('span', { className: 'hint', text: ' (file name)' }),
    ),
    el('dt', { text: 'Schema' }),
    el('dd', { text: `version ${info.schemaVersion}${info.storageLayout ? `, ${info.storageLayout}` : ''}` }),
    el('dt', { text: 'Ranks' }),
    el('dd', { text: `${count(info.numRanks)} (${count(info.ranks.length)} with calls)` }),
    el('dt', { text: 'Lanes' }),
    el('dd', { text: count(lanes) }),
    el('dt', { text: 'Calls' }),
    el('dd', { 'data-testid': 'calls', text: count(info.calls) }),
  );
}

// A table in a <details> box: its header cells ([text, className]) and rows.
function tableBox(summary, open, attributes, headers, rows, after = null) {
  const head = el(
    'tr',
    {},
    headers.map(([text, className]) => el('th', { scope: 'col', className, text })),
  );
  return el(
    'details',
    { open },
    el('summary', { text: summary }),
    el('div', { className: 'table-box' }, el('table', attributes, el('thead', {}, head), el('tbody', {}, rows))),
    after,
  );
}

function row(cells) {
  return el(
    'tr',
    {},
    cells.map(([text, className]) => el('td', { className, text })),
  );
}

function ranksAndLanes(info) {
  const rows = [];
  for (const r of info.ranks) {
    for (const lane of r.lanes) {
      rows.push(row([[String(r.rank), 'num'], [lane.label || '(one stack)'], [count(lane.calls), 'num']]));
    }
    if (!r.lanes.length) rows.push(row([[String(r.rank), 'num'], ['—'], [count(r.calls), 'num']]));
  }
  return tableBox(
    `Ranks and lanes (${count(rows.length)})`,
    false,
    {},
    [['Rank', 'num'], ['Lane'], ['Calls', 'num']],
    rows,
  );
}

function regionsTable(info) {
  const regions = info.regions.slice(0, REGION_ROWS_SHOWN);
  const more =
    info.regions.length > regions.length
      ? el('p', { className: 'hint', text: `First ${count(regions.length)} of ${count(info.regions.length)} shown.` })
      : null;
  return tableBox(
    `Regions (${count(info.regions.length)})`,
    info.regions.length <= 12,
    { 'data-testid': 'regions' },
    [['Region'], ['Calls', 'num']],
    regions.map((r) =>
      row([
        [r.name, 'region'],
        [count(r.calls), 'num'],
      ]),
    ),
    more,
  );
}
