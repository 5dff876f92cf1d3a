// Results a local server holds for this page: `scope-speedscope view run.h5`
// converts in Node, serves the outputs under results/ and opens
//   index.html?result=results/profile.speedscope.json[&result=...]
// This module fetches them (same origin only) and hands them to the page's
// normal way of showing outputs. Without ?result= it does nothing.

const params = new URLSearchParams(window.location.search);

/** True when the page was opened to show served results. */
export const hasServedResults = params.has('result');

/**
 * Fetches every ?result= output and calls show([{ fileName, blob, size, calls }]).
 * Returns false when there is nothing to load; throws an Error whose message
 * is for people when a result cannot be fetched.
 */
export async function loadServedResults(show) {
  const paths = params.getAll('result');
  if (!paths.length) return false;
  const outputs = [];
  for (const path of paths) {
    const url = new URL(path, window.location.href);
    const fileName = decodeURIComponent(url.pathname.split('/').pop() || 'profile.speedscope.json');
    if (url.origin !== window.location.origin) {
      throw new Error(`${fileName} is not on this server; the page only shows results it serves itself.`);
    }
    let response;
    try {
      response = await fetch(url, { cache: 'no-store' });
    } catch {
      throw new Error(`${fileName} could not be fetched: is scope-speedscope view still running?`);
    }
    if (!response.ok) {
      throw new Error(
        `${fileName} could not be fetched (HTTP ${response.status}): ` +
          'the server that held it has stopped; run scope-speedscope view again.',
      );
    }
    const blob = new Blob([await response.blob()], { type: 'application/json' });
    // The server counted the calls (the viewer's budget weighs them).
    const calls = Number(response.headers.get('X-Scope-Speedscope-Calls') ?? 0);
    outputs.push({ fileName, blob, size: blob.size, calls });
  }
  show(outputs);
  return true;
}
