// The page's parts: its one engine (a worker and a wasm module that reads
// each file once, answers the timeline and writes the downloads), the
// viewer and the timeline view.

import { $ } from './dom.js';
import { EngineClient } from './engine-client.js';
import { createRemoteEngine, SERVED } from './remote-engine.js';
import { viewChanged } from './flow-link.js';
import { timelinePainted } from './flow-timeline.js';
import { viewerStatus } from './flow-viewer.js';
import * as site from './site.js';
import { TimelineView } from './timeline/view.js';
import { Viewer } from './viewer.js';

export const params = new URLSearchParams(window.location.search);

// One engine (one worker, one wasm module) reads each file once, answers the
// timeline and writes the downloads.
// Served by `scope-speedscope serve RUN.h5`: the server's native engine,
// which reports no progress (so no request of it is given up for silence).
// Its downloads are written in slices (?export-events=N: N events a slice,
// tests); a server's in one request.
export const engine = new EngineClient(SERVED ? createRemoteEngine : site.createWorker, {
  watch: !SERVED,
  exportSlices: SERVED ? 0 : Number(params.get('export-events')) || true,
});

export const viewer = new Viewer({
  box: $('viewer-frame'),
  load: site.loadViewer,
  onStatus: (...a) => viewerStatus(...a),
});

export const timeline = new TimelineView({
  client: engine,
  onPainted: (info) => timelinePainted(info),
  onView: (how) => viewChanged(how),
});
