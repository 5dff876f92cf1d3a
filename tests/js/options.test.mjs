// What callers pass, checked before anything is read (src/js/options.js):
// a TypeError naming the option, the exact text; File and Blob inputs outside
// a Web Worker (the async methods); how a missing .wasm is reported.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it, before } from 'node:test';

import { asScopeProfiler, cases, inputPath, sha256 } from './helpers.mjs';
import { createScopeSpeedscope, concatChunks, ScopeSpeedscopeError } from '../../dist/node.js';

const bytesOf = (name) => new Uint8Array(fs.readFileSync(inputPath(name)));
const input = { name: 'edge_s3.h5', bytes: bytesOf('edge_s3.h5') };
const expected = cases.find((c) => c.name === 'edge_s3').outputs[0].sha256;
const digest = (outputs) => sha256(asScopeProfiler(concatChunks(outputs[0].chunks)));

function typeError(message) {
  return (e) => {
    assert.ok(e instanceof TypeError, `a TypeError, not ${e}`);
    assert.equal(e.message, `scope-speedscope: ${message}`);
    return true;
  };
}

describe('options of exportSpeedscope', () => {
  let sp;
  before(async () => {
    sp = await createScopeSpeedscope();
  });

  const bad = [
    [{ ranks: ['0'] }, 'ranks must be an array of integers; ranks[0] is a string ("0")'],
    [{ ranks: [0, 1.5] }, 'ranks must be an array of integers; ranks[1] is a number (1.5)'],
    [{ ranks: 0 }, "ranks must be 'all' or an array of integers, not a number (0)"],
    [{ ranks: [2 ** 53] }, 'ranks must be an array of integers; ranks[0] is a number (9007199254740992)'],
    [{ include: 3 }, 'include must be a string or an array of strings, not a number (3)'],
    [{ exclude: ['a', /b/] }, 'exclude must be a string or an array of strings; exclude[1] is an object (RegExp)'],
    [{ labels: 'run' }, 'labels must be an array of strings, not a string ("run")'],
    [{ labels: [1] }, 'labels must be an array of strings; labels[0] is a number (1)'],
    [{ filepath: 42 }, 'filepath must be a string, not a number (42)'],
    [{ flushSize: 0 }, 'flushSize must be a positive integer, not a number (0)'],
    [{ flushSize: '64' }, 'flushSize must be a positive integer, not a string ("64")'],
    [{ onProgress: true }, 'onProgress must be a function, not a boolean (true)'],
    [{ sourceLocations: 'yes' }, 'sourceLocations must be true or false, not a string ("yes")'],
    [{ onWarning: 1 }, 'onWarning must be a function, not a number (1)'],
    [
      { sink: {} },
      'sink.open must be a function (a sink has open, write and close methods, and optionally commit and abort), not undefined',
    ],
    [{ sink: { open() {}, write() {}, close() {}, commit: 1 } }, 'sink.commit must be a function, not a number (1)'],
    [{ sink: 'out.json' }, 'sink must be an object with open, write and close methods, not a string ("out.json")'],
    [
      { rank: [0] },
      'unknown option "rank" (the options are filepath, ranks, include, exclude, labels, minDuration, timeWindow, flushSize, sourceLocations, onProgress, onWarning, sink)',
    ],
    ['ranks', 'options must be an object, not a string ("ranks")'],
  ];
  for (const [options, message] of bad) {
    it(`rejects ${JSON.stringify(options) ?? String(options)}`, () => {
      assert.throws(() => sp.exportSpeedscope([input], options), typeError(message));
    });
  }

  it('checks options before reading inputs, in the async method too', async () => {
    await assert.rejects(
      sp.exportSpeedscopeAsync([{ name: 'x.h5', file: new Blob([]) }], { ranks: ['0'] }),
      typeError('ranks must be an array of integers; ranks[0] is a string ("0")'),
    );
  });

  it('takes null and undefined as the defaults, a string as one pattern', () => {
    const none = {
      filepath: null,
      ranks: null,
      include: null,
      exclude: undefined,
      labels: null,
      flushSize: null,
      onProgress: null,
    };
    assert.equal(digest(sp.exportSpeedscope([input], none)), expected);
    assert.equal(digest(sp.exportSpeedscope([input], null)), expected);
    const one = sp.exportSpeedscope([{ name: inputPath('nested_s3.h5'), bytes: bytesOf('nested_s3.h5') }], {
      include: 's',
      filepath: 'x.speedscope.json',
    });
    assert.equal(digest(one), cases.find((c) => c.name === 'nested_s3_include').outputs[0].sha256);
  });

  it('leaves rank values to the core', () => {
    assert.throws(
      () => sp.exportSpeedscope([input], { ranks: [5] }),
      (e) => e instanceof ScopeSpeedscopeError && e.kind === 'ValueError' && e.message === 'Invalid rank requested: 5',
    );
  });
});

