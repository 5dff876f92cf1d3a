// The side panel's width (wide screens, where the lanes, regions and ranks
// stand beside the chart): a separator on its left edge
// ([data-testid=side-resize], role separator) that a pointer drags and
// the keyboard moves (←/→ 16 px, Shift 64 px, Home the widest, End the
// narrowest), within MIN_PX and MAX_SHARE of the timeline's width. The
// width is the timeline box's --tl-side-width (CSS), kept for the page's
// next visit (localStorage), and said as the separator's value. Below
// 1,000 px (the side under the chart) and while Options take the side, the
// separator is hidden.

const MIN_PX = 260;
const MAX_SHARE = 0.6;
const STEP_PX = 16;
const BIG_STEP_PX = 64;
const KEY = 'scope-speedscope.side-width';

const byId = (id) => document.getElementById(id);

export function wireSideResize() {
  const box = byId('timeline-box');
  const side = box.querySelector('.tl-side');
  const handle = byId('tl-side-resize');
  const wide = window.matchMedia('(min-width: 1000px)');
  let chosen = Number(localStorage.getItem(KEY)) || null;

  const bounds = () => {
    const total = box.getBoundingClientRect().width;
    return { min: MIN_PX, max: Math.max(MIN_PX, Math.floor(total * MAX_SHARE)) };
  };
  const clamp = (px) => {
    const { min, max } = bounds();
    return Math.round(Math.min(max, Math.max(min, px)));
  };
  // The width asked for, within the bounds of the box as it is now (a box
  // not laid out yet, hidden or narrow, leaves it as asked).
  const apply = () => {
    if (!chosen) return;
    const fits = box.getBoundingClientRect().width > 0 ? clamp(chosen) : chosen;
    box.style.setProperty('--tl-side-width', `${fits}px`);
  };
  // Where the separator stands, and what it says.
  const place = () => {
    const shown = wide.matches && side.offsetParent !== null && getComputedStyle(side).display !== 'none';
    handle.hidden = !shown;
    if (!shown) return;
    apply();
    const width = Math.round(side.getBoundingClientRect().width);
    const { min, max } = bounds();
    handle.style.left = `${side.offsetLeft + 1}px`; // on the side's edge, off the chart's last pixel
    handle.setAttribute('aria-valuemin', String(min));
    handle.setAttribute('aria-valuemax', String(max));
    handle.setAttribute('aria-valuenow', String(width));
    handle.setAttribute('aria-valuetext', `side panel ${width} px wide`);
  };
  const set = (px) => {
    chosen = clamp(px);
    localStorage.setItem(KEY, String(chosen));
    place();
  };
  apply();

  handle.addEventListener('keydown', (e) => {
    const now = side.getBoundingClientRect().width;
    const step = e.shiftKey ? BIG_STEP_PX : STEP_PX;
    const moves = {
      ArrowLeft: () => set(now + step),
      ArrowRight: () => set(now - step),
      Home: () => set(bounds().max),
      End: () => set(bounds().min),
    };
    if (!moves[e.key]) return;
    e.preventDefault();
    moves[e.key]();
  });
  handle.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    e.preventDefault();
    handle.setPointerCapture(e.pointerId);
    handle.classList.add('dragging');
    const right = box.getBoundingClientRect().right;
    // Where on the separator it was taken: the side's edge keeps that distance.
    const grab = e.clientX - side.getBoundingClientRect().left;
    const move = (ev) => set(right - (ev.clientX - grab));
    const up = () => {
      handle.classList.remove('dragging');
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', up);
      handle.removeEventListener('pointercancel', up);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', up);
    handle.addEventListener('pointercancel', up);
  });
  new ResizeObserver(place).observe(box);
  new ResizeObserver(place).observe(side);
  wide.addEventListener('change', place);
  place();
}
