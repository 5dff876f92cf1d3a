// The wasm conversion measured inside Node, without Node's start-up and the
// module's one-time initialisation: what a long-lived page or service pays
// per file. Prints {"init_s": ..., "convert_s": ...}.
// usage: node bench/wasm_convert.mjs IN.h5 OUT.json RANKS
import fs from 'node:fs';
import { createScopeSpeedscope } from '../dist/node.js';

const [input, output, ranks] = process.argv.slice(2);
let t = performance.now();
const sp = await createScopeSpeedscope();
const init = (performance.now() - t) / 1000;
t = performance.now();
const bytes = fs.readFileSync(input);
let fd = null;
sp.exportSpeedscope([{ name: input, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) }], {
  filepath: output,
  ranks: ranks.split(',').map(Number),
  sink: {
    open(path) {
      fd = fs.openSync(path, 'w');
    },
    write(chunk) {
      fs.writeSync(fd, chunk);
    },
    close() {
      fs.closeSync(fd);
    },
    commit() {},
    abort() {},
  },
});
const convert = (performance.now() - t) / 1000;
console.log(JSON.stringify({ init_s: init, convert_s: convert }));
