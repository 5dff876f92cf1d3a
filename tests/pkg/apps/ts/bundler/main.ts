// A browser app typed for a bundler (Vite, esbuild, webpack; moduleResolution bundler).
import { createScopeSpeedscope, type Output } from 'scope-speedscope';

const input = document.querySelector<HTMLInputElement>('input[type=file]')!;
input.addEventListener('change', async () => {
  const sp = await createScopeSpeedscope();
  const file = input.files![0];
  const outputs: Output[] = await sp.exportSpeedscopeAsync([{ name: file.name, file }], {
    onProgress: ({ phase, done, total }) => console.log(phase, done, total),
  });
  const ready = await sp.readInput({ name: file.name, file });
  console.log(sp.inspect(ready).calls, URL.createObjectURL(new Blob(outputs[0].chunks)));
});
