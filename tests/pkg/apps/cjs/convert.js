const { readFile, writeFile } = require('node:fs/promises');
const { createScopeSpeedscope, ScopeSpeedscopeError } = require('scope-speedscope');

async function main(file) {
  const sp = await createScopeSpeedscope();
  const bytes = await readFile(file);
  try {
    const [output] = sp.exportSpeedscope([{ name: file, bytes }]);
    await writeFile(output.fileName, output.chunks);
  } catch (error) {
    if (!(error instanceof ScopeSpeedscopeError)) throw error;
    console.error(`${error.kind}: ${error.message}`);
    process.exitCode = 1;
  }
}
main(process.argv[2]);
