// Errors through the JS API: the CLIs' text in `message`, the words for
// people in `peopleMessage` (one table in the core), and what they blame
// (`code`, `file`, `field`, `index`), for every error case of the shared and
// generated case lists.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { describe, it, before } from 'node:test';

import { cases, expectedMessage, generatedCases, generatedInput, inputPath } from './helpers.mjs';
import { createScopeSpeedscope, ScopeSpeedscopeError } from '../../dist/node.js';

const read = (file) => ({ name: file, bytes: new Uint8Array(fs.readFileSync(file)) });
const pythonClasses = [
  'ValueError',
  'NestingError',
  'CorruptProfileError',
  'HDF5SchemaError',
  'FileNotFoundError',
  'OSError',
  'KeyError',
  'PosixPath',
];

function checkPeople(e, inputs) {
  assert.ok(e.peopleMessage.length > 0);
  for (const input of inputs) assert.ok(!e.peopleMessage.includes(path.basename(input)), e.peopleMessage);
  for (const word of pythonClasses) assert.ok(!e.peopleMessage.includes(word), e.peopleMessage);
}

describe('errors through the JS API', () => {
  let sp;
  before(async () => {
    sp = await createScopeSpeedscope();
  });

  for (const c of cases.filter((x) => x.error)) {
    it(`shared case ${c.name}`, () => {
      const inputs = c.inputs.map(inputPath);
      assert.throws(
        () =>
          sp.exportSpeedscope(inputs.map(read), {
            filepath: c.filepath,
            ranks: c.ranks,
            include: c.include,
            exclude: c.exclude,
          }),
        (e) => {
          assert.ok(e instanceof ScopeSpeedscopeError);
          assert.equal(e.message, expectedMessage(c));
          assert.equal(typeof e.code, 'string');
          checkPeople(e, inputs);
          return true;
        },
      );
    });
  }

  for (const c of generatedCases('').filter((x) => x.error && x.error.code !== 'file_not_found')) {
    it(`generated case ${c.name}`, () => {
      const inputs = c.inputs.map(generatedInput);
      assert.throws(
        () =>
          sp.exportSpeedscope(inputs.map(read), {
            filepath: c.filepath,
            ranks: c.ranks,
            include: c.include,
            exclude: c.exclude,
            minDuration: c.min_duration,
            timeWindow: c.time_window,
          }),
        (e) => {
          assert.equal(e.kind, c.error.kind);
          assert.equal(e.code, c.error.code);
          assert.equal(e.field, c.error.field);
          assert.equal(e.index, c.error.index);
          assert.equal(e.file && path.basename(e.file), c.error.file);
          if (c.error.kind !== 'CorruptProfileError') {
            assert.equal(e.message, c.error.message.replaceAll('{path}', inputs[0]));
          }
          checkPeople(e, inputs);
          return true;
        },
      );
    });
  }

  it('tells a file that is not HDF5 at all from an empty or a damaged one', () => {
    const cases = [
      [
        'text_file.h5',
        'not_hdf5_no_signature',
        'This is not an HDF5 file: it has no HDF5 signature. scope-profiler writes its profiles as HDF5 files (.h5).',
      ],
      [
        'empty_file.h5',
        'not_hdf5_empty',
        'The file is empty (0 bytes). A run that stopped before writing its profile leaves such a file.',
      ],
      [
        'cut_short_s3.h5',
        'not_hdf5',
        'This HDF5 file is damaged or incomplete, so it cannot be opened. A run interrupted while writing its profile, or a copy cut short, leaves such a file. (HDF5 says: ',
      ],
    ];
    for (const [file, code, people] of cases) {
      assert.throws(
        () => sp.inspect(read(generatedInput(file))),
        (e) => {
          assert.equal(e.code, code);
          assert.equal(e.kind, 'CorruptProfileError');
          assert.ok(e.peopleMessage.startsWith(people), e.peopleMessage);
          assert.ok(e.message.startsWith(`${generatedInput(file)} is not a readable HDF5 profiling file.`));
          assert.equal(e.file, generatedInput(file));
          return true;
        },
      );
    }
    // A browser's File: the name it was given, not a mount path.
    assert.throws(
      () => sp.exportSpeedscope([{ name: 'notes.h5', bytes: new TextEncoder().encode('hello') }]),
      (e) => e.file === 'notes.h5' && e.code === 'not_hdf5_no_signature' && !e.peopleMessage.includes('notes.h5'),
    );
  });

  it('says which filter and which rank', () => {
    const input = read(inputPath('nested_s3.h5'));
    assert.throws(
      () => sp.exportSpeedscope([input], { exclude: ['x', '[z'] }),
      (e) => {
        assert.equal(e.code, 'invalid_regex');
        assert.equal(e.field, 'exclude');
        assert.equal(e.index, 1);
        assert.equal(e.file, input.name);
        assert.ok(e.peopleMessage.startsWith("The filter '[z' is not a valid regular expression: "), e.peopleMessage);
        return true;
      },
    );
    assert.throws(
      () => sp.exportSpeedscope([input], { ranks: [1, 0, 4] }),
      (e) =>
        e.code === 'invalid_rank' &&
        e.field === 'ranks' &&
        e.index === 2 &&
        e.peopleMessage === 'There is no rank 4 in this run: its ranks are 0 to 1.',
    );
    assert.throws(
      () => sp.exportSpeedscope([input], { minDuration: '1 s' }),
      (e) =>
        e.code === 'invalid_duration' &&
        e.field === 'minDuration' &&
        e.file === null &&
        e.peopleMessage ===
          "'1 s' is not a duration: write seconds (1e-4, 0.5) or a number with a unit (500ns, 100us, 2ms, 1s).",
    );
  });

  it("a file that ends before the size it had when opened: the core's words", () => {
    // node.js reads a path with fs.readSync: here the file gives 100 bytes, then ends.
    const file = inputPath('nested_s3.h5');
    const size = fs.statSync(file).size;
    const readSync = fs.readSync;
    let given = 0;
    fs.readSync = (fd, buffer, offset, length, position) => {
      const got = readSync(fd, buffer, offset, Math.min(length, 100 - given), position);
      given += got;
      return got;
    };
    syncBuiltinESMExports();
    try {
      assert.throws(
        () => sp.inspect({ name: file, path: file }),
        (e) => {
          assert.equal(e.code, 'file_unreadable');
          assert.match(
            e.message,
            new RegExp(
              `^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: cannot read the file: ` +
                `it ends at byte 100, before the ${size} bytes it had when it was opened \\(it was changed meanwhile\\)$`,
            ),
          );
          assert.equal(e.file, file);
          return true;
        },
      );
    } finally {
      fs.readSync = readSync;
      syncBuiltinESMExports();
    }
  });

  it('a failing sink is an output error in words for people', () => {
    assert.throws(
      () =>
        sp.exportSpeedscope([read(inputPath('edge_s3.h5'))], {
          sink: {
            open() {},
            write() {
              throw new Error('disk full');
            },
            close() {},
            commit() {},
            abort() {},
          },
        }),
      (e) =>
        e.kind === 'OSError' &&
        e.code === 'output_failed' &&
        e.message === 'disk full' &&
        e.peopleMessage === 'Writing the output failed: disk full' &&
        e.file === null,
    );
  });
});
