import { createScopeSpeedscope } from 'scope-speedscope';

const ready = createScopeSpeedscope(); // fetches scope-speedscope.wasm once

// Main thread, bytes you already have: synchronous.
export async function convertBytes(name, bytes) {
  const sp = await ready;
  const [output] = sp.exportSpeedscope([{ name, bytes }]);
  return new Blob(output.chunks, { type: 'application/json' });
}

// Main thread, a File (from <input type="file"> or a drop): the async method reads it first.
export async function convertFile(file) {
  const sp = await ready;
  const [output] = await sp.exportSpeedscopeAsync([{ name: file.name, file }], { ranks: [0] });
  return new Blob(output.chunks, { type: 'application/json' });
}

// A Web Worker (worker.js) reads the File lazily, in blocks: best for large runs.
const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
export function convertInWorker(file) {
  return new Promise((resolve, reject) => {
    worker.onmessage = ({ data }) => (data.error ? reject(new Error(data.error)) : resolve(data.blob));
    worker.postMessage(file);
  });
}
