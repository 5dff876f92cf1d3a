// web/engine-client.js in Node with a stand-in worker: a request that
// reports nothing for its limit is given up ('stalled', the engine
// replaced), unless the engine cannot report progress (a server's, over
// HTTP), where it waits for the answer however long it takes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { EngineClient } from '../../web/engine-client.js';

// A worker that answers init at once and a request only when told to.
function standIn() {
  const made = [];
  const create = () => {
    const worker = {
      onmessage: null,
      onerror: null,
      asked: [],
      terminated: false,
      postMessage(message) {
        if (message.type === 'init') {
          queueMicrotask(() => worker.onmessage({ data: { id: 0, type: 'result', protocol: 2 } }));
        } else {
          worker.asked.push(message);
        }
      },
      answer(reply) {
        const { id } = worker.asked.shift();
        worker.onmessage({ data: { id, ...reply } });
      },
      terminate() {
        worker.terminated = true;
      },
    };
    made.push(worker);
    return worker;
  };
  return { create, made };
}

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

describe('engine client: a silent request', () => {
  test('is given up after its limit when the engine reports progress (a worker)', async () => {
    const { create, made } = standIn();
    const client = new EngineClient(create);
    await client.start();
    const restarts = [];
    client.onRestart = (reason) => restarts.push(reason);
    const reply = await client.request('check', {}, { limitMs: 50 });
    assert.deepEqual({ type: reply.type, seconds: reply.seconds }, { type: 'stalled', seconds: 0 });
    assert.deepEqual(restarts, ['stalled']);
    assert.equal(made[0].terminated, true);
    assert.equal(made.length, 2); // a fresh engine
  });

  test('waits for its answer when the engine reports none (a server)', async () => {
    const { create, made } = standIn();
    const client = new EngineClient(create, { watch: false });
    await client.start();
    const asked = client.request('check', {}, { limitMs: 50 });
    let settled = null;
    asked.then((r) => (settled = r));
    await wait(200);
    assert.equal(settled, null);
    made[0].answer({ type: 'result', fine: true });
    const reply = await asked;
    assert.equal(reply.type, 'result');
    assert.equal(reply.fine, true);
    assert.equal(made[0].terminated, false);
    assert.equal(made.length, 1);
  });
});

describe('engine client: a dropped request', () => {
  test('an abandoned export is dropped, and the engine is told (a server stops it)', async () => {
    const { create, made } = standIn();
    const client = new EngineClient(create, { watch: false });
    await client.start();
    const cancelled = [];
    made[0].cancel = (id) => cancelled.push(id);
    const exported = client.exportDocument(1, { filepath: 'x.json' });
    const regions = client.query('regions', { timeline: 1 });
    client.abandonExport();
    assert.deepEqual(await exported, { type: 'cancelled' });
    assert.deepEqual(cancelled, [1]);
    made[0].asked.shift(); // the export's answer never comes
    made[0].answer({ type: 'result', regions: [] });
    assert.deepEqual(await regions, { id: 2, type: 'result', regions: [] });
    assert.equal(made.length, 1); // the same engine
  });

  test('a worker without cancel finishes the dropped work; its late answer is ignored', async () => {
    const { create, made } = standIn();
    const client = new EngineClient(create);
    await client.start();
    const exported = client.exportDocument(1, {});
    client.abandonExport();
    assert.equal((await exported).type, 'cancelled');
    made[0].answer({ type: 'result', outputs: [] }); // dropped: nobody waits
    assert.equal(made.length, 1);
  });
});

describe('engine client: an open in slices', () => {
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  const sliced = { ranks: 'all', sameFileAs: 1, slices: true };

  test('goes on with timeline-open-more until answered; other questions go between', async () => {
    const { create, made } = standIn();
    const client = new EngineClient(create);
    await client.start();
    const worker = made[0];
    const opened = client.open({ name: 'run.h5' }, sliced);
    await tick();
    assert.equal(worker.asked[0].type, 'timeline-open');
    worker.answer({ type: 'result', pending: true, opening: 7, done: 15, total: 60 });
    await tick();
    assert.deepEqual(
      worker.asked.map((m) => [m.type, m.opening]),
      [['timeline-open-more', 7]],
    );
    // A question asked meanwhile goes to the worker after the slice, and is answered.
    const bars = client.query('bars', { timeline: 1 });
    assert.deepEqual(
      worker.asked.map((m) => m.type),
      ['timeline-open-more', 'timeline-bars'],
    );
    worker.answer({ type: 'result', pending: true, opening: 7, done: 60, total: 60 });
    worker.answer({ type: 'result', bars: [] });
    assert.equal((await bars).type, 'result');
    await tick();
    assert.equal(worker.asked[0].type, 'timeline-open-more');
    worker.answer({ type: 'result', timeline: 7, lanes: [] });
    const reply = await opened;
    assert.equal(reply.type, 'result');
    assert.equal(reply.timeline, 7);
    assert.equal(made.length, 1);
  });

  test('a cancel stops it after the slice that runs: timeline-open-cancel, the engine kept', async () => {
    const { create, made } = standIn();
    const client = new EngineClient(create);
    await client.start();
    const restarts = [];
    client.onRestart = (reason) => restarts.push(reason);
    const worker = made[0];
    const opened = client.open({ name: 'run.h5' }, sliced);
    await tick();
    worker.answer({ type: 'result', pending: true, opening: 7, done: 15, total: 60 });
    await tick();
    client.cancelAll(); // while a slice runs
    assert.equal((await opened).type, 'cancelled');
    worker.answer({ type: 'result', pending: true, opening: 7, done: 30, total: 60 }); // the slice ends
    await tick();
    assert.deepEqual(
      worker.asked.map((m) => [m.type, m.opening]),
      [['timeline-open-cancel', 7]],
    );
    assert.equal(worker.terminated, false);
    assert.deepEqual(restarts, []);
    // An open that is not in slices still replaces the engine when cancelled.
    const whole = client.open({ name: 'run.h5' }, { ranks: 'all' });
    await tick();
    client.cancelAll();
    assert.equal((await whole).type, 'cancelled');
    assert.deepEqual(restarts, ['cancelled']);
  });
});

