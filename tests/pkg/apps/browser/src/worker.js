import { createScopeSpeedscope } from 'scope-speedscope';

const ready = createScopeSpeedscope();

self.onmessage = async ({ data: file }) => {
  try {
    const sp = await ready;
    const [output] = sp.exportSpeedscope([{ name: file.name, file }]);
    self.postMessage({ blob: new Blob(output.chunks, { type: 'application/json' }) });
  } catch (error) {
    self.postMessage({ error: error.message });
  }
};
