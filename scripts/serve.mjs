#!/usr/bin/env node
// `npm start` / `npm run serve`: serves the built page (dist/web by default)
// on 127.0.0.1 only, with the one server of src/js/server.js (the same that
// `npx scope-speedscope serve` and `view` use). Port: $PORT, else 8080; when
// that port is taken, a free one. Prints the URL.
//
//   node scripts/serve.mjs [root]          (root defaults to dist/web)
//
// The tests import startServer() and ask for port 0 (a free port).

import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startServer as start } from '../src/js/server.js';

const repo = resolve(fileURLToPath(new URL('..', import.meta.url)));

export function startServer(options = {}) {
  return start({ root: join(repo, 'dist', 'web'), ...options });
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const root = resolve(process.argv[2] ?? join(repo, 'dist', 'web'));
  const wanted = process.env.PORT ? Number(process.env.PORT) : 8080;
  if (!Number.isInteger(wanted) || wanted < 0 || wanted > 65535) {
    console.error(`serve: PORT must be a port number, got ${process.env.PORT}`);
    process.exit(2);
  }
  try {
    const { url } = await startServer({ root, port: wanted });
    if (!url.endsWith(`:${wanted}/`)) console.log(`serve: port ${wanted} is taken; using another`);
    console.log(`Serving ${root} at ${url}`);
    console.log('Press Ctrl+C to stop.');
  } catch (err) {
    console.error(`serve: ${err.message}`);
    process.exit(1);
  }
}
