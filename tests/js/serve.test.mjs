// The Node CLI's commands that serve the page: `view FILE...` (convert, serve
// the result with the page) and `serve` (the page alone). The browser side of
// `view` is in tests/web/view.test.mjs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, it } from 'node:test';

import { asScopeProfiler, cases, inputPath, listFiles, nodeCli, sha256, tempDir } from './helpers.mjs';
import { startCli } from './serve-helpers.mjs';

const caseNamed = (name) => cases.find((c) => c.name === name);
const node = (args, options = {}) => spawnSync(process.execPath, [nodeCli, ...args], { encoding: 'utf8', ...options });

async function get(url) {
  const response = await fetch(url);
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    calls: response.headers.get('x-scope-speedscope-calls'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

// A port nobody listens on, found by listening on port 0 and closing again.
async function freePort() {
  const server = net.createServer();
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  await new Promise((ok) => server.close(ok));
  return port;
}

describe('scope-speedscope view', () => {
  it('converts, serves the page and the output, prints the URL and stops on Ctrl+C', async () => {
    const c = caseNamed('real_run_s1');
    const cli = await startCli(['view', inputPath('real_run_s1.h5'), '--no-open']);
    try {
      const url = new URL(cli.url);
      assert.equal(url.hostname, '127.0.0.1');
      assert.deepEqual(url.searchParams.getAll('result'), ['results/profile.speedscope.json']);
      assert.match(
        cli.stdout,
        /^Showing profile\.speedscope\.json at\n {2}http:\/\/127\.0\.0\.1:\d+\/\?result=results%2Fprofile\.speedscope\.json\nPress Ctrl\+C to stop\.\n$/,
      );
      const page = await get(url);
      assert.equal(page.status, 200);
      assert.match(page.bytes.toString(), /<title>scope-speedscope/);
      const result = await get(new URL('results/profile.speedscope.json', url));
      assert.equal(result.status, 200);
      assert.equal(result.type, 'application/json');
      assert.equal(sha256(asScopeProfiler(result.bytes)), c.outputs[0].sha256);
      // The calls it holds, for the page's viewer budget: every call of rank 0.
      const events = JSON.parse(result.bytes).profiles.reduce((n, p) => n + p.events.length, 0);
      assert.equal(result.calls, String(events / 2));
      assert.equal(result.calls, '42');
      assert.equal((await get(new URL('results/other.json', url))).status, 404);
    } finally {
      const { code, signal, stdout, stderr } = await cli.stop('SIGINT');
      assert.equal(signal, null);
      assert.equal(code, 0, stderr);
      assert.match(stdout, /Stopped\.\n$/);
    }
  });

  it("takes the export's options: ranks, filters, labels, several files", async () => {
    const c = caseNamed('multi_fixtures');
    const args = ['view', ...c.inputs.map(inputPath), '--no-open', '--quiet'];
    if (c.ranks !== null) args.push('--ranks', c.ranks.join(','));
    if (c.include !== null) args.push('--include', ...c.include);
    if (c.exclude !== null) args.push('--exclude', ...c.exclude);
    args.push('--filepath', c.filepath, '--port', '0');
    // --filepath writes files as the export does: run where they may go.
    const cwd = tempDir();
    const cli = await startCli(args, { cwd });
    try {
      const url = new URL(cli.url);
      const names = c.outputs.map((o) => path.basename(o.file));
      assert.deepEqual(
        url.searchParams.getAll('result'),
        names.map((n) => `results/${encodeURIComponent(n)}`),
      );
      for (const o of c.outputs) {
        const served = await get(new URL(`results/${encodeURIComponent(path.basename(o.file))}`, url));
        assert.equal(sha256(asScopeProfiler(served.bytes)), o.sha256, o.file);
        assert.ok(served.bytes.equals(fs.readFileSync(path.join(cwd, o.file))), `${o.file} written as well`);
      }
    } finally {
      assert.equal((await cli.stop('SIGTERM')).code, 0);
    }
    assert.deepEqual(listFiles(cwd), c.outputs.map((o) => o.file).sort());
    fs.rmSync(cwd, { recursive: true });
  });

  it('writes nothing without -o, and reports a failed conversion like the export', () => {
    const bad = caseNamed('ERR_partial_overlap');
    const cwd = tempDir();
    const r = node(['view', ...bad.inputs.map(inputPath), '--no-open'], { cwd });
    assert.equal(r.status, 1);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, `error: ${bad.error.message.replaceAll('{path}', inputPath(bad.inputs[0]))}\n`);
    assert.deepEqual(listFiles(cwd), []);
    const missing = node(['view', 'no/such.h5', '--no-open'], { cwd });
    assert.equal(missing.status, 1);
    assert.equal(missing.stderr, 'error: HDF5 file not found: no/such.h5\n');
    fs.rmSync(cwd, { recursive: true });
  });

  it('usage errors and help come from the core', () => {
    const noFile = node(['view']);
    assert.equal(noFile.status, 2);
    assert.match(
      noFile.stderr,
      /^usage: scope-speedscope view FILE\.\.\. .*\nerror: the following arguments are required: FILE\n$/,
    );
    const badPort = node(['serve', '--port', 'x']);
    assert.equal(badPort.status, 2);
    assert.equal(
      badPort.stderr,
      'usage: scope-speedscope serve [FILE... [vs FILE...]] [--port N] [--host ADDR] [--no-open] [--web DIR]\n' +
        "error: argument --port: invalid port 'x' (0-65535)\n",
    );
    const help = node(['view', '--help']);
    assert.equal(help.status, 0);
    assert.match(help.stdout, /^usage: scope-speedscope view /);
    for (const flag of ['--port', '--no-open', 'SCOPE_SPEEDSCOPE_NO_OPEN']) assert.ok(help.stdout.includes(flag), flag);
    assert.match(
      node(['serve', '-h']).stdout,
      /^usage: scope-speedscope serve \[FILE\.\.\. \[vs FILE\.\.\.\]\] \[--port N\]/,
    );
    // A run is opened in the wasm engine (tests/js/serve-engine.test.mjs); one
    // that cannot be opened is said before any URL.
    const run = node(['serve', 'run.h5']);
    assert.equal(run.status, 1);
    assert.equal(run.stdout, '');
    assert.equal(run.stderr, 'error: HDF5 file not found: run.h5\n');
    // The export stays the default command, with its flags.
    assert.equal(
      node(['x.h5', '-o', 'd', '--port', '1']).stderr.split('\n')[1],
      'error: unrecognized argument: --port',
    );
  });
});

describe('scope-speedscope serve', () => {
  it('serves the page on the port asked for, and stops cleanly on Ctrl+C', async () => {
    const port = await freePort();
    const cli = await startCli(['serve', '--port', String(port)]);
    try {
      assert.equal(cli.url, `http://127.0.0.1:${port}/`);
      assert.equal(
        cli.stdout,
        `Serving the scope-speedscope page at http://127.0.0.1:${port}/\nPress Ctrl+C to stop.\n`,
      );
      const page = await get(cli.url);
      assert.equal(page.status, 200);
      assert.match(page.bytes.toString(), /<title>scope-speedscope/);
      const wasm = await get(new URL('lib/scope-speedscope.wasm', cli.url));
      assert.equal(wasm.type, 'application/wasm');
      assert.equal((await get(new URL('manifest.webmanifest', cli.url))).type, 'application/manifest+json');
      // Only its own host names: no DNS rebinding.
      const rebound = await new Promise((ok) => {
        const socket = net.connect(port, '127.0.0.1', () =>
          socket.end('GET / HTTP/1.1\r\nHost: evil.example:80\r\nConnection: close\r\n\r\n'),
        );
        let text = '';
        socket.on('data', (d) => {
          text += d;
        });
        socket.on('end', () => ok(text));
      });
      assert.match(rebound, /^HTTP\/1\.1 403 /);

      // The port is taken now: a second server says so.
      const again = node(['serve', '--port', String(port)]);
      assert.equal(again.status, 1);
      assert.equal(again.stderr, `error: port ${port} is taken: choose another with --port N (0: any free port)\n`);
    } finally {
      const { code, signal, stdout } = await cli.stop('SIGINT');
      assert.equal(signal, null);
      assert.equal(code, 0);
      assert.match(stdout, /Stopped\.\n$/);
    }
    await assert.rejects(fetch(`http://127.0.0.1:${port}/`), 'nothing listens after Ctrl+C');
  });
});
