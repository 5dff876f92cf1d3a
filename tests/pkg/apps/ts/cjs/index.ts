// A CommonJS consumer (Node, "type": "commonjs", module nodenext): TypeScript
// emits require('scope-speedscope'), typed by index.d.cts (no TS1479).
// The test compiles it, then runs it with Node.
import createDefault, { createScopeSpeedscope, ScopeSpeedscopeError, type Output } from 'scope-speedscope';
import lib = require('scope-speedscope');

async function main(): Promise<void> {
  const sp = await createScopeSpeedscope();
  const again = await createDefault();
  const third = await lib.createScopeSpeedscope();
  try {
    const outputs: Output[] = sp.exportSpeedscope([{ name: 'empty.h5', bytes: new Uint8Array(0) }]);
    console.log(outputs.length);
  } catch (error) {
    if (error instanceof ScopeSpeedscopeError && error instanceof lib.ScopeSpeedscopeError) {
      console.log(`${sp.version} ${again.version} ${third.version} ${error.kind}`);
    }
  }
}
main();
