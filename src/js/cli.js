#!/usr/bin/env node
// The Node command-line tool: the native CLI's flags, messages and bytes,
// through the wasm core. Arguments, help, messages, the summary, the
// writing of the outputs (sp.cli.exportFiles: the core's file rule, as the
// native CLI writes) and the imbalance report come from the core; this file
// names the inputs and prints. Two more commands serve the page (dist/web):
// `view FILE...` converts, then shows the result in the browser
// (src/js/server.js); `serve` serves the page alone, or with FILE... [vs
// FILE...] their runs in the wasm engine behind it (src/js/engine-server.js).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createScopeSpeedscope } from './node.js';
import { loopback, startEngineServer } from './engine-server.js';
import { startServer, viewUrl } from './server.js';

// Collects each output's chunks in memory for `view` to serve. Its
// onProgress counts each output's calls (the writer's events, two per call),
// which the page weighs against the viewer's budget.
function servedSink(outputs) {
  let current = null;
  const pending = [];
  return {
    onProgress({ phase, total }) {
      if (phase === 'write' && current) current.calls = Math.floor(total / 2);
    },
    open(target) {
      current = { fileName: target, chunks: [], calls: 0 };
    },
    write(view) {
      current.chunks.push(view.slice());
    },
    close() {
      pending.push(current);
      current = null;
    },
    commit() {
      outputs.push(...pending);
      pending.length = 0;
    },
    abort() {
      pending.length = 0;
      current = null;
    },
  };
}

// Each file is read lazily by the core (any size: no 2 GiB limit of
// readFileSync, no copy in memory); a missing file is reported by the core
// in the native CLI's words.
function inputsOf(files) {
  return files.map((file) => ({ name: file, path: file }));
}

function exportOptions(options, sink) {
  return {
    filepath: options.filepath,
    ranks: options.ranks,
    include: options.include,
    exclude: options.exclude,
    labels: options.labels,
    minDuration: options.minDuration,
    timeWindow: options.timeWindow,
    sourceLocations: options.sourceLocations,
    onWarning: printWarning,
    sink,
  };
}

// A warning of a read (--source-locations, --source: a value read as unknown).
function printWarning(text) {
  process.stderr.write(`warning: ${text}\n`);
}

// The default browser, without waiting for it. Failing to start one is not an
// error: the URL is printed anyway.
function openBrowser(url) {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url.replaceAll('&', '^&')]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', () => process.stderr.write(`Could not open a browser (${command}); open the URL above.\n`));
    child.unref();
  } catch {
    process.stderr.write(`Could not open a browser (${command}); open the URL above.\n`);
  }
}

// Says `words` (the URL), then serves until SIGINT (Ctrl+C) or SIGTERM and
// closes the server: exit 0. The signals are taken before the URL is
// printed: whoever reads it may stop the server at once.
async function serveUntilStopped(server, words) {
  const stopped = new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  process.stdout.write(words);
  await stopped;
  await server.close();
  process.stdout.write('Stopped.\n');
}

// serve [FILE... [vs FILE...]]: the page, and the files' runs in the wasm
// engine behind it (src/js/engine-server.js, the native serve's routes,
// guards and runs).
async function serve(sp, options) {
  let served;
  try {
    // The files first: one that cannot be opened, or files that are not one
    // job, is said before any URL.
    served = await startEngineServer(sp, {
      runs: options.files,
      vsAt: options.vs ? options.aFiles : null,
      port: options.port,
      host: options.host,
      web: options.webDir,
    });
  } catch (error) {
    if (error.code === 'EADDRINUSE') throw error;
    process.stderr.write(`error: ${error.message}\n`);
    return 1;
  }
  if (!loopback(options.host)) {
    process.stderr.write(
      `warning: listening on ${options.host}: other machines can reach this server (the token still guards it)\n`,
    );
  }
  if (options.port === null && !/:8080\//.test(served.url))
    process.stdout.write('Port 8080 is taken; using another.\n');
  const what = options.files.length ? `${served.names} in the wasm engine` : 'the scope-speedscope page';
  await serveUntilStopped(served, `Serving ${what} at ${served.url}\nPress Ctrl+C to stop.\n`);
  return 0;
}

async function view(sp, options) {
  const outputs = [];
  try {
    const sink = servedSink(outputs);
    const request = { ...exportOptions(options, sink), onProgress: sink.onProgress };
    const inputs = inputsOf(options.files);
    if (options.writeOutputs) {
      const written = sp.cli.exportFiles(inputs, request);
      if (!options.quiet) process.stdout.write(sp.cli.summary(written));
    } else {
      sp.exportSpeedscope(inputs, request);
    }
  } catch (error) {
    process.stderr.write(`error: ${error.message}\n`);
    return 1;
  }
  const server = await startServer({ port: options.port ?? 0, fallback: false, outputs });
  const url = viewUrl(server.url, server.resultPaths);
  const names = outputs.map((o) => path.basename(o.fileName)).join(', ');
  if (options.open && !process.env.SCOPE_SPEEDSCOPE_NO_OPEN) openBrowser(url);
  await serveUntilStopped(server, `Showing ${names || 'no output'} at\n  ${url}\nPress Ctrl+C to stop.\n`);
  return 0;
}

async function main(argv) {
  const sp = await createScopeSpeedscope();
  let options;
  try {
    options = sp.cli.parse(argv);
  } catch (error) {
    process.stderr.write(`${sp.cli.usage(sp.cli.command(argv))}error: ${error.message}\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(sp.cli.help(options.command));
    return 0;
  }
  if (options.version) {
    process.stdout.write(`scope-speedscope ${sp.version}\n`);
    return 0;
  }
  if (options.command === 'imbalance' || options.command === 'diff') {
    try {
      if (options.command === 'imbalance') {
        process.stdout.write(sp.cli.imbalance(argv, printWarning));
        return 0;
      }
      const { text, regressed } = sp.cli.diff(argv, printWarning);
      process.stdout.write(text);
      return regressed ? 3 : 0;
    } catch (error) {
      process.stderr.write(`error: ${error.message}\n`);
      return 1;
    }
  }
  try {
    if (options.command === 'serve') return await serve(sp, options);
    if (options.command === 'view') return await view(sp, options);
  } catch (error) {
    // The server could not start (port taken, site missing).
    const message =
      error.code === 'EADDRINUSE'
        ? `port ${options.port} is taken: choose another with --port N (0: any free port)`
        : error.message;
    process.stderr.write(`error: ${message}\n`);
    return 1;
  }
  try {
    const written = sp.cli.exportFiles(inputsOf(options.files), exportOptions(options));
    if (!options.quiet) process.stdout.write(sp.cli.summary(written));
    return 0;
  } catch (error) {
    process.stderr.write(`error: ${error.message}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
