// What the page benchmarks run in the page to time zooming and panning
// (bench/browser.mjs, bench/serve-page.mjs).

// In the page: a wheel step a frame on the chart, zooming around its middle
// from the whole run to a window of about 1 µs and back out, then panning;
// the gaps between animation frames.
export const ZOOM_SCRIPT = `(async () => {
  const chart = document.querySelector('[data-testid=timeline]');
  const r = chart.getBoundingClientRect();
  const span = () => Number(chart.dataset.viewEnd) - Number(chart.dataset.viewStart);
  const frame = () => new Promise((ok) => requestAnimationFrame(ok));
  const wheel = (dx, dy) => chart.dispatchEvent(new WheelEvent('wheel', { deltaX: dx, deltaY: dy, clientX: r.left + r.width / 2,
    clientY: r.top + r.height / 2, bubbles: true, cancelable: true }));
  const times = [];
  let last = await frame();
  const step = async (dx, dy) => { wheel(dx, dy); const t = await frame(); times.push(t - last); last = t; };
  const whole = span();
  let steps = 0;
  while (span() > 1000 && steps++ < 400) await step(0, -100);
  const deepest = span();
  while (span() < whole * 0.999 && steps++ < 800) await step(0, 100);
  for (let i = 0; i < 60; i++) await step(0, -100);
  for (let i = 0; i < 120; i++) await step(40, 0);
  const sorted = [...times].sort((a, b) => a - b);
  const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return { frames: times.length, medianFrame: q(0.5), p99Frame: q(0.99), worstFrame: sorted.at(-1), deepestSpanNs: deepest };
})()`;
