// The engine's answers (docs/engine-protocol.md, "Wire"): bytes whose JSON
// header names columns that follow it. decodeAnswer turns them into the
// answer object, each column a typed array viewing the answer's own buffer
// (one buffer to transfer), and numbers JSON cannot spell back into NaN and
// ±Infinity. The same bytes come from the wasm engine and from `serve`.
const MAGIC = [0x53, 0x53, 0x45, 0x31]; // "SSE1"
const TYPES = { float64: Float64Array, float32: Float32Array, int32: Int32Array, uint32: Uint32Array };
const NUMBERS = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity };

function revive(value, buffer, first) {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = revive(value[i], buffer, first);
    return value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (typeof value.$column === 'string') {
    const Type = TYPES[value.$column];
    if (!Type) throw new TypeError(`scope-speedscope: an engine answer has a column of unknown type ${value.$column}`);
    return new Type(buffer, first + value.offset, value.length);
  }
  if (typeof value.$number === 'string' && Object.keys(value).length === 1) return NUMBERS[value.$number];
  for (const key of Object.keys(value)) value[key] = revive(value[key], buffer, first);
  return value;
}

/** The answer in `bytes` (a Uint8Array or ArrayBuffer of the wire format). */
export function decodeAnswer(bytes) {
  const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  if (u8.length < 8 || MAGIC.some((b, i) => u8[i] !== b)) {
    throw new TypeError('scope-speedscope: not an engine answer (no SSE1 magic)');
  }
  const length = new DataView(u8.buffer, u8.byteOffset, 8).getUint32(4, true);
  if (u8.length < 8 + length) throw new TypeError('scope-speedscope: an engine answer cut short');
  const header = JSON.parse(new TextDecoder().decode(u8.subarray(8, 8 + length)));
  // Columns are views at multiples of 8: an answer not at such an offset of its buffer is copied.
  const own = u8.byteOffset % 8 === 0 ? u8 : u8.slice();
  const first = own.byteOffset + ((8 + length + 7) & ~7);
  return revive(header, own.buffer, first);
}
