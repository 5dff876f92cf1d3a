// The package's errors: the core's failures as ScopeSpeedscopeError (unwrap:
// the one place where an error value of the module becomes an exception).
/**
 * A conversion failed; `message` is the same text the CLIs print,
 * `peopleMessage` the words for people (both from the core's one table).
 */
export class ScopeSpeedscopeError extends Error {
  constructor(kind, message, details = {}) {
    super(message);
    this.name = 'ScopeSpeedscopeError';
    /** 'ValueError', 'NestingError', 'CorruptProfileError', 'HDF5SchemaError', ... */
    this.kind = kind;
    /** Which message of the table: 'not_hdf5_no_signature', 'invalid_rank', ... */
    this.code = details.code ?? null;
    /** For people: without the file name (shown beside it) and without Python class names. */
    this.peopleMessage = details.peopleMessage ?? message;
    /** The input file to blame, as named in the input, or null. */
    this.file = details.file ?? null;
    /** The option to blame ('include', 'exclude', 'ranks', 'minDuration', 'timeWindow', ...), or null. */
    this.field = details.field ?? null;
    /** The position in that option's list (a filter pattern, a rank), or null. */
    this.index = details.index ?? null;
  }
}

export function unwrap(result) {
  if (result.ok) return result.value;
  throw new ScopeSpeedscopeError(result.kind, result.message, result);
}
