// The one static file server of the page, on 127.0.0.1 only: used by
// `npm start` (scripts/serve.mjs), `scope-speedscope serve` and
// `scope-speedscope view` (src/js/cli.js), and by the tests. It serves a built
// site (dist/web, shipped in the npm package as dist/web) and, for `view`,
// converted outputs held in memory under results/<file name>. Nothing here
// looks into profiles: the page does its work in the browser.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The site next to this file: dist/web in the repository and in the npm package. */
export const defaultRoot = fileURLToPath(new URL('./web/', import.meta.url));

/** Where `view` serves its outputs, relative to the site. */
export const RESULTS_PREFIX = 'results/';
/** The number of calls an output holds (for the page's viewer budget). */
export const CALLS_HEADER = 'X-Scope-Speedscope-Calls';

/** The Content-Type of a served file, by its extension. */
export const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
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

function fileFor(root, path) {
  const full = resolve(join(root, path));
  if (full !== root && !full.startsWith(root + sep)) return null; // no ../ escapes
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

// results: Map of '/results/<name>' -> { chunks: Uint8Array[], size, calls }.
function handler(root, results, allowedHosts) {
  return (req, res) => {
    const headers = { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache' };
    // Only our own names: a web page that rebinds its DNS name to 127.0.0.1
    // must not read the site or the outputs.
    if (!allowedHosts.has(String(req.headers.host).toLowerCase())) {
      res.writeHead(403, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' }).end('Forbidden host\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...headers, Allow: 'GET, HEAD' }).end();
      return;
    }
    const urlPath = new URL(req.url, 'http://localhost').pathname;
    let path;
    try {
      path = decodeURIComponent(urlPath);
    } catch {
      path = null;
    }
    const result = path === null ? null : results.get(path);
    if (result) {
      res.writeHead(200, {
        ...headers,
        'Cache-Control': 'no-store',
        'Content-Type': 'application/json',
        'Content-Length': result.size,
        ...(result.calls == null ? {} : { [CALLS_HEADER]: String(result.calls) }),
      });
      if (req.method === 'HEAD') {
        res.end();
        return;
      }
      // One chunk at a time, waiting when the socket is full.
      let i = 0;
      const more = () => {
        while (i < result.chunks.length) {
          if (!res.write(result.chunks[i++])) {
            res.once('drain', more);
            return;
          }
        }
        res.end();
      };
      more();
      return;
    }
    const file = path === null ? null : fileFor(root, path);
    if (!file) {
      res.writeHead(404, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    if (urlPath.endsWith('/') === false && file.full.endsWith(`${sep}index.html`) && !urlPath.endsWith('index.html')) {
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
    const onError = (err) => {
      server.off('listening', onListening);
      fail(err);
    };
    const onListening = () => {
      server.off('error', onError);
      ok();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/**
 * Serves the site `root` on host:port (port 0: any free port); when `port` is
 * taken and `fallback` is set, on a free one. `outputs` ([{ fileName, chunks,
 * calls? }], from exportSpeedscope) are served under results/<base name of
 * fileName>, with their call count in the X-Scope-Speedscope-Calls header.
 * Resolves to { server, url, resultPaths, close() }; resultPaths are the
 * outputs' paths relative to url, in order.
 */
export async function startServer({
  root = defaultRoot,
  port = 8080,
  host = '127.0.0.1',
  fallback = true,
  outputs = [],
} = {}) {
  root = resolve(root);
  if (!existsSync(join(root, 'index.html'))) {
    throw new Error(`${root}/index.html is missing: run npm run build first`);
  }
  const results = new Map();
  const resultPaths = [];
  for (const { fileName, chunks, calls } of outputs) {
    const name = fileName.split(/[\\/]/).pop();
    const size = chunks.reduce((n, c) => n + c.byteLength, 0);
    results.set(`/${RESULTS_PREFIX}${name}`, { chunks, size, calls });
    resultPaths.push(`${RESULTS_PREFIX}${encodeURIComponent(name)}`);
  }
  const allowedHosts = new Set();
  const server = createServer(handler(root, results, allowedHosts));
  try {
    await listen(server, port, host);
  } catch (err) {
    if (!fallback || err.code !== 'EADDRINUSE') throw err;
    await listen(server, 0, host);
  }
  const actual = server.address().port;
  for (const name of [host, 'localhost', '127.0.0.1']) allowedHosts.add(`${name}:${actual}`);
  const url = `http://${host}:${actual}/`;
  return {
    server,
    url,
    resultPaths,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections?.();
        server.close(() => ok());
      }),
  };
}

/** The page's URL that opens the served outputs (the page reads ?result=). */
export function viewUrl(url, resultPaths) {
  const query = new URLSearchParams(resultPaths.map((p) => ['result', p]));
  return `${url}?${query}`;
}