describe('inputs', () => {
  let sp;
  before(async () => {
    sp = await createScopeSpeedscope();
  });

  const bad = [
    [
      [{ bytes: new Uint8Array(1) }],
      "inputs[0].name must be a string (the file's name, used in messages and labels), not undefined",
    ],
    [
      [null],
      'inputs[0] must be an object: { name, bytes } (a Uint8Array), { name, file } (a File or Blob) or { name, path }, not null',
    ],
    [
      'run.h5',
      'input must be an object: { name, bytes } (a Uint8Array), { name, file } (a File or Blob) or { name, path }, not a string ("run.h5")',
    ],
    [[{ name: 'a.h5', bytes: [1, 2] }], 'input a.h5: bytes must be a Uint8Array or an ArrayBuffer, not an array'],
    [[{ name: 'a.h5', file: 'a.h5' }], 'input a.h5: file must be a File or a Blob, not a string ("a.h5")'],
    [[{ name: 'a.h5', path: 1 }], 'input a.h5: path must be a string, not a number (1)'],
  ];
  for (const [inputs, message] of bad) {
    it(`rejects ${message.slice(0, 40)}…`, () => {
      assert.throws(() => sp.exportSpeedscope(inputs), typeError(message));
    });
  }

  it('names the input of inspect', () => {
    assert.throws(
      () => sp.inspect({ bytes: new Uint8Array(1) }),
      typeError("input.name must be a string (the file's name, used in messages and labels), not undefined"),
    );
  });

  it('takes an ArrayBuffer and a Node Buffer as bytes', () => {
    const buffer = fs.readFileSync(inputPath('edge_s3.h5'));
    assert.equal(digest(sp.exportSpeedscope([{ name: 'edge_s3.h5', bytes: buffer }])), expected);
    const copy = buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength);
    assert.equal(digest(sp.exportSpeedscope([{ name: 'edge_s3.h5', bytes: copy }])), expected);
  });

  it('refuses a Blob in the synchronous methods outside a worker, with what to do instead', () => {
    const blob = new Blob([input.bytes]);
    const message =
      'input edge_s3.h5: a File or Blob can be read synchronously only inside a Web Worker. ' +
      'Here, use the async methods (await sp.exportSpeedscopeAsync(inputs, options), await sp.inspectAsync(input)), ' +
      'or read it first: await sp.readInput({ name, file }) gives { name, bytes }.';
    assert.throws(() => sp.exportSpeedscope([{ name: 'edge_s3.h5', file: blob }]), typeError(message));
    assert.throws(() => sp.inspect({ name: 'edge_s3.h5', file: blob }), typeError(message));
  });

  it('reads a Blob or File in the async methods and readInput', async () => {
    const file = new File([input.bytes], 'edge_s3.h5');
    assert.equal(digest(await sp.exportSpeedscopeAsync([{ name: 'edge_s3.h5', file }])), expected);
    assert.equal(digest(await sp.exportSpeedscopeAsync({ name: 'edge_s3.h5', file }, { ranks: [0] })), expected);
    const info = await sp.inspectAsync({ name: 'edge_s3.h5', file });
    assert.deepEqual(info, sp.inspect(input));
    const ready = await sp.readInput({ name: 'edge_s3.h5', file });
    assert.deepEqual(Object.keys(ready), ['name', 'bytes']);
    assert.deepEqual(ready.bytes, input.bytes);
    assert.equal(await sp.readInput(input).then((x) => x.bytes), input.bytes);
    await assert.rejects(
      sp.exportSpeedscopeAsync([{ name: 'x.h5', file: new Blob(['not HDF5']) }]),
      (e) =>
        e instanceof ScopeSpeedscopeError &&
        e.kind === 'CorruptProfileError' &&
        /^x\.h5 is not a readable HDF5/.test(e.message),
    );
  });
});

