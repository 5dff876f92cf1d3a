// Types of the scope-speedscope package: one file for both entries, browser.js
// (browsers, Web Workers, bundlers) and node.js (Node), which share api.js.
// index.d.cts is a copy of it for CommonJS (require), whose index.cjs exports
// the same names.

export declare const NS_PER_SECOND: 1000000000;
export declare const SCHEMA_URL: 'https://www.speedscope.app/file-format-schema.json';
export declare const TIME_UNIT: 'seconds';

export type ErrorKind =
  | 'ValueError'
  | 'NestingError'
  | 'CorruptProfileError'
  | 'HDF5SchemaError'
  | 'FileNotFoundError'
  | 'OSError'
  | 'UsageError'
  | 'PatternError'
  | 'MemoryError'
  | 'Error';

/**
 * A failed conversion. `message` is exactly what the CLIs print after "error: ".
 * A conversion that stops inside the WebAssembly module (a trap such as
 * "memory access out of bounds") is reported as kind 'CorruptProfileError' with
 * "<name>: the file is damaged: the converter stopped (<trap>)"; the module
 * instance is replaced, so the next call works.
 */
export declare class ScopeSpeedscopeError extends Error {
  readonly name: 'ScopeSpeedscopeError';
  readonly kind: ErrorKind;
  constructor(kind: ErrorKind, message: string);
}

/**
 * An HDF5 file: its name (used in messages and labels) and its bytes, a File
 * or Blob, or a path in the module's file system. The synchronous methods
 * take a File or Blob only inside a Web Worker (read lazily there); on the
 * main thread and in Node use the async methods, or readInput first.
 */
export type Input =
  | { name: string; bytes: Uint8Array | ArrayBuffer }
  | { name: string; file: Blob }
  | { name: string; path: string };

export interface Progress {
  phase: 'read' | 'reconstruct' | 'write';
  done: number;
  total: number;
}

/**
 * Bytes in an ArrayBuffer of their own: Uint8Array<ArrayBuffer> in
 * TypeScript 5.7 and later (what `new Blob(chunks)` and `fs.writeFile` take),
 * Uint8Array before.
 */
export type Bytes = ReturnType<Uint8Array['slice']>;

export interface Output {
  /** As scope-profiler's export_speedscope names it, e.g. "profile.speedscope.json". */
  fileName: string;
  /** Concatenated, the document's bytes (ASCII JSON). */
  chunks: Bytes[];
}

/** Receives outputs as they are written; see the README. Methods may throw: the export then fails. */
export interface OutputSink {
  open(fileName: string): void;
  write(chunk: Uint8Array): void; // valid during the call only: copy it
  close(): void;
  /** Every output is complete (optional). */
  commit?(): void;
  /** The export failed: drop what was written (optional). */
  abort?(): void;
}

/**
 * Options of exportSpeedscope; null or undefined means the default. A wrong
 * type or an unknown option is a TypeError naming it.
 */
export interface ExportOptions {
  /** Base path as export_speedscope takes it. Default "profile.speedscope.json". */
  filepath?: string | null;
  /** Ranks (integers), used as given. Default [0]. */
  ranks?: number[] | null;
  /** Regular expressions matched at the start of region names (Python re.match). */
  include?: string | string[] | null;
  exclude?: string | string[] | null;
  /** Labels replacing each input's label, in order. */
  labels?: string[] | null;
  onProgress?: ((progress: Progress) => void) | null;
  /** Stream outputs here instead of returning their chunks. */
  sink?: OutputSink;
  /** Chunk size in bytes, a positive integer (default 65536). */
  flushSize?: number | null;
}

export interface Inspection {
  label: string;
  displayLabel: string;
  schemaVersion: number;
  storageLayout: string;
  /** Valid ranks are 0 .. numRanks - 1. */
  numRanks: number;
  calls: number;
  ranks: Array<{
    rank: number;
    calls: number;
    lanes: Array<{ lane: number; label: string; profileName: string; calls: number }>;
  }>;
  regions: Array<{ name: string; calls: number; ranks: number[] }>;
}

export interface SpeedscopeDocument {
  $schema: typeof SCHEMA_URL;
  exporter: string;
  name: string;
  activeProfileIndex: number;
  shared: { frames: Array<{ name: string }> };
  profiles: Array<{
    type: 'evented';
    name: string;
    unit: typeof TIME_UNIT;
    startValue: number;
    endValue: number;
    events: Array<{ type: 'O' | 'C'; frame: number; at: number }>;
  }>;
}

export interface CliOptions {
  files: string[];
  filepath: string;
  ranks: number[];
  include: string[] | null;
  exclude: string[] | null;
  labels: string[];
  quiet: boolean;
  help: boolean;
  version: boolean;
}

export interface ScopeSpeedscope {
  readonly version: string;
  /** Bytes of WebAssembly memory (grows on demand, never shrinks). */
  readonly wasmMemoryBytes: number;
  inspect(input: Uint8Array | Input, name?: string): Inspection;
  exportSpeedscope(inputs: Input | Input[], options?: ExportOptions & { sink?: undefined }): Output[];
  exportSpeedscope(inputs: Input | Input[], options: ExportOptions & { sink: OutputSink }): string[];
  buildSpeedscopeDocument(input: Input, options?: Omit<ExportOptions, 'sink'>): SpeedscopeDocument;
  /**
   * Checks one include/exclude pattern (Python's re syntax) with the engine
   * the export uses (PCRE2 in the module): null when it compiles, else the
   * message an export with it would fail with (kind 'PatternError'), e.g.
   * "Invalid regular expression '(': missing closing parenthesis at position 1".
   */
  checkPattern(pattern: string): string | null;
  /**
   * An input the synchronous methods take: a File or Blob is read into
   * { name, bytes } on the main thread and in Node, and returned as it is in
   * a Web Worker (read lazily while converting); other inputs as they are.
   */
  readInput(input: Input): Promise<Input>;
  /** exportSpeedscope for any input, also a File or Blob on the main thread. */
  exportSpeedscopeAsync(inputs: Input | Input[], options?: ExportOptions & { sink?: undefined }): Promise<Output[]>;
  exportSpeedscopeAsync(inputs: Input | Input[], options: ExportOptions & { sink: OutputSink }): Promise<string[]>;
  /** inspect for any input, also a File or Blob on the main thread. */
  inspectAsync(input: Input): Promise<Inspection>;
  readonly cli: {
    parse(args: string[]): CliOptions;
    help(): string;
    usage(): string;
    summary(written: string[]): string;
    fileNotFoundMessage(path: string): string;
  };
}

export interface CreateOptions {
  /** The .wasm bytes. Default: under Node read from the package, in browsers fetched (see locateFile). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /**
   * Where the .wasm is (Emscripten's locateFile, called with "scope-speedscope.wasm"):
   * a URL in browsers, a path or file: URL under Node. Default: next to the
   * package's JavaScript, `new URL('./scope-speedscope.wasm', import.meta.url)`.
   */
  locateFile?: (file: string, prefix: string) => string;
  print?: (text: string) => void;
  printErr?: (text: string) => void;
}

export declare function createScopeSpeedscope(options?: CreateOptions): Promise<ScopeSpeedscope>;
export declare function concatChunks(chunks: Uint8Array[]): Bytes;
export default createScopeSpeedscope;
