// The package's sinks: outputs collected as chunks, a caller's sink guarded
// (the core calls it and it must not throw), progress callbacks.
export function collectingSink(outputs) {
  let current = null;
  return {
    open(fileName) {
      current = { fileName, chunks: [] };
    },
    write(view) {
      current.chunks.push(view.slice());
    },
    close() {
      outputs.push(current);
      current = null;
    },
    commit() {},
    abort() {
      outputs.length = 0;
      current = null;
    },
  };
}

// A progress callback for the core, which it cannot stop by throwing.
export function progressOf(onProgress) {
  return (phase, done, total) => {
    if (onProgress) {
      try {
        onProgress({ phase, done, total });
      } catch {
        /* a progress callback cannot stop us */
      }
    }
  };
}

// A warning callback for the core (a source value read as unknown), which
// it cannot stop by throwing.
export function warningOf(onWarning) {
  return (text) => {
    if (onWarning) {
      try {
        onWarning(text);
      } catch {
        /* a warning callback cannot stop us */
      }
    }
  };
}

// The core calls these; they must not throw (see src/wasm/bindings.cpp):
// a failure comes back as its message.
export function guardSink(sink, onProgress, onWarning) {
  const call = (method, ...args) => {
    try {
      if (typeof sink[method] === 'function') sink[method](...args);
      return undefined;
    } catch (error) {
      return String(error && error.message ? error.message : error);
    }
  };
  return {
    open: (path) => call('open', path),
    write: (view) => call('write', view),
    close: () => call('close'),
    commit: () => call('commit'),
    abort: () => {
      call('abort');
    },
    progress: progressOf(onProgress),
    warning: warningOf(onWarning),
  };
}

export function concatChunks(chunks) {
  const size = chunks.reduce((n, c) => n + c.byteLength, 0);
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}
