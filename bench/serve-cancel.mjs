// A closed tab on `scope-speedscope serve RUN.h5` (issue 34): a request of
// every rank with another filter than serve's open ahead (so it is opened
// for it), named, its progress asked three times a second apart and then
// never again, as a tab that was closed. Prints when it was answered (and
// how: `cancelled` once the server gave it up), the server's peak memory
// (VmHWM) and how long Ctrl+C then took to stop the server.
//
//   node bench/serve-cancel.mjs RUN.h5 [--cli native|node]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

import { decodeAnswer } from '../dist/wire.js';
import { benchArgs } from './args.mjs';

const { file: run, opt } = benchArgs('node bench/serve-cancel.mjs RUN.h5 [--cli native|node]');
const cli = opt('--cli', 'native');
const program = cli === 'native' ? ['build/native/scope-speedscope'] : [process.execPath, 'dist/cli.js'];
const server = spawn(program[0], [...program.slice(1), 'serve', run, '--port', '0'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = new URL(
  await new Promise((resolve) => {
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
      const m = /(http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
  }),
);
const headers = { Cookie: `scope_speedscope_token=${url.searchParams.get('token')}` };
const name = 'abcdef0123456789';
const seconds = (from) => Math.round((performance.now() - from) / 100) / 10;
const asked = performance.now();
const answer = fetch(new URL('engine', url), {
  method: 'POST',
  headers: { ...headers, 'X-Scope-Request': name },
  body: JSON.stringify({
    type: 'timeline-open',
    options: { ranks: 'all', exclude: ['^nothing-is-called-this$'] },
    served: { file: 0 },
  }),
});
const polls = [];
let polled = asked;
for (let i = 0; i < 3; i++) {
  await new Promise((r) => setTimeout(r, 1000));
  const p = await fetch(new URL(`engine/progress/${name}`, url), { headers });
  polls.push({ status: p.status, progress: await p.json() });
  polled = performance.now();
}
const reply = decodeAnswer(new Uint8Array(await (await answer).arrayBuffer()));
const result = {
  run,
  cli,
  polls,
  answered: reply.type,
  afterLastPollS: seconds(polled),
  afterAskingS: seconds(asked),
  serverPeakBytes: Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))[1]) * 1024,
};
const stopping = performance.now();
server.kill('SIGINT');
await new Promise((r) => server.on('exit', r));
result.stoppedAfterSigintS = seconds(stopping);
console.log(JSON.stringify(result, null, 1));
