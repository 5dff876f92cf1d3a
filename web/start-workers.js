// Starts the page's two workers (the converter's and the timeline's, see
// site.js) as soon as the page is parsed, before app.js's modules have all
// loaded (an async module of one import: it does not wait for them). Each
// worker loads its modules and compiles the wasm at once (worker.js), so a
// file chosen right after the page appears finds them ready; app.js's clients
// take them through createWorker(). Not in the single-file page (it makes its
// workers from inlined data when app.js asks).

import { prestartWorkers } from './site.js';

prestartWorkers(2);
