// `npx scope-speedscope serve FILE... [vs FILE...]`: the native serve
// (src/cli/serve.cpp) for a machine without the native build. The same
// routes, the same guards and runs (sp.serve: serve_guard.cpp and
// serve_runs.cpp compiled into the wasm module, so both servers give one
// verdict, group the files and name their inputs by one piece of code) and
// the same engine (sp.serve.answer: the core's dispatcher, in the wasm
// module inside Node, up to its 4 GB). This file moves bytes over node:http:
//   GET  /engine/run               the served files, their runs and the protocol's version
//   POST /engine                   one request's JSON in, its wire answer out
//   GET  /engine/download/ID       a document a request wrote, once
//   GET  /engine/progress/ID       a named request's progress (native; here none waits)
//   POST /engine/cancel/ID         cancels a named request (native; here none waits)
//   GET  anything else             a file of the page's folder
import { randomUUID } from 'node:crypto';
import {
  closeSync,
  createReadStream,
  existsSync,
  mkdtempSync,
  openSync,
  realpathSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, extname, join, sep } from 'node:path';

import { decodeAnswer } from './wire.js';
import { defaultRoot, TYPES } from './server.js';

const BAD_ARGUMENT = 'bad_argument';
const WATCH_ID = /^[0-9a-f]{1,64}$/;
const PROGRESS = /^\/engine\/progress\/[0-9a-f]{1,64}$/;
const CANCEL = /^\/engine\/cancel\/[0-9a-f]{1,64}$/;

function refuse(res, status, message, extra = {}) {
  const body = JSON.stringify({ message, status, type: 'error' }); // the native server's order
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    ...extra,
  });
  res.end(body);
}

// The page's folder, as a real path: --web DIR, else dist/web of the package.
export function webRoot(dir) {
  const folder = dir || defaultRoot;
  const index = join(folder, 'index.html');
  if (!existsSync(index)) {
    throw new Error(`the page is not built (no ${index}): run npm run build in the repository, or give --web DIR`);
  }
  return realpathSync(folder);
}

// The file of the real folder `root` a raw request target names (null: not
// one of its files). The name's rule is the core's (serve.webPath); what
// remains is the file system's: a directory's index, no symlink out.
function webFile(sp, root, target) {
  const web = sp.serve.webPath(target);
  if (!web) return null;
  let path = web.relative ? join(root, web.relative) : root;
  try {
    if (web.directory || statSync(path).isDirectory()) path = join(path, 'index.html');
    const real = realpathSync(path);
    if (!real.startsWith(root + sep)) return null;
    const st = statSync(real);
    return st.isFile() ? { path: real, size: st.size } : null;
  } catch {
    return null;
  }
}

// Documents a request wrote: private temporary files (0600), each given
// once, removed once sent or replaced by a newer answer's.
class Downloads {
  #dir = null;
  #latest = new Map(); // id -> { path, fileName, size, calls }