// Work in slices (an overview: `token` 'overviewing', a download:
// 'exporting'): the engine answers its first slice pending (done[0] of
// total), the client asks the next (type-more), and bars asked meanwhile go
// to the worker after it and are answered; that slice ends pending too
// (done[1]), and the client asks the one after.
async function nextSliceWithBarsBetween(client, worker, token, value, [first, second, total]) {
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  const more = `${worker.asked[0].type}-more`;
  worker.answer({ type: 'result', pending: true, [token]: value, done: first, total });
  await tick();
  const bars = client.query('bars', { timeline: 2 });
  assert.deepEqual(
    worker.asked.map((m) => [m.type, m[token]]),
    [
      [more, value],
      ['timeline-bars', undefined],
    ],
  );
  worker.answer({ type: 'result', pending: true, [token]: value, done: second, total });
  worker.answer({ type: 'result', bars: [] });
  assert.equal((await bars).type, 'result');
  await tick();
}

describe('engine client: an overview in slices', () => {
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  test('asks slices and goes on with timeline-overview-more; other questions go between', async () => {
    const { create, made } = standIn();
    const client = new EngineClient(create);
    await client.start();
    const worker = made[0];
    const overview = client.overview(3, { maxEvents: 10 });
    await tick();
    assert.deepEqual(worker.asked[0], {
      id: worker.asked[0].id,
      type: 'timeline-overview',
      timeline: 3,
      options: { maxEvents: 10, slices: true },
    });
    await nextSliceWithBarsBetween(client, worker, 'overviewing', 4, [5, 9, 9]);
    worker.answer({ type: 'result', overview: { calls: 9 } });
    assert.deepEqual(await overview, { id: 4, type: 'result', overview: { calls: 9 } });
  });

  test('a newer overview or a cancel stops it after the slice that runs, the engine kept', async () => {
    const { create, made } = standIn();
    const client = new EngineClient(create);
    await client.start();
    const worker = made[0];
    for (const stop of [() => client.overview(3, {}), () => client.cancel()]) {
      const first = client.overview(3, { slices: 2 });
      await tick();
      assert.equal(worker.asked.at(-1).options.slices, 2); // a test's own slice is kept
      worker.answer({ type: 'result', pending: true, overviewing: 1, done: 2, total: 9 });
      await tick();
      const newer = stop();
      worker.answer({ type: 'result', pending: true, overviewing: 1, done: 4, total: 9 }); // the slice ends
      assert.deepEqual(await first, { type: 'cancelled' });
      if (newer) {
        await tick();
        worker.answer({ type: 'result', overview: { calls: 9 } });
        assert.equal((await newer).type, 'result');
      }
      assert.deepEqual(worker.asked, []); // nothing more asked of the first
    }
    assert.equal(worker.terminated, false);
    assert.equal(made.length, 1);
  });
});

describe('engine client: a download in slices', () => {
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  test('asks its own engine for slices, goes on with timeline-export-more; other questions go between', async () => {
    const { create, made } = standIn();
    const client = new EngineClient(create, { exportSlices: true });
    await client.start();
    const worker = made[0];
    const progress = [];
    const exported = client.exportDocument(2, { filepath: 'x.json' }, { onProgress: (p) => progress.push(p) });
    await tick();
    assert.deepEqual(worker.asked[0].options, { filepath: 'x.json', slices: true });
    await nextSliceWithBarsBetween(client, worker, 'exporting', 3, [40, 80, 100]);
    worker.answer({ type: 'result', outputs: ['x.json'] });
    const reply = await exported;
    assert.equal(reply.type, 'result');
    assert.deepEqual(reply.outputs, ['x.json']);
    // The page counts calls: two events a call.
    assert.deepEqual(progress, [
      { phase: 'write', done: 20, total: 50 },
      { phase: 'write', done: 40, total: 50 },
    ]);
  });

  test('abandoned between slices, it is given up after the slice that runs: timeline-export-cancel', async () => {
    const { create, made } = standIn();
    const client = new EngineClient(create, { exportSlices: 1000 });
    await client.start();
    const worker = made[0];
    const exported = client.exportDocument(2, {});
    await tick();
    assert.equal(worker.asked[0].options.slices, 1000);
    worker.answer({ type: 'result', pending: true, exporting: 5, done: 1000, total: 9000 });
    await tick();
    client.abandonExport(); // while the next slice runs
    assert.deepEqual(await exported, { type: 'cancelled' });
    worker.answer({ type: 'result', pending: true, exporting: 5, done: 2000, total: 9000 }); // dropped
    await tick();
    assert.deepEqual(
      worker.asked.map((m) => [m.type, m.exporting]),
      [['timeline-export-cancel', 5]],
    );
    assert.equal(worker.terminated, false);
    // A server's engine (exportSlices 0) is asked in one request.
    const served = new EngineClient(create, { watch: false });
    await served.start();
    served.exportDocument(2, { filepath: 'y.json' });
    await tick();
    assert.deepEqual(made[1].asked[0].options, { filepath: 'y.json' });
  });
});
