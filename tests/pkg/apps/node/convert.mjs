import { readFile, writeFile } from 'node:fs/promises';
import { createScopeSpeedscope, ScopeSpeedscopeError } from 'scope-speedscope';

const file = process.argv[2]; // e.g. run.h5
const sp = await createScopeSpeedscope(); // loads the wasm once
try {
  const bytes = await readFile(file);
  const info = sp.inspect({ name: file, bytes }); // label, schema, ranks, lanes, regions
  console.log(`${info.displayLabel}: ${info.calls} calls on ${info.numRanks} rank(s)`);
  const [output] = sp.exportSpeedscope([{ name: file, bytes }], {
    filepath: 'out/profile.speedscope.json', // several inputs: out/profile_<label>.speedscope.json
    ranks: [0],
    exclude: ['setup'],
  });
  await writeFile(output.fileName, output.chunks); // chunks: Uint8Array[], never one giant string
} catch (error) {
  if (!(error instanceof ScopeSpeedscopeError)) throw error;
  console.error(`${error.kind}: ${error.message}`); // the CLI's message, e.g. "Invalid rank requested: 5"
  process.exitCode = 1;
}