  sink() {
    const written = [];
    let current = null;
    let fd = null;
    const dir = () => (this.#dir ??= mkdtempSync(join(tmpdir(), 'scope-speedscope-')));
    const closeFd = () => {
      if (fd !== null) closeSync(fd);
      fd = null;
    };
    return {
      written,
      onProgress: ({ phase, total }) => {
        if (phase === 'write' && current) current.calls = Math.floor(total / 2);
      },
      open(fileName) {
        current = { path: join(dir(), randomUUID()), fileName: basename(fileName), size: 0, calls: 0 };
        fd = openSync(current.path, 'wx', 0o600);
        written.push(current);
      },
      write(view) {
        writeSync(fd, view);
        current.size += view.byteLength;
      },
      close: closeFd,
      commit() {},
      abort() {
        closeFd();
        for (const w of written.splice(0)) rmSync(w.path, { force: true });
      },
    };
  }

  // The written documents under new ids (the previous answer's are dropped).
  keep(written, newId) {
    for (const d of this.#latest.values()) rmSync(d.path, { force: true });
    this.#latest.clear();
    return written.map((d) => {
      const id = newId();
      this.#latest.set(id, d);
      return { url: `engine/download/${id}`, fileName: d.fileName, size: d.size, calls: d.calls };
    });
  }

  take(id) {
    const d = this.#latest.get(id);
    this.#latest.delete(id);
    return d ?? null;
  }

  removeAll() {
    if (this.#dir) rmSync(this.#dir, { recursive: true, force: true });
    this.#dir = null;
    this.#latest.clear();
  }
}

/** The engine of `serve`: the named files (one run, one job, or two runs compared), one request at a time. */
export class EngineHost {
  #sp;
  #files;
  #open = { key: '', answer: null };
  downloads = new Downloads();

  // vsAt: how many files come before `vs` (null: no vs).
  constructor(sp, runs, vsAt = null) {
    this.#sp = sp;
    this.runs = runs;
    this.vsAt = vsAt;
    // Only the named files: no request field names a path.
    this.#files = runs.map((path) => ({ name: path, path }));
    // Until checkRuns: two files compared, vs splitting A's from B's, else one run.
    const compare = vsAt !== null || runs.length === 2;
    this.plan = { aFiles: vsAt ?? (runs.length === 2 ? 1 : runs.length), compare, infos: [], names: '' };
  }

  /** Reads every file's index and groups them; throws the error naming the files. */
  checkRuns() {
    this.plan = this.#sp.serve.plan(this.#files, this.vsAt);
  }

  /** { bytes, badRequest, outputs } for a request's JSON text. */
  ask(text) {
    const key = this.#sp.serve.openKey(text);
    if (key && key === this.#open.key) return { bytes: this.#open.answer, badRequest: false, outputs: [] };
    const sink = this.downloads.sink();
    const { aFiles, compare } = this.plan;
    const bytes = this.#sp.serve.answer(text, {
      files: this.#files,
      aFiles,
      compare,
      sink,
      onProgress: sink.onProgress,
    });
    const header = decodeAnswer(bytes);
    if (key) this.#open = header.type === 'result' ? { key, answer: bytes } : { key: '', answer: null };
    const outputs = sink.written.length
      ? this.downloads.keep(sink.written, () => this.#sp.serve.newToken().slice(0, 32))
      : [];
    return { bytes, badRequest: header.type === 'error' && header.code === BAD_ARGUMENT, outputs };
  }
}

// The body, at most `limit` bytes (null past it).
function readBody(req, limit) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size > limit) {
        resolve(null);
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

// serve_guard's verdict on a request's head (status 0: let it through).
function verdictOf(sp, req, url, host, token) {
  const header = (name) => {
    const v = req.headers[name];
    return Array.isArray(v) ? v.join('; ') : (v ?? '');
  };
  const head = {
    host: header('host'),
    origin: header('origin'),
    cookie: header('cookie'),
    token: url.searchParams.get('token') ?? '',
    chunked: req.headers['transfer-encoding'] !== undefined,
    contentLength: Number(req.headers['content-length'] ?? 0) || 0,
  };
  return sp.serve.check(head, host, token);
}

// POST /engine: the wire answer, or JSON naming the documents it wrote.
async function engineRoute(res, req, s, cookie) {
  if (!s.engine) return refuse(res, 404, 'no run is open: serve was started without one');
  const name = req.headers['x-scope-request'];
  if (name !== undefined && !WATCH_ID.test(name)) {
    return refuse(res, 400, 'X-Scope-Request must be 1 to 64 hex digits');
  }
  const body = await readBody(req, s.maxBody);
  if (body === null) return refuse(res, 413, 'the request is larger than 1 MiB', { Connection: 'close' });
  let asked;
  try {
    asked = s.engine.ask(body.toString('utf8'));
  } catch (error) {
    return refuse(res, 500, String(error?.message ?? error));
  }
  if (asked.outputs.length) {
    const text = JSON.stringify({ type: 'result', outputs: asked.outputs });
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...cookie });
    return res.end(text);
  }
  res.writeHead(asked.badRequest ? 400 : 200, {
    'Content-Type': 'application/octet-stream',
    'Content-Length': asked.bytes.byteLength,
    'Cache-Control': 'no-store',
    ...cookie,
  });
  return res.end(Buffer.from(asked.bytes.buffer, asked.bytes.byteOffset, asked.bytes.byteLength));
}

// GET /engine/progress/ID and POST /engine/cancel/ID: the native serve's
// watch of a named request. Here the wasm engine answers a request within
// one turn of the event loop, so by the time either is read the request
// it names has been answered: none is waiting or running.
function watchRoute(res, s) {
  if (!s.engine) return refuse(res, 404, 'no run is open: serve was started without one');
  return refuse(res, 404, 'no such request is waiting or running');
}

// GET /engine/run: what the page's init is told: the files, each with its
// inspect info, and their runs (sides: the files' indices per run, A's
// then B's), as the native serve says them (serve_runs.cpp's runs_json).
function runRoute(res, s, cookie) {
  const runs = (s.engine?.runs ?? []).map((run, i) => ({
    name: basename(run),
    size: existsSync(run) ? statSync(run).size : 0,
    info: s.engine.plan.infos[i] ?? null,
  }));
  const { aFiles = 0, compare = false } = s.engine?.plan ?? {};
  const indices = (first, last) => Array.from({ length: last - first }, (_, i) => first + i);
  const sides = compare
    ? [indices(0, aFiles), indices(aFiles, runs.length)]
    : runs.length
      ? [indices(0, runs.length)]
      : [];
  const text = JSON.stringify({
    runs,
    compare,
    sides,
    protocol: s.sp.engineProtocol,
    version: s.sp.version,
    engine: 'wasm',
  });
  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...cookie });
  return res.end(text);
}

