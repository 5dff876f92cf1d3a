// `scope-speedscope serve FILE... [vs FILE...]` of both CLIs, by the same
// tests: the native one (src/cli/serve.cpp, the native engine) and the Node
// one (src/js/engine-server.js, the wasm engine inside Node): the page and
// the engine behind a token, Host and Origin checks and no path escapes;
// the answers are the wasm engine's in the test (the same dispatcher, built
// twice), the downloads the CLI's bytes; bad requests get JSON errors and
// the server keeps serving; Ctrl-C stops it. A job written one file per
// process (tests/fixtures/job/) is served as one run: its answers are those
// of the job written as one file; `A... vs B...` compares two jobs as their
// one files compare; files that are not one job are refused before any URL.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { createScopeSpeedscope, decodeAnswer } from '../../dist/node.js';
import { dist, fixtures, inputPath, nativeCli } from './helpers.mjs';
import { nodeCli, startCli } from './serve-helpers.mjs';

const RUN = inputPath('ranks_imbalance_s3.h5');
const jobFile = (ranks, name) => path.join(fixtures, 'job', String(ranks), name);
const parts = (ranks, count = ranks) =>
  Array.from({ length: count }, (_, r) => jobFile(ranks, `job_rank${String(r).padStart(5, '0')}.h5`));

// Each CLI: how to start it, how to run it to its end, what it calls its engine.
const CLIS = [
  { kind: 'native', program: nativeCli, argv: [], engine: 'native' },
  { kind: 'Node', program: process.execPath, argv: [nodeCli], engine: 'wasm' },
];

// One raw request (fetch cannot set Host): { status, headers, body: Buffer }.
// A body goes with its Content-Length unless chunked says otherwise.
function raw(url, { method = 'GET', path: p = '/', headers = {}, body = null, chunked = false } = {}) {
  const { hostname, port } = new URL(url);
  const all = { ...headers };
  if (body !== null && !chunked) all['Content-Length'] = Buffer.byteLength(body);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path: p, method, headers: all, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    if (body !== null) req.write(body);
    req.end();
  });
}

// A POST /engine whose head says `length` bytes follow, none sent: the
// whole answer as text, read until the server closes.
function headOnly(url, length) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname, () =>
      socket.write(
        `POST /engine HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${cookieOf(url)}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`,
      ),
    );
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (d) => {
      text += d;
      // Answered in full: the body's length is known.
      const head = text.indexOf('\r\n\r\n');
      const m = /content-length: (\d+)/i.exec(text.slice(0, head));
      if (head >= 0 && m && text.length >= head + 4 + Number(m[1])) socket.destroy();
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(text));
  });
}

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const tokenOf = (url) => new URL(url).searchParams.get('token');
const cookieOf = (url) => `scope_speedscope_token=${tokenOf(url)}`;
const json = (r) => JSON.parse(r.body.toString('utf8'));

