// An ES module consumer (Node, "type": "module", module nodenext): types from index.d.ts.
import createDefault, {
  createScopeSpeedscope, concatChunks, ScopeSpeedscopeError, NS_PER_SECOND,
  type Inspection, type Output, type OutputSink,
} from 'scope-speedscope';

const sp = await createScopeSpeedscope({ locateFile: (file) => file });
const other = await createDefault();
const bytes = new Uint8Array(0);
const info: Inspection = sp.inspect({ name: 'run.h5', bytes });
const outputs: Output[] = sp.exportSpeedscope([{ name: 'run.h5', bytes }], { ranks: [0], include: 'solve' });
const sink: OutputSink = { open() {}, write() {}, close() {} };
const written: string[] = sp.exportSpeedscope({ name: 'run.h5', bytes }, { sink });
const later: Output[] = await other.exportSpeedscopeAsync([{ name: 'run.h5', file: new Blob([bytes]) }]);
const json: Uint8Array = concatChunks(outputs[0].chunks);
// @ts-expect-error ranks are numbers
sp.exportSpeedscope([{ name: 'run.h5', bytes }], { ranks: ['0'] });
// @ts-expect-error no such option
sp.exportSpeedscope([{ name: 'run.h5', bytes }], { rank: [0] });
try {
  sp.inspect(bytes, 'run.h5');
} catch (error) {
  if (error instanceof ScopeSpeedscopeError) console.log(error.kind, error.message);
}
console.log(info.numRanks, written.length, later.length, json.byteLength, NS_PER_SECOND);