describe('createScopeSpeedscope', () => {
  it('rejects unknown and mistyped options', async () => {
    await assert.rejects(
      createScopeSpeedscope({ wasmUrl: 'x' }),
      typeError(
        'unknown option "wasmUrl" of createScopeSpeedscope (the options are wasmBinary, locateFile, readWholeBytes, print, printErr)',
      ),
    );
    await assert.rejects(
      createScopeSpeedscope({ wasmBinary: 'x' }),
      typeError('wasmBinary must be an ArrayBuffer or a Uint8Array, not a string ("x")'),
    );
    await assert.rejects(
      createScopeSpeedscope({ locateFile: '/x.wasm' }),
      typeError('locateFile must be a function, not a string ("/x.wasm")'),
    );
  });

  it('says where it looked when the .wasm is missing', async () => {
    await assert.rejects(createScopeSpeedscope({ locateFile: () => '/nonexistent/scope-speedscope.wasm' }), (e) => {
      assert.match(
        e.message,
        /^scope-speedscope: could not load scope-speedscope\.wasm from \/nonexistent\/scope-speedscope\.wasm \(ENOENT/,
      );
      assert.match(
        e.message,
        /pass createScopeSpeedscope\(\{ locateFile \}\) or createScopeSpeedscope\(\{ wasmBinary \}\)$/,
      );
      return true;
    });
  });

  it('takes the bytes, or a locateFile giving a path or a file: URL', async () => {
    const wasm = fs.readFileSync(new URL('../../dist/scope-speedscope.wasm', import.meta.url));
    const path = new URL('../../dist/scope-speedscope.wasm', import.meta.url);
    for (const options of [
      { wasmBinary: wasm },
      { locateFile: () => path.href },
      { locateFile: () => path.pathname },
    ]) {
      const sp = await createScopeSpeedscope(options);
      assert.equal(digest(sp.exportSpeedscope([input])), expected);
    }
  });
});

describe('the browser build', () => {
  const wasm = fs.readFileSync(new URL('../../dist/scope-speedscope.wasm', import.meta.url));

  it('converts when handed the wasm bytes (e.g. under a test runner that picks the browser condition)', async () => {
    const browser = await import('../../dist/browser.js');
    const sp = await browser.createScopeSpeedscope({ wasmBinary: wasm });
    assert.equal(digest(sp.exportSpeedscope([input])), expected);
    assert.throws(() => sp.exportSpeedscope([{ name: 'x.h5', file: new Blob([]) }]), TypeError);
  });

  it('says how to find the wasm in a bundle without import.meta.url (IIFE)', async () => {
    const { default: esbuild } = await import('esbuild');
    const {
      outputFiles: [bundle],
    } = esbuild.buildSync({
      entryPoints: [new URL('../../dist/browser.js', import.meta.url).pathname],
      bundle: true,
      format: 'iife',
      globalName: 'scopeSpeedscopeIife',
      write: false,
      logLevel: 'silent',
    });
    const lib = new Function(`${bundle.text}; return scopeSpeedscopeIife;`)();
    await assert.rejects(lib.createScopeSpeedscope(), (e) => {
      assert.equal(
        e.message,
        'scope-speedscope: this bundle has no import.meta.url (an IIFE or CommonJS bundle), ' +
          "so the .wasm cannot be found next to the package's JavaScript: pass " +
          'createScopeSpeedscope({ locateFile: (file) => `/where/it/is/${file}` }) or ({ wasmBinary }), or bundle as an ES module',
      );
      return true;
    });
    const sp = await lib.createScopeSpeedscope({ wasmBinary: wasm });
    assert.equal(digest(sp.exportSpeedscope([input])), expected);
  });
});
