// The viewer bridge: a classic script that build-web.mjs puts into the bundled
// speedscope page, before speedscope's own script.
//
// The page shows speedscope in a sandboxed frame (sandbox="allow-scripts", no
// allow-same-origin): an opaque origin that Chromium runs in its own process,
// so speedscope's work and memory can neither freeze nor kill the page. In that
// frame this bridge
//   - tells the page it is ready:          { source, type: 'ready' } + a MessagePort (the heartbeat)
//   - takes an output from the page:       { type: 'show', name, blob }
//     and hands it to speedscope as a dropped file (speedscope has no API; its
//     drop handler works from any origin and protocol, http:, https: or file:);
//   - reports what happens:                { source, type: 'importing' | 'painted' | 'failed', ... }
//     'painted' once the flame chart has been drawn (WebGL draw calls and label
//     pixels on the overlay canvas), not when the title changes;
//   - beats on the port from a worker every 250 ms, so the page notices when
//     this frame's process dies (out of memory) even while speedscope keeps the
//     frame's main thread busy for a minute importing.
// speedscope opened on its own (a tab) is left alone. One block: its names
// stay out of speedscope's global scope.
'use strict';

{
  const SOURCE = 'scope-speedscope-viewer';
  const post = (type, extra = {}) => {
    try {
      // The page's origin cannot be named from an opaque origin; nothing here is secret.
      window.parent.postMessage({ source: SOURCE, type, ...extra }, '*');
    } catch {
      // the page went away
    }
  };
  const messageOf = (value) => String(value?.message ?? value ?? 'unknown error');
  const log = console.log.bind(console);

  // Storage throws in an opaque origin; speedscope reads its colour scheme from
  // localStorage. An in-memory stand-in keeps it working (nothing to persist).
  const keepStorage = () => {
    try {
      void window.localStorage;
    } catch {
      const items = new Map();
      const storage = {
        getItem: (k) => (items.has(String(k)) ? items.get(String(k)) : null),
        setItem: (k, v) => {
          items.set(String(k), String(v));
        },
        removeItem: (k) => {
          items.delete(String(k));
        },
        clear: () => items.clear(),
        key: (i) => [...items.keys()][i] ?? null,
        get length() {
          return items.size;
        },
      };
      const proxy = new Proxy(storage, {
        get: (t, k) => (k in t ? t[k] : (t.getItem(k) ?? undefined)),
        set: (t, k, v) => {
          t.setItem(k, v);
          return true;
        },
      });
      Object.defineProperty(window, 'localStorage', { value: proxy, configurable: true });
    }
  };

  // ---- failures ---------------------------------------------------------------
  let job = null; // { name, started, glAtStart, painted, failed }
  const fail = (message) => {
    if (!job || job.failed) return;
    job.failed = true;
    post('failed', { name: job.name, message, tooDeep: /Maximum call stack size exceeded/i.test(message) });
  };
  // speedscope reports an unreadable file with alert() or console.log("Failed to load format", error).
  const watchFailures = () => {
    window.alert = (message) => fail(messageOf(message));
    console.log = (...args) => {
      if (args[0] === 'Failed to load format') fail(messageOf(args[1]));
      log(...args);
    };
    window.addEventListener('error', (e) => fail(messageOf(e.error ?? e.message)));
    window.addEventListener('unhandledrejection', (e) => fail(messageOf(e.reason)));
  };

  // ---- painting ---------------------------------------------------------------
  // speedscope draws rectangles with WebGL (a buffer that cannot be read back
  // once shown) and labels on 2D overlay canvases. Count the WebGL draw calls
  // and remember the canvases that got labels; their pixels can be read.
  let glDraws = 0;
  const labelled = new Set();
  const countDraws = (proto, names) => {
    for (const name of names) {
      const original = proto?.[name];
      if (typeof original !== 'function') continue;
      proto[name] = function countedDraw(...args) {
        glDraws++;
        return original.apply(this, args);
      };
    }
  };
  const watchDrawing = () => {
    countDraws(window.WebGLRenderingContext?.prototype, ['drawArrays', 'drawElements']);
    const getExtension = window.WebGLRenderingContext?.prototype.getExtension;
    if (getExtension) {
      // Extension objects have no global interface to patch: wrap what is handed out.
      WebGLRenderingContext.prototype.getExtension = function countedExtension(name) {
        const ext = getExtension.call(this, name);
        if (ext && name === 'ANGLE_instanced_arrays' && !ext.counted) {
          ext.counted = true;
          countDraws(ext, ['drawArraysInstancedANGLE', 'drawElementsInstancedANGLE']);
        }
        return ext;
      };
    }
    const fillText = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function labelledText(...args) {
      if (job && !job.painted) labelled.add(this.canvas);
      return fillText.apply(this, args);
    };
  };

  const probe = document.createElement('canvas');
  probe.width = 48;
  probe.height = 48;
  const probeContext = probe.getContext('2d', { willReadFrequently: true });
  const hasInk = (canvas) => {
    if (!canvas.isConnected || !canvas.width || !canvas.height) return false;
    probeContext.clearRect(0, 0, probe.width, probe.height);
    probeContext.drawImage(canvas, 0, 0, probe.width, probe.height);
    const data = probeContext.getImageData(0, 0, probe.width, probe.height).data;
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) return true;
    return false;
  };
  const checkPainted = () => {
    if (!job || job.painted || job.failed) return;
    if (glDraws > job.glAtStart && [...labelled].some(hasInk)) {
      job.painted = true;
      post('painted', { name: job.name, ms: Math.round(performance.now() - job.started) });
      return;
    }
    setTimeout(() => requestAnimationFrame(checkPainted), 100);
  };

  // ---- heartbeat ----------------------------------------------------------------
  // A worker beats on a MessagePort whose other end goes to the page with
  // 'ready'. It starts at once, while this frame is idle: once speedscope
  // imports, the frame's main thread may not get to start anything for a minute.
  let heartbeat = null; // { worker, port (the page's end), up }
  const startHeartbeat = () => {
    const code =
      'onmessage = (e) => { const p = e.ports[0]; const beat = () => p.postMessage("alive");' +
      ' beat(); setInterval(beat, 250); postMessage("up"); };';
    try {
      const worker = new Worker(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })));
      const channel = new MessageChannel();
      heartbeat = { worker, port: channel.port2, up: false };
      worker.onmessage = () => {
        heartbeat.up = true;
      };
      worker.postMessage(null, [channel.port1]);
    } catch (err) {
      heartbeat = null;
      log('scope-speedscope bridge: no heartbeat', err);
    }
  };

  // ---- hand-off ---------------------------------------------------------------
  const appRoot = () => document.querySelector('body > div');
  const show = ({ name, blob }) => {
    const root = appRoot();
    if (!root || !(blob instanceof Blob)) {
      post('failed', { name, message: 'the viewer received no profile' });
      return;
    }
    labelled.clear();
    job = { name, started: performance.now(), glAtStart: glDraws, painted: false, failed: false };
    const data = new DataTransfer();
    data.items.add(new File([blob], name, { type: 'application/json' }));
    root.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    post('importing', { name });
    requestAnimationFrame(checkPainted);
  };

  // Ready once speedscope has mounted its application (it renders into body)
  // and the heartbeat runs; the page gets the heartbeat's port.
  const announce = () => {
    if (!appRoot() || (heartbeat && !heartbeat.up)) {
      setTimeout(announce, 20);
      return;
    }
    try {
      window.parent.postMessage({ source: SOURCE, type: 'ready' }, '*', heartbeat ? [heartbeat.port] : []);
    } catch {
      // the page went away
    }
  };

  if (window.parent !== window) {
    keepStorage();
    watchFailures();
    watchDrawing();
    startHeartbeat();
    window.addEventListener('message', (event) => {
      if (event.source !== window.parent || event.data?.type !== 'show') return;
      show(event.data);
    });
    if (document.readyState === 'complete') announce();
    else window.addEventListener('load', announce);
  }
}
