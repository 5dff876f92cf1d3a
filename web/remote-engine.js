// The page's engine when `scope-speedscope serve FILE...` served the page: the
// native engine (src/cli/serve.cpp, the core's same dispatcher) answers over
// HTTP in place of the worker. createRemoteEngine() looks like a Worker to
// engine-client.js (postMessage in, onmessage out, terminate), so the page
// sends the same requests (docs/engine-protocol.md) and gets the same
// answers: POST /engine with the request's JSON gives the wire answer,
// decoded by the package's decodeAnswer; a download comes back as the
// document itself. The cookie the first URL set goes with every request.
// A request's Files are left out, counted as the worker counts them
// (`files` -> count, `filesA` -> countA, `filesB` -> countB), and each
// served file it names (the page's stand-ins for the served files carry
// their place, `index`) goes in `served`: { file0: 3, file1: 4 }, so the
// server reads that file for that input (it reads only the files it was
// started with). An open's `served` goes again with the timeline-complete
// and timeline-export of its timeline (the worker lends the open's Files
// again the same way). Each request is named (X-Scope-Request); while it
// waits, its progress is asked every second (GET engine/progress/ID, shown
// as the worker's progress), which also tells the server the page still
// wants it: a closed tab's request is cancelled there; terminate() cancels
// the requests in flight (POST engine/cancel/ID).

import { decodeAnswer } from './lib/wire.js';

// The File fields of a message: file, fileA, fileB, file<k>, …; files,
// filesA, filesB (one job's files, counted).
const FILE_FIELD = /^files?[AB]?\d*$/;
const JOB_FIELDS = { files: ['file', 'count'], filesA: ['fileA', 'countA'], filesB: ['fileB', 'countB'] };
const OPENS = new Set(['timeline-open', 'timeline-compare-open']);
const AGAIN = new Set(['timeline-complete', 'timeline-export']);

// Whether this page was opened from serve's URL (?token=…, which the page
// then removes from the address bar: the server's cookie holds it) or
// reloaded since (?served).
function servedMode() {
  const url = new URL(window.location.href);
  if (url.searchParams.has('token')) {
    url.searchParams.delete('token');
    url.searchParams.set('served', '1');
    window.history.replaceState(null, '', url.toString());
    return true;
  }
  return url.searchParams.has('served');
}

export const SERVED = servedMode();

// The served files: { protocol, version, engine, runs: [{ name, size, info }],
// compare, sides } (docs/engine-protocol.md, "Served over HTTP").
export async function servedRuns() {
  const res = await fetch('engine/run', { credentials: 'same-origin', cache: 'no-store' });
  if (!res.ok) throw new Error(await refusal(res));
  return res.json();
}

async function refusal(res) {
  let words = `${res.status} ${res.statusText}`;
  try {
    words = (await res.json()).message ?? words;
  } catch {
    // not JSON: the status says it
  }
  return res.status === 401 || res.status === 403
    ? `The server refused this page (${words}): open the URL scope-speedscope serve printed.`
    : `The server answered ${res.status}: ${words}`;
}

// The request's JSON: the message without its id and Files, their counts,
// and the served files they are ({} when none: the server reads by position).
function requestOf(message) {
  const request = {};
  const served = {};
  const place = (input, file) => {
    if (Number.isInteger(file?.index)) served[input] = file.index;
  };
  for (const [k, v] of Object.entries(message)) {
    if (k === 'id') continue;
    if (!FILE_FIELD.test(k)) request[k] = v;
    else if (JOB_FIELDS[k] && Array.isArray(v)) {
      const [input, count] = JOB_FIELDS[k];
      request[count] = v.length;
      v.forEach((file, i) => place(`${input}${i}`, file));
    } else place(k, v);
  }
  return { request, served };
}

// Written documents: each fetched once into a Blob.
async function downloaded(outputs, signal) {
  const out = [];
  for (const { url, fileName, size, calls } of outputs) {
    const res = await fetch(url, { credentials: 'same-origin', cache: 'no-store', signal });
    if (!res.ok) return { type: 'error', message: await refusal(res), trap: false };
    out.push({ fileName, blob: await res.blob(), size, calls });
  }
  return { type: 'result', outputs: out };
}

