// The single-file page's parts (the served page's are in web/site.js): made
// from data that scripts/build-single.mjs inlines into
// dist/scope-speedscope.html as base64 blocks (<script type="application/octet-stream">),
// so the page needs no other file and works when opened from disk (file://):
//   - the converter: a classic Worker made from a Blob (from file:// Chromium
//     runs no module worker), its script preceded by the wasm bytes;
//   - the viewer: speedscope's page with the bridge, its script and styles
//     inlined, as the sandboxed frame's srcdoc;
//   - the example run.

function base64Of(id) {
  const block = document.getElementById(id);
  if (!block) throw new Error(`the single-file page lacks its ${id} block`);
  return block.textContent.trim();
}

function bytesOf(id) {
  const text = atob(base64Of(id));
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

let workerUrl = null;

/** A new conversion worker: the same worker.js, bundled as a classic script. */
export function createWorker() {
  workerUrl ??= URL.createObjectURL(
    new Blob(
      [
        `self.SCOPE_SPEEDSCOPE_WASM_BASE64 = "${base64Of('scope-speedscope-wasm')}";\n`,
        bytesOf('scope-speedscope-worker'),
      ],
      { type: 'text/javascript' },
    ),
  );
  return new Worker(workerUrl, { name: 'scope-speedscope' });
}

/**
 * No "Open in a new tab": a tab opened from file:// has an origin of its own
 * and could not read this page's blob: URLs (full screen remains).
 */
export const viewerPage = null;

let viewerHtml = null;

/** speedscope's page with the bridge, inlined, as the frame's srcdoc. */
export function loadViewer(frame) {
  viewerHtml ??= new TextDecoder().decode(bytesOf('scope-speedscope-viewer'));
  frame.srcdoc = viewerHtml;
}

/** The bundled example run as a File. */
export async function exampleFile() {
  return new File([bytesOf('scope-speedscope-example')], 'real_run_s1.h5');
}
