#!/usr/bin/env node
// A static file server for the built page (dist/web by default), on 127.0.0.1
// only. Port: $PORT, else 8080; when that port is taken, a free one. Prints
// the URL. Nothing here does any work on profiles: the page is fully static,
// and any static file server can host dist/web the same way.
//
//   node scripts/serve.mjs [root]          (root defaults to dist/web)
//
// The tests import startServer() and ask for port 0 (a free port).

import { createReadStream, statSync, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = resolve(fileURLToPath(new URL('..', import.meta.url)));

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.h5': 'application/octet-stream',
};

function fileFor(root, urlPath) {
  let path;
  try {
    path = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  const full = resolve(join(root, path));
  if (full !== root && !full.startsWith(root + sep)) return null;  // no ../ escapes
  try {
    const st = statSync(full);
    if (st.isDirectory()) {
      const index = join(full, 'index.html');
      return existsSync(index) ? { full: index, size: statSync(index).size } : null;
    }
    return st.isFile() ? { full, size: st.size } : null;
  } catch {
    return null;
  }
}

function handler(root) {
  return (req, res) => {
    const headers = { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache' };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...headers, Allow: 'GET, HEAD' }).end();
      return;
    }
    const urlPath = new URL(req.url, 'http://localhost').pathname;
    const file = fileFor(root, urlPath);
    if (!file) {
      res.writeHead(404, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    if (urlPath.endsWith('/') === false && file.full.endsWith(`${sep}index.html`) &&
        !urlPath.endsWith('index.html')) {
      // "/speedscope" -> "/speedscope/", so relative URLs in the page resolve.
      res.writeHead(301, { ...headers, Location: `${urlPath}/` }).end();
      return;
    }
    res.writeHead(200, {
      ...headers,
      'Content-Type': TYPES[extname(file.full).toLowerCase()] ?? 'application/octet-stream',
      'Content-Length': file.size,
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    createReadStream(file.full).pipe(res);
  };
}

function listen(server, port, host) {
  return new Promise((ok, fail) => {
    const onError = (err) => { server.off('listening', onListening); fail(err); };
    const onListening = () => { server.off('error', onError); ok(); };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

// Serves `root` on host:port (port 0: any free port). Falls back to a free
// port when `port` is taken and `fallback` is set. Resolves to
// { server, url, close() }.
export async function startServer({ root = join(repo, 'dist', 'web'), port = 8080,
                                    host = '127.0.0.1', fallback = true } = {}) {
  root = resolve(root);
  if (!existsSync(join(root, 'index.html'))) {
    throw new Error(`${root}/index.html is missing: run npm run build first`);
  }
  const server = createServer(handler(root));
  try {
    await listen(server, port, host);
  } catch (err) {
    if (!fallback || err.code !== 'EADDRINUSE') throw err;
    await listen(server, 0, host);
  }
  const url = `http://${host}:${server.address().port}/`;
  return {
    server,
    url,
    close: () => new Promise((ok) => { server.closeAllConnections?.(); server.close(() => ok()); }),
  };
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
