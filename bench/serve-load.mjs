#!/usr/bin/env node
// serve under load (issue 34): starts `scope-speedscope serve RUN.h5` (the
// native CLI, or the Node one with --cli node), opens every rank, then
// CLIENTS concurrent clients each send QUERIES mixed queries of the page's
// protocol (bars, busy, regions, stack, fit, imbalance, aligned grid,
// lateness over seeded windows and widths), each on its own keep-alive
// connection, and checks every answer byte for byte against the wasm
// engine's answer to the same request in this process. Bounded: it stops
// by itself and stops the server. Prints the errors, the wrong answers and
// the latency (median, p99, worst) as the clients saw it.
//   node bench/serve-load.mjs RUN.h5 [--cli native|node] [--clients 16] [--queries 1000]
import http from 'node:http';
import { basename } from 'node:path';

import { createScopeSpeedscope } from '../dist/node.js';
import { decodeAnswer } from '../dist/wire.js';
import { nativeCli } from '../tests/js/helpers.mjs';
import { nodeCli, startCli } from '../tests/js/serve-helpers.mjs';
import { benchArgs } from './args.mjs';

const { file: run, opt } = benchArgs(
  'node bench/serve-load.mjs RUN.h5 [--cli native|node] [--clients 16] [--queries 1000]',
);
const cli = opt('--cli', 'native');
const clients = Number(opt('--clients', 16));
const perClient = Number(opt('--queries', 1000));

// A seeded generator (mulberry32): the same queries on every run.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The pool of mixed queries the clients draw from.
function queryPool(opened, size) {
  const random = rng(34);
  const end = opened.runEnd;
  const lanes = opened.lanes.map((_, i) => i);
  const step = Math.max(0, opened.frames.indexOf('step'));
  const windowOf = () => {
    const span = Math.max(2, Math.floor(end * 10 ** (-4 * random())));
    const start = Math.floor(random() * Math.max(1, end - span));
    return { start, end: start + span };
  };
  const kinds = [
    () => ({ type: 'timeline-bars', lanes, ...windowOf(), width: 100 + Math.floor(random() * 1500) }),
    () => ({ type: 'timeline-busy', groups: [lanes], ...windowOf(), width: 100 + Math.floor(random() * 1500) }),
    () => ({ type: 'timeline-regions', ...windowOf() }),
    () => ({ type: 'timeline-stack', lane: lanes[0], time: Math.floor(random() * end) }),
    () => ({ type: 'timeline-fit', ...windowOf(), maxCalls: 1_000_000 }),
    () => ({ type: 'timeline-imbalance', ...windowOf() }),
    () => ({ type: 'timeline-aligned', frame: step, ...windowOf(), maxColumns: 200 }),
    () => ({ type: 'timeline-lateness', frame: step, ...windowOf() }),
  ];
  return Array.from({ length: size }, (_, i) => kinds[i % kinds.length]());
}

function post(agent, base, cookie, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}engine`,
      { method: 'POST', agent, headers: { Cookie: cookie, 'Content-Length': Buffer.byteLength(body) } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

const server = await startCli(cli === 'node' ? [nodeCli, 'serve', run, '--port', '0'] : ['serve', run, '--port', '0'], {
  program: cli === 'node' ? process.execPath : nativeCli,
  timeout: 600_000,
});
try {
  const u = new URL(server.url);
  const base = `${u.origin}/`;
  const cookie = `scope_speedscope_token=${u.searchParams.get('token')}`;
  const open = { type: 'timeline-open', options: { ranks: 'all' } };
  let t = performance.now();
  const served = await post(new http.Agent(), base, cookie, JSON.stringify(open));
  const opened = decodeAnswer(new Uint8Array(served.body));
  if (opened.type !== 'result') throw new Error(`the server could not open ${run}: ${opened.message}`);
  const openMs = performance.now() - t;
  const calls = opened.lanes.reduce((n, l) => n + l.calls, 0);

  // The reference: the wasm engine in this process, the same requests.
  const sp = await createScopeSpeedscope();
  const mine = sp.engineRequest(open, { inputs: { file: { name: basename(run), path: run } } });
  const pool = queryPool(opened, 256).map((q) => {
    const expected = Buffer.from(sp.engineAnswer(JSON.stringify({ ...q, timeline: mine.timeline })));
    return { body: JSON.stringify({ ...q, timeline: opened.timeline }), type: q.type, expected };
  });

  let errors = 0;
  let wrong = 0;
  const latencies = [];
  const firstProblems = [];
  t = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const random = rng(1000 + c);
      for (let i = 0; i < perClient; i++) {
        const q = pool[Math.floor(random() * pool.length)];
        const asked = performance.now();
        try {
          const res = await post(agent, base, cookie, q.body);
          latencies.push(performance.now() - asked);
          if (res.status !== 200) {
            errors++;
            if (firstProblems.length < 5) firstProblems.push(`${q.type}: HTTP ${res.status}`);
          } else if (!res.body.equals(q.expected)) {
            wrong++;
            if (firstProblems.length < 5) firstProblems.push(`${q.type}: a wrong answer`);
          }
        } catch (error) {
          errors++;
          if (firstProblems.length < 5) firstProblems.push(`${q.type}: ${error.message}`);
        }
      }
      agent.destroy();
    }),
  );
  const wall = performance.now() - t;
  latencies.sort((a, b) => a - b);
  const ms = (v) => `${v.toFixed(1)} ms`;
  console.log(
    JSON.stringify({
      cli,
      run: basename(run),
      calls,
      lanes: opened.lanes.length,
      openMs: Math.round(openMs),
      clients,
      queries: clients * perClient,
      errors,
      wrong,
      median: ms(quantile(latencies, 0.5)),
      p99: ms(quantile(latencies, 0.99)),
      worst: ms(latencies.at(-1)),
      perSecond: Math.round((clients * perClient) / (wall / 1000)),
      problems: firstProblems,
    }),
  );
  process.exitCode = errors || wrong ? 1 : 0;
} finally {
  await server.stop();
}
