// The package's inputs: a File or Blob read whole (up to readWholeBytes) or
// as a lazy source the core's HDF5 file driver asks for slices (in a worker,
// with FileReaderSync).
// A File or Blob up to this size is read whole (one FileReaderSync call) and
// handed to the core as bytes; larger ones are read lazily: the core's HDF5
// file driver (src/core/read/h5_driver.cpp) asks for slices, in blocks of 1 MiB,
// through blobSource. createScopeSpeedscope({ readWholeBytes }) changes it
// (0: always lazily).
export const READ_WHOLE_BYTES = 256 * 1024 * 1024;
// The bytes of a small enough File or Blob, else null. A Blob that cannot be
// read (removed or changed since it was picked) is left to the lazy path,
// whose failing read the core reports (file_unreadable).
export function readWhole(file, limit) {
  if (!file || file.size > limit) return null;
  try {
    return new Uint8Array(new FileReaderSync().readAsArrayBuffer(file));
  } catch {
    return null;
  }
}

// A File or Blob as the core's lazy source: { size, read(offset, view) }.
// read fills the view (WebAssembly memory, valid during the call) and returns
// undefined; when the file ends first, the number of bytes it got (the core
// words that); else why it could not (src/wasm/bindings.cpp, JsSource). It
// never throws into the module.
export function blobSource(file) {
  const reader = new FileReaderSync();
  return {
    size: file.size,
    read(offset, view) {
      try {
        const bytes = new Uint8Array(reader.readAsArrayBuffer(file.slice(offset, offset + view.byteLength)));
        if (bytes.byteLength !== view.byteLength) return bytes.byteLength;
        view.set(bytes);
        return undefined;
      } catch (error) {
        return String(error?.message ?? error);
      }
    },
  };
}
