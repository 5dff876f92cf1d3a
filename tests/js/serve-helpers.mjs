// Runs the Node CLI's serving commands (`view`, `serve`) as a child process:
// waits for the URL it prints, and stops it with a signal. Shared by
// tests/js/serve.test.mjs and the browser tests in tests/web/.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const nodeCli = path.join(root, 'dist', 'cli.js');

/**
 * Spawns `node dist/cli.js ...args` (or `program ...args`, with SCOPE_SPEEDSCOPE_NO_OPEN=1 unless
 * env says otherwise) and resolves once it printed "Press Ctrl+C to stop." to
 * { url, stdout, child, stop(signal) }; stop resolves to
 * { code, signal, stdout, stderr } once the process exited. Rejects with its
 * output when it exits first or prints nothing within `timeout` ms.
 */
export function startCli(args, { cwd, env = {}, timeout = 30_000, cli = nodeCli, program = null } = {}) {
  // program: an executable run with args alone (the native CLI) instead of node cli.
  const child = spawn(program ?? process.execPath, program ? args : [cli, ...args], {
    cwd,
    env: { ...process.env, SCOPE_SPEEDSCOPE_NO_OPEN: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d) => {
    stdout += d;
  });
  child.stderr.setEncoding('utf8').on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      // Let the pipes drain.
      setImmediate(() => resolve({ code, signal, stdout, stderr }));
    });
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no URL within ${timeout} ms; stdout: ${stdout}; stderr: ${stderr}`));
    }, timeout);
    const onData = () => {
      if (!stdout.includes('Press Ctrl+C to stop.\n')) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      const url = stdout.match(/http:\/\/127\.0\.0\.1:\d+\/\S*/)[0];
      resolve({
        url,
        // All it printed so far (more may follow: native serve says when every rank is open).
        get stdout() {
          return stdout;
        },
        child,
        stop: async (signal = 'SIGINT') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      });
    };
    child.stdout.on('data', onData);
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code ?? signal}) before serving; stdout: ${stdout}; stderr: ${stderr}`));
    });
  });
}