for (const cli of CLIS) {
  const serve = (args, options = {}) =>
    startCli([...cli.argv, 'serve', ...args, '--port', '0'], { program: cli.program, ...options });

  describe(`${cli.kind} serve`, { timeout: 300_000 }, () => {
    let server;
    let sp;
    before(async () => {
      server = await serve([RUN]);
      sp = await createScopeSpeedscope();
    });
    after(async () => {
      await server?.stop();
    });

    const ask = async (request, headers = {}) => {
      const res = await raw(server.url, {
        method: 'POST',
        path: '/engine',
        headers: { Cookie: cookieOf(server.url), 'Content-Type': 'application/json', ...headers },
        body: typeof request === 'string' ? request : JSON.stringify(request),
      });
      return res;
    };
    const wasm = (request) => sp.engineRequest(request, { inputs: { file: { name: RUN, path: RUN } } });
    // The answer without what differs by build: the bytes the columns take
    // (size_t is 8 bytes natively, 4 in wasm).
    const comparable = (answer) => {
      const { memoryBytes, ...rest } = answer;
      assert.equal(typeof memoryBytes === 'number' || memoryBytes === undefined, true);
      return rest;
    };

    test('it prints one URL with a 64-digit token and says nothing of it elsewhere', async () => {
      // The native engine opens every rank ahead (the first view, then All
      // ranks) and says when it is done.
      const ahead = cli.engine === 'native' ? 'Every rank is open \\(60 calls, \\d+\\.\\d s\\)\\.\\n' : '';
      for (let i = 0; i < 100 && ahead && !server.stdout.includes('Every rank'); i++) await wait(50);
      assert.match(
        server.stdout,
        new RegExp(
          `^Serving .*ranks_imbalance_s3\\.h5 in the ${cli.engine} engine at http://127\\.0\\.0\\.1:\\d+/\\?token=[0-9a-f]{64}\\nPress Ctrl\\+C to stop\\.\\n${ahead}$`,
        ),
      );
      assert.equal(server.stdout.split(tokenOf(server.url)).length, 2);
    });

    test('the page’s All ranks is the open made ahead (native), the same answer as an open then', async () => {
      const request = {
        type: 'timeline-open',
        options: { ranks: 'all', include: null, exclude: null, sourceLocations: true },
        served: { file: 0 },
      };
      const all = decodeAnswer(new Uint8Array((await ask(request)).body));
      assert.equal(all.type, 'result');
      // Its timeline is the second engine's (ids from 2^24) natively.
      assert.equal(all.timeline >= 1 << 24, cli.engine === 'native');
      const { served, ...mine } = request;
      const expected = wasm(mine);
      assert.deepEqual(comparable(all), { ...comparable(expected), timeline: all.timeline });
    });

    test('a named request’s progress and cancellation: unknown names are 404, bad names 400', async () => {
      const headers = { Cookie: cookieOf(server.url) };
      for (const [method, p] of [
        ['GET', '/engine/progress/0123abcd'],
        ['POST', '/engine/cancel/0123abcd'],
      ]) {
        const r = await raw(server.url, { method, path: p, headers, body: method === 'POST' ? '' : null });
        assert.equal(r.status, 404, p);
        assert.deepEqual(json(r), { type: 'error', status: 404, message: 'no such request is waiting or running' });
      }
      const bad = await ask({ type: 'engine-version' }, { 'X-Scope-Request': '../x' });
      assert.equal(bad.status, 400);
      assert.deepEqual(json(bad), {
        type: 'error',
        status: 400,
        message: 'X-Scope-Request must be 1 to 64 hex digits',
      });
      const named = await ask({ type: 'engine-version' }, { 'X-Scope-Request': 'ab12' });
      assert.equal(named.status, 200);
      assert.deepEqual(decodeAnswer(new Uint8Array(named.body)), { type: 'result', protocol: 2, version: sp.version });
    });

    test('without the token every request is 401, the page too; the token sets an HttpOnly, SameSite=Strict cookie', async () => {
      for (const p of ['/', '/index.html', '/app.js', '/engine/run', `/?token=${'0'.repeat(64)}`]) {
        const r = await raw(server.url, { path: p });
        assert.equal(r.status, 401, p);
        assert.deepEqual(json(r), {
          type: 'error',
          status: 401,
          message: 'this server needs the token of the URL it printed',
        });
      }
      const refused = await raw(server.url, { method: 'POST', path: '/engine', body: '{"type":"engine-version"}' });
      assert.equal(refused.status, 401);
      const first = await raw(server.url, { path: `/?token=${tokenOf(server.url)}` });
      assert.equal(first.status, 200);
      assert.equal(first.headers['set-cookie'][0], `${cookieOf(server.url)}; HttpOnly; SameSite=Strict; Path=/`);
      assert.equal(first.body.toString(), fs.readFileSync(path.join(dist, 'web', 'index.html'), 'utf8'));
      const later = await raw(server.url, { path: '/app.js', headers: { Cookie: `a=b; ${cookieOf(server.url)}` } });
      assert.equal(later.status, 200);
      assert.equal(later.headers['content-type'], 'text/javascript; charset=utf-8');
    });

    test('a Host or Origin that is not this server is 403, before the token is looked at', async () => {
      const port = new URL(server.url).port;
      const cases = [
        [{ Host: 'evil.example' }, "the Host header 'evil.example' is not this server's"],
        [{ Host: `evil.example:${port}` }, `the Host header 'evil.example:${port}' is not this server's`],
        [
          { Host: `127.0.0.1.evil.example:${port}` },
          `the Host header '127.0.0.1.evil.example:${port}' is not this server's`,
        ],
        [{ Origin: 'http://evil.example' }, "the Origin 'http://evil.example' is not this server's page"],
        [
          { Origin: `http://127.0.0.1:${Number(port) + 1}` },
          `the Origin 'http://127.0.0.1:${Number(port) + 1}' is not this server's page`,
        ],
        [{ Origin: 'null' }, "the Origin 'null' is not this server's page"],
      ];
      for (const [headers, message] of cases) {
        const r = await raw(server.url, { path: '/engine/run', headers: { Cookie: cookieOf(server.url), ...headers } });
        assert.equal(r.status, 403, JSON.stringify(headers));
        assert.deepEqual(json(r), { type: 'error', status: 403, message });
      }
      // Through a tunnel the port differs; localhost and [::1] are this machine too.
      for (const Host of ['localhost:7000', '[::1]:7000', '127.0.0.1:1']) {
        const r = await raw(server.url, { path: '/engine/run', headers: { Cookie: cookieOf(server.url), Host } });
        assert.equal(r.status, 200, Host);
        assert.deepEqual(json(r), {
          protocol: 2,
          version: sp.version,
          engine: cli.engine,
          runs: [{ name: 'ranks_imbalance_s3.h5', size: fs.statSync(RUN).size, info: wasm({ type: 'inspect' }).info }],
          compare: false,
          sides: [[0]],
        });
      }
      const sameOrigin = await ask({ type: 'engine-version' }, { Origin: `http://127.0.0.1:${port}` });
      assert.equal(sameOrigin.status, 200);
    });

    test('its answers are the wasm engine’s, request for request', async () => {
      const opened = decodeAnswer(
        new Uint8Array((await ask({ type: 'timeline-open', options: { ranks: 'all' } })).body),
      );
      const mine = wasm({ type: 'timeline-open', options: { ranks: 'all' } });
      assert.equal(opened.type, 'result');
      assert.deepEqual(comparable(opened), { ...comparable(mine), timeline: opened.timeline });
      const t = opened.timeline;
      const w = mine.timeline;
      const lanes = opened.lanes.map((_, i) => i);
      const requests = [
        { type: 'timeline-bars', lanes, start: 0, end: opened.runEnd, width: 800 },
        { type: 'timeline-bars', lanes: [1, 2], start: 1000, end: 2500, width: 1600 },
        { type: 'timeline-busy', groups: [lanes, [0]], start: 0, end: opened.runEnd, width: 400 },
        { type: 'timeline-regions', start: 0, end: opened.runEnd },
        { type: 'timeline-regions', start: 700, end: 3100, lanes: [3] },
        { type: 'timeline-imbalance', start: 0, end: opened.runEnd },
        { type: 'timeline-aligned', frame: 2, start: 0, end: opened.runEnd, maxColumns: 3 },
        { type: 'timeline-lateness', frame: 2, start: 0, end: opened.runEnd },
        { type: 'timeline-stack', lane: 2, time: 2100 },
        { type: 'timeline-fit', start: 0, end: opened.runEnd, maxCalls: 10 },
        { type: 'timeline-overview', options: { maxEvents: 20 } },
        { type: 'timeline-overview', options: { maxEvents: 20, slices: 7 } },
        { type: 'timeline-overview-more', overviewing: 2 },
        { type: 'timeline-overview-more', overviewing: 1 },
        { type: 'timeline-bars', lanes: [0], start: 0, end: 10, width: 1e9 },
        { type: 'inspect' },
        { type: 'check', include: ['so(lve'], exclude: ['x'] },
        { type: 'engine-version' },
      ];
      for (const r of requests) {
        const res = await ask({ ...r, timeline: t });
        const theirs = decodeAnswer(new Uint8Array(res.body));
        const ours = wasm({ ...r, timeline: w });
        if (ours.type === 'error') {
          // The same refusal, a request problem: 400.
          assert.equal(res.status, 400, r.type);
          assert.deepEqual({ ...theirs, file: null }, { ...ours, file: null });
        } else {
          assert.equal(res.status, 200, r.type);
          assert.deepEqual(theirs, ours, r.type);
        }
      }
    });

    test('a download is the CLI’s export, fetched once; no path of the request reaches the disk', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'serve-engine-'));
      try {
        const out = path.join(dir, 'expected.json');
        const made = spawnSync(nativeCli, [RUN, '--ranks', '1', '3', '--filepath', out, '--quiet']);
        assert.equal(made.status, 0, made.stderr.toString());
        const res = await ask({
          type: 'convert',
          count: 1,
          options: { ranks: [1, 3], filepath: '../../../tmp/evil.json' },
        });
        assert.equal(res.status, 200);
        const { type, outputs } = json(res);
        assert.equal(type, 'result');
        assert.equal(outputs.length, 1);
        assert.match(outputs[0].url, /^engine\/download\/[0-9a-f]{32}$/);
        assert.equal(outputs[0].fileName, 'evil.json');
        assert.equal(outputs[0].calls, 30);
        assert.ok(!fs.existsSync('/tmp/evil.json'));
        const doc = await raw(server.url, { path: `/${outputs[0].url}`, headers: { Cookie: cookieOf(server.url) } });
        assert.equal(doc.status, 200);
        assert.ok(doc.body.equals(fs.readFileSync(out)));
        assert.equal(outputs[0].size, doc.body.length);
        const again = await raw(server.url, { path: `/${outputs[0].url}`, headers: { Cookie: cookieOf(server.url) } });
        assert.equal(again.status, 404);
        assert.deepEqual(json(again), { type: 'error', status: 404, message: 'no such download (each is given once)' });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    test('malformed, oversized and unknown requests are JSON errors, and it keeps serving', async () => {
      const notJson = await ask('{"type":');
      assert.equal(notJson.status, 400);
      assert.equal(
        decodeAnswer(new Uint8Array(notJson.body)).message,
        'scope-speedscope engine: the request is not JSON',
      );
      const unknown = await ask({ type: 'timeline-delete-everything' });
      assert.equal(unknown.status, 400);
      assert.equal(
        decodeAnswer(new Uint8Array(unknown.body)).message,
        "scope-speedscope engine: unknown request type 'timeline-delete-everything'",
      );
      // A length over 1 MiB is refused before the body is read (the
      // body is not sent: the server answers and closes at once).
      const big = await headOnly(server.url, (1 << 20) + 1);
      assert.match(big, /^HTTP\/1\.1 413 /);
      assert.deepEqual(JSON.parse(big.slice(big.indexOf('\r\n\r\n') + 4)), {
        type: 'error',
        status: 413,
        message: 'the request is larger than 1 MiB',
      });
      const chunked = await raw(server.url, {
        method: 'POST',
        path: '/engine',
        headers: { Cookie: cookieOf(server.url) },
        body: '{"type":"engine-version"}',
        chunked: true,
      });
      assert.equal(chunked.status, 411);
      assert.deepEqual(json(chunked), {
        type: 'error',
        status: 411,
        message: 'a request body needs a Content-Length (no chunked bodies)',
      });
      const put = await raw(server.url, { method: 'PUT', path: '/engine', headers: { Cookie: cookieOf(server.url) } });
      assert.ok([400, 404, 405].includes(put.status), String(put.status));
      assert.equal(json(put).type, 'error');
      const fine = decodeAnswer(new Uint8Array((await ask({ type: 'engine-version' })).body));
      assert.deepEqual(fine, { type: 'result', protocol: 2, version: sp.version });
    });

    test('clients at once get their own correct answers', async () => {
      const opened = decodeAnswer(
        new Uint8Array((await ask({ type: 'timeline-open', options: { ranks: 'all' } })).body),
      );
      const w = wasm({ type: 'timeline-open', options: { ranks: 'all' } }).timeline;
      const queries = [];
      for (let i = 0; i < 64; i++) {
        const start = (i * 37) % 4000;
        queries.push(
          i % 3 === 0
            ? { type: 'timeline-bars', lanes: [i % 4], start, end: start + 900, width: 100 + i }
            : i % 3 === 1
              ? { type: 'timeline-regions', start, end: start + 1200 }
              : { type: 'timeline-busy', groups: [[0, 1, 2, 3]], start, end: start + 700, width: 50 + i },
        );
      }
      const answers = await Promise.all(
        queries.map(async (q) => decodeAnswer(new Uint8Array((await ask({ ...q, timeline: opened.timeline })).body))),
      );
      answers.forEach((a, i) => assert.deepEqual(a, wasm({ ...queries[i], timeline: w }), JSON.stringify(queries[i])));
    });
  });

  describe(`${cli.kind} serve of a job written one file per process`, { timeout: 300_000 }, () => {
    let sp;
    const servers = [];
    before(async () => {
      sp = await createScopeSpeedscope();
    });
    after(async () => {
      for (const s of servers) await s.stop();
    });
    const start = async (files) => {
      const s = await serve(files);
      servers.push(s);
      return s;
    };
    const askOf = (s) => async (request) => {
      const res = await raw(s.url, {
        method: 'POST',
        path: '/engine',
        headers: { Cookie: cookieOf(s.url), 'Content-Type': 'application/json' },
        body: JSON.stringify(request),
      });
      return { status: res.status, answer: decodeAnswer(new Uint8Array(res.body)) };
    };
    const runInfo = async (s) => json(await raw(s.url, { path: '/engine/run', headers: { Cookie: cookieOf(s.url) } }));
    const input = (file) => ({ name: file, path: file });
    const inspected = (file) => sp.engineRequest({ type: 'inspect' }, { inputs: { file: input(file) } }).info;
    // An answer without what differs by build or by open (the timeline's id).
    const same = (answer) => {
      const { memoryBytes, timeline, ...rest } = answer;
      assert.equal(typeof memoryBytes, 'number');
      assert.equal(typeof timeline, 'number');
      return rest;
    };
    // The bars of every lane over the whole run, as plain numbers.
    const barsOf = async (ask, opened) => {
      const out = [];
      for (let lane = 0; lane < opened.lanes.length; lane++) {
        const request = { type: 'timeline-bars', timeline: opened.timeline, lanes: [lane], start: 0 };
        const { answer } = await ask({ ...request, end: opened.runEnd, width: 800 });
        out.push(answer.bars.map((b) => ['start', 'end', 'depth', 'frame', 'count'].map((k) => [...b[k]])));
      }
      return out;
    };

    test('two files of one job: one run, timeline-open with count 2 answers as the job written as one file', async () => {
      const files = parts(2);
      const s = await start(files);
      assert.match(
        s.stdout,
        new RegExp(
          `^Serving ${files[0]} and ${files[1]} \\(one job\\) in the ${cli.engine} engine at http://127\\.0\\.0\\.1:\\d+/\\?token=[0-9a-f]{64}\\n`,
        ),
      );
      assert.deepEqual(await runInfo(s), {
        protocol: 2,
        version: sp.version,
        engine: cli.engine,
        runs: files.map((f) => ({ name: path.basename(f), size: fs.statSync(f).size, info: inspected(f) })),
        compare: false,
        sides: [[0, 1]],
      });
      const ask = askOf(s);
      const options = { ranks: 'all' };
      const { status, answer: opened } = await ask({ type: 'timeline-open', count: 2, options });
      assert.equal(status, 200);
      assert.equal(opened.type, 'result', opened.message);
      const single = jobFile(2, 'job.h5');
      const one = sp.engineRequest({ type: 'timeline-open', options }, { inputs: { file: input(single) } });
      assert.deepEqual(
        opened.lanes.map((l) => l.name),
        ['rank 0', 'rank 1'],
      );
      assert.deepEqual(same(opened), same(one));
      const bars = await barsOf(ask, opened);
      const wasmBars = [];
      for (let lane = 0; lane < one.lanes.length; lane++) {
        const b = sp.engineRequest({
          type: 'timeline-bars',
          timeline: one.timeline,
          lanes: [lane],
          start: 0,
          end: one.runEnd,
          width: 800,
        }).bars;
        wasmBars.push(b.map((x) => ['start', 'end', 'depth', 'frame', 'count'].map((k) => [...x[k]])));
      }
      assert.deepEqual(bars, wasmBars);
      assert.ok(bars.flat(3).length > 0);
      // Its download is the CLI's document of the job written as one file.
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'serve-engine-job-'));
      try {
        const out = path.join(dir, 'expected.json');
        const made = spawnSync(nativeCli, [single, '--ranks', 'all', '--filepath', out, '--quiet']);
        assert.equal(made.status, 0, made.stderr.toString());
        const res = await raw(s.url, {
          method: 'POST',
          path: '/engine',
          headers: { Cookie: cookieOf(s.url), 'Content-Type': 'application/json' },
          body: JSON.stringify({ type: 'timeline-export', timeline: opened.timeline, options: {} }),
        });
        const { outputs } = json(res);
        const doc = await raw(s.url, { path: `/${outputs[0].url}`, headers: { Cookie: cookieOf(s.url) } });
        assert.ok(doc.body.equals(fs.readFileSync(out)));
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
      // By position, file1 is the second file; `served` names a file for an input.
      const second = await ask({ type: 'timeline-open', count: 1, served: { file0: 1 }, options: {} });
      assert.deepEqual(
        second.answer.lanes.map((l) => l.name),
        ['rank 1'],
      );
      const bad = await ask({ type: 'timeline-open', served: { file: 2 }, options: {} });
      assert.equal(bad.status, 400);
      assert.equal(
        bad.answer.message,
        "scope-speedscope engine: 'served' must give each input a served file (a whole number from 0 to 1)",
      );
      const none = await ask({ type: 'timeline-compare-open', options: {} });
      assert.equal(none.status, 400);
      assert.equal(none.answer.message, "scope-speedscope engine: this server has no input 'fileB'");
    });

    test('A... vs B...: two jobs compared as the jobs written as one file compare', async () => {
      const a = parts(2);
      const b = parts(64);
      const s = await start([...a, 'vs', ...b]);
      assert.match(
        s.stdout,
        new RegExp(
          `^Serving ${b[0]} and 63 more files \\(one job\\) against ${a[0]} and ${a[1]} \\(one job\\) in the ${cli.engine} engine at `,
        ),
      );
      const info = await runInfo(s);
      assert.equal(info.compare, true);
      assert.deepEqual(info.sides, [[0, 1], Array.from({ length: 64 }, (_, i) => i + 2)]);
      assert.deepEqual(
        info.runs.map((r) => r.name),
        [...a, ...b].map((f) => path.basename(f)),
      );
      const ask = askOf(s);
      const options = { ranks: 'all' };
      const { status, answer } = await ask({ type: 'timeline-compare-open', countA: 2, countB: 64, options });
      assert.equal(status, 200);
      assert.equal(answer.type, 'result', answer.message);
      const one = sp.engineRequest(
        { type: 'timeline-compare-open', options },
        { inputs: { fileA: input(jobFile(2, 'job.h5')), fileB: input(jobFile(64, 'job.h5')) } },
      );
      assert.deepEqual(same(answer), same(one));
      assert.equal(answer.lanes.length, 66);
      assert.deepEqual(answer.compare.regions, one.compare.regions);
      // fileA and fileB are each side's first file: A's rank 0 against B's rank 0.
      const firsts = await ask({ type: 'timeline-compare-open', options: {} });
      assert.deepEqual(
        firsts.answer.lanes.map((l) => l.name),
        ['B · rank 0', 'A · rank 0'],
      );
    });
  });

  describe(`${cli.kind} serve, starting and stopping`, { timeout: 120_000 }, () => {
    test('a run that cannot be opened: exit 1 and its message, before any URL', () => {
      const bad = inputPath('not_hdf5.h5');
      const r = spawnSync(cli.program, [...cli.argv, 'serve', bad, '--port', '0'], {
        encoding: 'utf8',
        timeout: 30_000,
      });
      assert.equal(r.status, 1);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^error: .*not_hdf5\.h5/);
      const missing = spawnSync(cli.program, [...cli.argv, 'serve', RUN, '--port', '0', '--web', '/nonexistent'], {
        encoding: 'utf8',
      });
      assert.equal(missing.status, 1);
      assert.equal(
        missing.stderr,
        'error: the page is not built (no /nonexistent/index.html): run npm run build in the repository, or give --web DIR\n',
      );
    });

    test('files that are not one job: exit 1 and the core’s message naming them, before any URL', () => {
      // Three files without vs are one job; two of them hold rank 0.
      const files = [...parts(2), jobFile(2, 'rerun_rank00000.h5')];
      const r = spawnSync(cli.program, [...cli.argv, 'serve', ...files, '--port', '0'], {
        encoding: 'utf8',
        timeout: 30_000,
      });
      assert.equal(r.status, 1);
      assert.equal(r.stdout, '');
      assert.equal(
        r.stderr,
        `error: ${files[0]} and ${files[2]} both hold rank 0: the files of one job must hold different ranks ` +
          '(two runs of the same ranks are compared, not joined)\n',
      );
      // A side of vs that is not one job: a process's file and a file recording mpi_size 1.
      const other = inputPath('hdf5-schema-2.h5');
      const side = spawnSync(cli.program, [...cli.argv, 'serve', RUN, 'vs', parts(2)[1], other, '--port', '0'], {
        encoding: 'utf8',
        timeout: 30_000,
      });
      assert.equal(side.status, 1);
      assert.equal(side.stdout, '');
      assert.equal(
        side.stderr,
        `error: ${parts(2)[1]} and ${other} are not files of one job: ${parts(2)[1]} is one process's file ` +
          `(no mpi_size), ${other} records mpi_size 1\n`,
      );
    });

    test('usage: vs needs files on both sides, once; serve --help names every option and vs', () => {
      const usage =
        'usage: scope-speedscope serve [FILE... [vs FILE...]] [--port N] [--host ADDR] [--no-open] [--web DIR]\n';
      for (const [args, message] of [
        [[RUN, 'vs'], 'the following arguments are required: B (after vs)'],
        [['vs', RUN], 'the following arguments are required: A (before vs)'],
        [[RUN, 'vs', RUN, 'vs', RUN], 'vs given twice: serve A... vs B... (a file named vs is ./vs)'],
      ]) {
        const r = spawnSync(cli.program, [...cli.argv, 'serve', ...args], { encoding: 'utf8' });
        assert.equal(r.status, 2, args.join(' '));
        assert.equal(r.stdout, '');
        assert.equal(r.stderr, `${usage}error: ${message}\n`);
      }
      const help = spawnSync(cli.program, [...cli.argv, 'serve', '--help'], { encoding: 'utf8' });
      assert.equal(help.status, 0);
      assert.ok(help.stdout.startsWith(usage));
      for (const o of ['--port N', '--host ADDR', '--web DIR', '--no-open', 'A... vs B...']) {
        assert.ok(help.stdout.includes(o), o);
      }
    });

    test('Ctrl-C and SIGTERM stop it within 5 s, exit 0', async () => {
      for (const signal of ['SIGINT', 'SIGTERM']) {
        const s = await serve([RUN]);
        const asked = Date.now();
        const { code } = await s.stop(signal);
        assert.equal(code, 0, signal);
        assert.ok(Date.now() - asked < 5000, `${signal}: ${Date.now() - asked} ms`);
      }
    });

    test('another address than loopback is said on stderr; the page alone needs no token', async () => {
      const s = await serve(['--host', '0.0.0.0']);
      try {
        assert.match(s.stdout, /^Serving the scope-speedscope page at http:\/\/127\.0\.0\.1:\d+\/\n/);
        const page = await raw(s.url, { path: '/' });
        assert.equal(page.status, 200);
        const engine = await raw(s.url, { method: 'POST', path: '/engine', body: '{"type":"engine-version"}' });
        assert.equal(engine.status, 404);
        assert.equal(json(engine).message, 'no run is open: serve was started without one');
      } finally {
        const { stderr } = await s.stop();
        assert.equal(
          stderr,
          'warning: listening on 0.0.0.0: other machines can reach this server (the token still guards it)\n',
        );
      }
    });

    test('the page’s files only: no escape by .., encodings, absolute paths or symlinks', async () => {
      const top = fs.mkdtempSync(path.join(os.tmpdir(), 'serve-engine-web-'));
      const web = path.join(top, 'web');
      fs.mkdirSync(web);
      fs.writeFileSync(path.join(web, 'index.html'), 'the page');
      fs.writeFileSync(path.join(top, 'secret.txt'), 'SECRET');
      fs.symlinkSync(path.join(top, 'secret.txt'), path.join(web, 'link.txt'));
      const s = await serve([RUN, '--web', web]);
      try {
        const cookie = cookieOf(s.url);
        for (const p of [
          '/../secret.txt',
          '/%2e%2e/secret.txt',
          '/..%2fsecret.txt',
          '/..%5csecret.txt',
          '/link.txt',
          `/${top}/secret.txt`,
          `//${top.slice(1)}/secret.txt`,
          '/index.html%00',
          '/./index.html',
          `/${RUN}`,
        ]) {
          const r = await raw(s.url, { path: p, headers: { Cookie: cookie } });
          assert.equal(r.status, 404, p);
          assert.ok(!r.body.toString().includes('SECRET'), p);
        }
        const page = await raw(s.url, { path: '/', headers: { Cookie: cookie } });
        assert.equal(page.body.toString(), 'the page');
      } finally {
        await s.stop();
        fs.rmSync(top, { recursive: true, force: true });
      }
    });
  });
}
