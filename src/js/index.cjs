'use strict';
// scope-speedscope for CommonJS: require('scope-speedscope') in Node.
// The package is an ES module; this file loads it (node.js) with import()
// when createScopeSpeedscope() is first called. Types: index.d.cts, a copy of
// index.d.ts.
Object.defineProperty(exports, '__esModule', { value: true });

let esm = null;
const load = () => (esm ??= import('./node.js'));

// The same values as api.js (a test compares them).
exports.NS_PER_SECOND = 1_000_000_000;
exports.SCHEMA_URL = 'https://www.speedscope.app/file-format-schema.json';
exports.TIME_UNIT = 'seconds';

let esmError = null;
/**
 * A conversion failed. The errors thrown are made by the ES module's class;
 * `instanceof` here recognises them too.
 */
class ScopeSpeedscopeError extends Error {
  constructor(kind, message) {
    super(message);
    this.name = 'ScopeSpeedscopeError';
    this.kind = kind;
  }

  static [Symbol.hasInstance](value) {
    return (
      Function.prototype[Symbol.hasInstance].call(this, value) ||
      (this === ScopeSpeedscopeError && esmError !== null && value instanceof esmError)
    );
  }
}
exports.ScopeSpeedscopeError = ScopeSpeedscopeError;

exports.concatChunks = function concatChunks(chunks) {
  const size = chunks.reduce((n, c) => n + c.byteLength, 0);
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
};

// The engine's wire format, decoded as the ES module does (wire.cjs is built
// from wire.js by scripts/build-dist.mjs).
exports.decodeAnswer = require('./wire.cjs').decodeAnswer;

/** Loads the wasm module once; call again for an independent instance. */
async function createScopeSpeedscope(options) {
  const lib = await load();
  esmError = lib.ScopeSpeedscopeError;
  return lib.createScopeSpeedscope(options);
}
exports.createScopeSpeedscope = createScopeSpeedscope;
exports.default = createScopeSpeedscope;
