#!/usr/bin/env node
// The Node command-line tool: the native CLI's flags, messages and bytes,
// through the wasm core. Arguments, help, messages and the summary come from
// the core; this file reads the inputs and streams each output to a
// temporary file that is renamed only when the whole export succeeded.
import fs from 'node:fs';
import path from 'node:path';
import { createScopeSpeedscope, ScopeSpeedscopeError } from './node.js';

function fileSink() {
  const done = [];
  const createdDirs = [];
  let current = null;
  let counter = 0;

  const makeParents = (file) => {
    const missing = [];
    for (let dir = path.dirname(file); dir !== path.dirname(dir) && !fs.existsSync(dir); dir = path.dirname(dir)) {
      missing.push(dir);
    }
    for (const dir of missing.reverse()) {
      fs.mkdirSync(dir);
      createdDirs.push(dir);
    }
  };
  const closeCurrent = () => {
    if (current && current.fd !== null) fs.closeSync(current.fd);
    if (current) current.fd = null;
  };

  return {
    open(target) {
      makeParents(target);
      const temp = `${target}.tmp-${process.pid}-${counter++}`;
      current = { target, temp, fd: fs.openSync(temp, 'w') };
    },
    write(view) {
      let offset = 0;
      while (offset < view.byteLength) offset += fs.writeSync(current.fd, view, offset);
    },
    close() {
      closeCurrent();
      done.push(current);
      current = null;
    },
    commit() {
      for (const out of done) fs.renameSync(out.temp, out.target);
      done.length = 0;
      createdDirs.length = 0;
    },
    abort() {
      closeCurrent();
      for (const out of [...done, ...(current ? [current] : [])]) fs.rmSync(out.temp, { force: true });
      done.length = 0;
      current = null;
      for (const dir of createdDirs.reverse()) {
        try { fs.rmdirSync(dir); } catch { /* not empty: someone else's */ }
      }
      createdDirs.length = 0;
    },
  };
}

async function main(argv) {
  const sp = await createScopeSpeedscope();
  let options;
  try {
    options = sp.cli.parse(argv);
  } catch (error) {
    process.stderr.write(`${sp.cli.usage()}error: ${error.message}\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(sp.cli.help());
    return 0;
  }
  if (options.version) {
    process.stdout.write(`scope-speedscope ${sp.version}\n`);
    return 0;
  }
  try {
    const inputs = options.files.map((file) => {
      let bytes;
      try {
        bytes = fs.readFileSync(file);
      } catch (error) {
        if (error.code === 'ENOENT') throw new ScopeSpeedscopeError('FileNotFoundError', sp.cli.fileNotFoundMessage(file));
        throw error;
      }
      return { name: file, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
    });
    const written = sp.exportSpeedscope(inputs, {
      filepath: options.filepath,
      ranks: options.ranks,
      include: options.include,
      exclude: options.exclude,
      labels: options.labels,
      minDuration: options.minDuration,
      timeWindow: options.timeWindow,
      sink: fileSink(),
    });
    if (!options.quiet) process.stdout.write(sp.cli.summary(written));
    return 0;
  } catch (error) {
    process.stderr.write(`error: ${error.message}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
