// A link to the view (web/view-link.js): the fragment's round trip, field by
// field, with and without `files` (a job written one file per process is
// named by its first file and how many files it is), and the fragments it
// refuses (each said by its field). Pure functions: no browser.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { fragmentToView, viewToFragment } from '../../web/view-link.js';

const VIEW = {
  file: { name: 'job_rank00000.h5', size: 123456, origin: '123456789000000' },
  files: 64,
  ranks: [0, 1, 2, 3, 41],
  window: { start: 100, end: 2000 },
  collapsed: { lanes: [1], ranks: [0, 1, 2] },
  region: 'solve',
  call: { lane: 3, depth: 1, start: 500, end: 900, frame: 2 },
  partner: 'rerun_rank00000.h5',
  align: { lane: 0, depth: 1, start: 3600, frame: 2, shift: -600 },
};

describe('a link to the view: the fragment', () => {
  it('holds every field of a job’s view and gives it back', () => {
    const fragment = viewToFragment(VIEW);
    assert.equal(
      fragment,
      'v=1&file=job_rank00000.h5&size=123456&origin=123456789000000&files=64&ranks=0-3%2C41&t=100-2000' +
        '&lanes=1&rows=0-2&region=solve&call=3.1.500.900.2&vs=rerun_rank00000.h5&align=0.1.3600.2.-600',
    );
    assert.deepEqual(fragmentToView(`#${fragment}`), { view: VIEW });
  });

  it('leaves files out for one file, and reads its absence as 1', () => {
    const one = { ...VIEW, files: 1, partner: null, align: null, ranks: 'all' };
    const fragment = viewToFragment(one);
    assert.doesNotMatch(fragment, /files=/);
    assert.deepEqual(fragmentToView(fragment).view, one);
    const { files, ...before } = one; // a view written before files existed
    assert.equal(files, 1);
    assert.deepEqual(fragmentToView(viewToFragment(before)).view, one);
    assert.equal(fragmentToView(`${fragment}&files=1`).view.files, 1);
  });

  it('refuses a files that is not a whole number from 1 to 4096', () => {
    const base = viewToFragment({ ...VIEW, files: 1 });
    for (const [files, error] of [
      ['0', 'files "0"'],
      ['4097', 'files "4097"'],
      ['-2', 'files "-2"'],
      ['2.5', 'files "2.5"'],
      ['', 'files ""'],
      ['x', 'files "x"'],
    ]) {
      assert.deepEqual(fragmentToView(`${base}&files=${files}`), { error }, files);
    }
    assert.equal(fragmentToView(`${base}&files=4096`).view.files, 4096);
  });
});
