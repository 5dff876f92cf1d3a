// For the benchmarks that drive the page: an init script (page.addInitScript)
// that times every request the page sends its engine worker, from its
// postMessage to the worker's answer (progress aside), into
// window.benchRequests: { type, at, phase (the page's, when sent), ms }.
export function timeEngineRequests() {
  window.benchRequests = [];
  const sent = new Map();
  const watched = new WeakSet();
  const send = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (!watched.has(this)) {
      watched.add(this);
      this.addEventListener('message', ({ data }) => {
        const s = sent.get(data?.id);
        if (!s || data.type === 'progress') return;
        sent.delete(data.id);
        window.benchRequests.push({ ...s, ms: performance.now() - s.at });
      });
    }
    if (message?.type) {
      sent.set(message.id, { type: message.type, at: performance.now(), phase: document.body.dataset.phase });
    }
    return send.call(this, message, ...rest);
  };
}