// GET /engine/download/ID: a written document, once, then removed.
function downloadRoute(res, s, id) {
  const d = s.engine?.downloads.take(id);
  if (!d) return refuse(res, 404, 'no such download (each is given once)');
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': d.size, 'Cache-Control': 'no-store' });
  const stream = createReadStream(d.path);
  stream.on('close', () => rmSync(d.path, { force: true }));
  return stream.pipe(res);
}

// Any other GET: a file of the page's folder.
function fileRoute(res, req, s, path, cookie) {
  const file = webFile(s.sp, s.root, req.url.split('?')[0]);
  if (!file) return refuse(res, 404, `no such file of the page: ${path}`);
  res.writeHead(200, {
    'Content-Type': TYPES[extname(file.path).toLowerCase()] ?? 'application/octet-stream',
    'Content-Length': file.size,
    'Cache-Control': 'no-cache',
    ...cookie,
  });
  if (req.method === 'HEAD') return res.end();
  return createReadStream(file.path).pipe(res);
}

// s: { sp, root, host, token, engine, maxBody }.
function handler(s) {
  return async (req, res) => {
    const url = new URL(req.url, 'http://localhost');
    const verdict = verdictOf(s.sp, req, url, s.host, s.token);
    if (verdict.status !== 0) return refuse(res, verdict.status, verdict.message, { Connection: 'close' });
    const cookie = verdict.setCookie ? { 'Set-Cookie': verdict.setCookie } : {};
    const path = url.pathname;
    if (req.method === 'POST' && path === '/engine') return engineRoute(res, req, s, cookie);
    if (req.method === 'POST' && CANCEL.test(path)) return watchRoute(res, s);
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'this method is not served');
    if (path === '/engine/run') return runRoute(res, s, cookie);
    if (PROGRESS.test(path)) return watchRoute(res, s);
    const download = /^\/engine\/download\/([0-9a-f]+)$/.exec(path);
    if (download) return downloadRoute(res, s, download[1]);
    return fileRoute(res, req, s, path, cookie);
  };
}

const LOOPBACK = new Set(['', '127.0.0.1', 'localhost', '::1', '[::1]']);

/** Whether `host` (--host) keeps the server on this machine. */
export const loopback = (host) => LOOPBACK.has(host);

function listen(server, port, host) {
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      ok();
    });
  });
}

/**
 * Serves the files `runs` (one run, one job, or two runs compared: vsAt the
 * files before `vs`, or null; none: the page alone, no token asked) with
 * the page of `web` on host:port (port null: 8080, else a free one; 0: any
 * free one). Throws the reader's error when a file cannot be opened, or the
 * job's when files are not one job, before the page is looked for.
 * Resolves to { url (with the token), names (the runs in words), server,
 * close() }.
 */
export async function startEngineServer(sp, { runs = [], vsAt = null, port = null, host = '', web = '' }) {
  const engine = runs.length ? new EngineHost(sp, runs, vsAt) : null;
  engine?.checkRuns();
  const root = webRoot(web);
  const token = engine ? sp.serve.newToken() : '';
  const listenHost = host || '127.0.0.1';
  const server = createServer(handler({ sp, root, host, token, engine, maxBody: sp.serve.maxRequestBytes() }));
  try {
    await listen(server, port ?? 8080, listenHost);
  } catch (error) {
    if (port !== null || error.code !== 'EADDRINUSE') throw error;
    await listen(server, 0, listenHost);
  }
  let name = listenHost === '0.0.0.0' || listenHost === '::' ? '127.0.0.1' : listenHost;
  if (name.includes(':') && !name.startsWith('[')) name = `[${name}]`;
  const url = `http://${name}:${server.address().port}/${token ? `?token=${token}` : ''}`;
  return {
    url,
    names: engine?.plan.names ?? '',
    server,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections?.();
        server.close(() => {
          engine?.downloads.removeAll();
          ok();
        });
      }),
  };
}