async function answerOf(res, signal) {
  if (res.headers.get('Content-Type')?.startsWith('application/json')) {
    if (!res.ok) return { type: 'error', message: await refusal(res), trap: false };
    return downloaded((await res.json()).outputs, signal);
  }
  if (res.status !== 200 && res.status !== 400) return { type: 'error', message: await refusal(res), trap: false };
  const decoded = decodeAnswer(new Uint8Array(await res.arrayBuffer()));
  return decoded.type === 'error' ? { ...decoded, trap: false } : decoded;
}

// A request's name: 32 hex digits (crypto.getRandomValues: a page served
// on another host than 127.0.0.1 is not a secure context).
function requestName() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

const POLL_MS = 1000;

// Asks the progress of request `name` every second until stop(); each
// answer with a phase goes to `report` as the worker's progress message.
function watch(name, report) {
  let timer = null;
  let stopped = false;
  const poll = async () => {
    try {
      const res = await fetch(`engine/progress/${name}`, { credentials: 'same-origin', cache: 'no-store' });
      if (res.ok) {
        const p = await res.json();
        if (!stopped && p.phase) report(p);
      }
    } catch {
      // the request's own fetch says what went wrong
    }
    if (!stopped) timer = setTimeout(poll, POLL_MS);
  };
  timer = setTimeout(poll, POLL_MS);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

// The worker's progress message for a server's progress of request `id`.
const progressOf = (id, { phase, done, total }) => ({
  id,
  type: 'progress',
  phase,
  done,
  total,
  unit: phase === 'reconstruct' ? 'ranks' : 'fraction',
});

const post = (request, name, signal) =>
  fetch('engine', {
    method: 'POST',
    body: JSON.stringify(request),
    headers: { 'X-Scope-Request': name },
    credentials: 'same-origin',
    cache: 'no-store',
    signal,
  });

const cancelOnServer = (name) =>
  fetch(`engine/cancel/${name}`, { method: 'POST', credentials: 'same-origin', keepalive: true }).catch(() => {});

export function createRemoteEngine() {
  const controllers = new Map(); // AbortController -> the request's name
  const byId = new Map(); // the message's id -> its AbortController
  let runs = null; // the served runs' names, for errors that name none
  let again = null; // the latest open's served files, for its complete and export
  const engine = {
    onmessage: null,
    onerror: null,
    postMessage(message) {
      answer(message).then((reply) => {
        if (reply) engine.onmessage?.({ data: { id: message.id, ...reply } });
      });
    },
    terminate() {
      for (const [c, name] of controllers) {
        c.abort();
        cancelOnServer(name);
      }
      controllers.clear();
      byId.clear();
    },
    // The page no longer wants request `id` (engine-client.js #drop): the
    // server stops its work.
    cancel(id) {
      const c = byId.get(id);
      if (!c) return;
      c.abort();
      cancelOnServer(controllers.get(c));
      controllers.delete(c);
      byId.delete(id);
    },
  };

  async function init() {
    const info = await servedRuns();
    runs = info.runs.map((r) => r.name);
    const features = { overview: true, checkPattern: true, narrowing: true, timeline: true };
    return { type: 'result', protocol: info.protocol, version: info.version, features, served: info };
  }

  async function answer(message) {
    const controller = new AbortController();
    const name = requestName();
    controllers.set(controller, name);
    byId.set(message.id, controller);
    let unwatch = null;
    try {
      if (message.type === 'init') return await init();
      const { request, served } = requestOf(message);
      if (OPENS.has(message.type)) again = served;
      if (Object.keys(served).length) request.served = served;
      else if (AGAIN.has(message.type) && again && Object.keys(again).length) request.served = again;
      unwatch = watch(name, (p) => engine.onmessage?.({ data: progressOf(message.id, p) }));
      const res = await post(request, name, controller.signal);
      unwatch();
      const reply = await answerOf(res, controller.signal);
      if (reply.type === 'error' && !reply.file && runs?.length === 1) reply.file = runs[0];
      return reply;
    } catch (err) {
      if (controller.signal.aborted) return null; // terminated: nobody waits
      engine.onerror?.({
        message: `the server does not answer (${err.message}); it stopped, or the tunnel dropped. Reload to reconnect`,
      });
      return null;
    } finally {
      unwatch?.();
      controllers.delete(controller);
      if (byId.get(message.id) === controller) byId.delete(message.id);
    }
  }
  return engine;
}
