// The wasm package inside the single-file page's classic worker: the same
// wrapper (src/js/browser.js, bundled with the classic build of the module),
// given the wasm bytes that web/single/site.js put before the worker's script.
import { createScopeSpeedscope as create } from '../../src/js/browser.js';

export * from '../../src/js/browser.js';

export function createScopeSpeedscope(options = {}) {
  const text = atob(self.SCOPE_SPEEDSCOPE_WASM_BASE64);
  const wasmBinary = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) wasmBinary[i] = text.charCodeAt(i);
  return create({ wasmBinary, ...options });
}
