import { createScopeSpeedscope } from 'scope-speedscope';

self.onmessage = async ({ data: file }: MessageEvent<File>) => {
  const sp = await createScopeSpeedscope();
  const [output] = sp.exportSpeedscope([{ name: file.name, file }]);
  self.postMessage(new Blob(output.chunks));
};
