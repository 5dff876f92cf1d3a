#!/usr/bin/env node
// The Node command-line tool: the native CLI's flags, messages and bytes,
// through the wasm core. Arguments, help, messages, the summary, the
// writing of the outputs (sp.cli.exportFiles: the core's file rule, as the
// native CLI writes) and the imbalance report come from the core; this file
// names the inputs and prints. Two more commands serve the page (dist/web) with src/js/server.js:
// `view FILE...` converts, then shows the result in the browser; `serve`
// serves the page alone.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createScopeSpeedscope } from './node.js';
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
    sink,
  };
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

// Serves until SIGINT (Ctrl+C) or SIGTERM, then closes the server: exit 0.
async function serveUntilStopped(server) {
  await new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await server.close();
  process.stdout.write('Stopped.\n');
}

async function serve(options, usage) {
  if (options.files.length) {
    // The run in the wasm engine inside Node is not built yet (issue 34).
    process.stderr.write(
      `${usage}error: serve RUN.h5 opens the run in the native engine: run the native CLI ` +
        '(build/native/scope-speedscope serve RUN.h5 after npm run build); npx scope-speedscope serve serves the page alone\n',
    );
    return 2;
  }
  // serve: 8080, else a free port (as npm start); an explicit --port is kept.
  const server = await startServer({ port: options.port ?? 8080, fallback: options.port === null });
  if (options.port === null && !server.url.endsWith(':8080/'))
    process.stdout.write('Port 8080 is taken; using another.\n');
  process.stdout.write(`Serving the scope-speedscope page at ${server.url}\nPress Ctrl+C to stop.\n`);
  await serveUntilStopped(server);
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
  process.stdout.write(`Showing ${names || 'no output'} at\n  ${url}\nPress Ctrl+C to stop.\n`);
  if (options.open && !process.env.SCOPE_SPEEDSCOPE_NO_OPEN) openBrowser(url);
  await serveUntilStopped(server);
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
        process.stdout.write(sp.cli.imbalance(argv));
        return 0;
      }
      const { text, regressed } = sp.cli.diff(argv);
      process.stdout.write(text);
      return regressed ? 3 : 0;
    } catch (error) {
      process.stderr.write(`error: ${error.message}\n`);
      return 1;
    }
  }
  try {
    if (options.command === 'serve') return await serve(options, sp.cli.usage('serve'));
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
