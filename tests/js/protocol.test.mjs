// docs/engine-protocol.md lists exactly the requests the page's engine
// serves (web/worker.js, and the core's dispatcher in src/core/engine/,
// which web/timeline/worker-side.js pipes to) and exactly the
// documented requests the page sends (web/*.js and web/timeline/*.js
// beside the engine's side; all but timeline-close): a
// request added or removed on one side without the document fails here.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const root = join(import.meta.dirname, '..', '..');
const read = (...p) => readFileSync(join(root, ...p), 'utf8');

const documented = () =>
  new Set([...read('docs', 'engine-protocol.md').matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]));

function served() {
  const worker = read('web', 'worker.js');
  const engine = read('src', 'core', 'engine', 'engine.cpp');
  const types = new Set();
  for (const m of worker.matchAll(/(?<![.\w])type === '([a-z-]+)'/g)) types.add(m[1]);
  for (const m of engine.matchAll(/t == "([a-z-]+)"/g)) types.add(m[1]);
  for (const m of engine.matchAll(/^ {6}\{"(timeline-[a-z-]+)", [a-z_]+\},$/gm)) types.add(m[1]);
  return types;
}

function sent() {
  const types = new Set(['init']); // the client's first message
  const files = [
    ...readdirSync(join(root, 'web')),
    ...readdirSync(join(root, 'web', 'timeline')).map((f) => join('timeline', f)),
  ].filter((f) => f.endsWith('.js') && !['worker.js', 'sw.js'].includes(f) && !f.endsWith('worker-side.js'));
  for (const f of files) {
    const text = read('web', f);
    for (const m of text.matchAll(/type: '(timeline-[a-z-]+)'/g)) types.add(m[1]);
    for (const m of text.matchAll(/\.query\(\s*'([a-z-]+)'/g)) types.add(`timeline-${m[1]}`);
    for (const m of text.matchAll(/new WindowQuery\(client, '([a-z-]+)'\)/g)) types.add(`timeline-${m[1]}`);
    for (const m of text.matchAll(/engine\.request\(\s*'([a-z-]+)'/g)) types.add(m[1]);
  }
  return types;
}

const sorted = (set) => [...set].sort();

test('the protocol document lists exactly the requests the engine serves', () => {
  assert.deepEqual(sorted(served()), sorted(documented()));
});

test('the page sends only documented requests, and all but timeline-close (an open closes the open one) and engine-version (init says it)', () => {
  const page = sent();
  assert.deepEqual(sorted(page), sorted([...page].filter((t) => documented().has(t))));
  assert.deepEqual(sorted([...documented()].filter((t) => !page.has(t))), ['engine-version', 'timeline-close']);
});

test('the engine, the page and the document say the same protocol version', () => {
  const doc = read('docs', 'engine-protocol.md').match(/^# The engine protocol \(version (\d+)\)/m)[1];
  const engine = read('src', 'core', 'engine', 'engine.hpp').match(/kEngineProtocol = (\d+);/m)[1];
  const page = read('web', 'engine-client.js').match(/^export const PROTOCOL = (\d+);/m)[1];
  assert.deepEqual([engine, page], [doc, doc]);
  assert.match(read('web', 'worker.js'), /protocol: sp\.engineProtocol,/);
  assert.match(read('web', 'app.js'), /init\.protocol !== PROTOCOL/);
});
