// Starts the page's one engine worker (engine-client.js, site.js) as soon
// as the page is parsed, before app.js's modules have all
// loaded (an async module of one import: it does not wait for them). The
// worker loads its modules and compiles the wasm at once (worker.js), so a
// file chosen right after the page appears finds them ready; app.js's engine
// takes it through createWorker(). Not in the single-file page (it makes its
// workers from inlined data when app.js asks).

import { prestartWorkers } from './site.js';

// A page `scope-speedscope serve RUN.h5` serves has its engine there
// (remote-engine.js): no worker.
const params = new URLSearchParams(window.location.search);
if (!params.has('token') && !params.has('served')) prestartWorkers(1);
