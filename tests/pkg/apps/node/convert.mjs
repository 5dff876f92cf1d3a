import { readFile, writeFile } from 'node:fs/promises';
import { createScopeSpeedscope, ScopeSpeedscopeError } from 'scope-speedscope';

const sp = await createScopeSpeedscope(); // loads the wasm once
const bytes = await readFile('run.h5');
const info = sp.inspect({ name: 'run.h5', bytes }); // label, schema, ranks, lanes, regions
console.log(`${info.label}: ${info.calls} calls on ${info.numRanks} rank(s)`);
try {
  const [output] = sp.exportSpeedscope([{ name: 'run.h5', bytes }], {
    filepath: 'out/run.speedscope.json', // several inputs: out/run_<label>.speedscope.json
    ranks: [0],
    exclude: ['setup'],
  });
  await writeFile(output.fileName, output.chunks); // chunks: Uint8Array[], never one giant string
} catch (error) {
  if (!(error instanceof ScopeSpeedscopeError)) throw error;
  console.error(`${error.kind}: ${error.message}`); // the CLI's message, e.g. "Invalid rank requested: 5"
  process.exitCode = 1;
}
