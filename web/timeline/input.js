// Pointer, touch, wheel and keyboard input of the timeline. It turns events
// into the view's verbs (zoomAt, pan, scrollBy, hoverAt, clickAt, ...); the
// view (view.js) owns the state and the drawing.
//
//   wheel           zoom around the pointer (a trackpad's pinch too); sideways: pan;
//                   Shift + wheel: scroll the bands
//   drag            pan in time and scroll the bands; two fingers: pinch zoom
//   drag on the axis  zoom to that range
//   click / double click   select a call / zoom to it
//   keys (the chart focused): see KEYS below

import { AXIS_H } from './draw.js';

export const KEYS =
  'Keys: ←/→ pan, ↑/↓ scroll, + and − zoom, 0 whole run; Enter steps into the calls ' +
  '(arrows move between calls, Enter zooms to one, Space selects it, Esc steps out); / finds regions.';

const ZOOM_STEP = 1.6;

export function wireInput(chart, view) {
  const local = (e) => {
    const r = chart.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  chart.addEventListener('wheel', (e) => onWheel(e, local(e), view), { passive: false });
  wirePointers(chart, view, local);
  chart.addEventListener('dblclick', (e) => {
    const p = local(e);
    view.zoomToCallAt(p.x, p.y);
  });
  chart.addEventListener('keydown', (e) => onKey(e, view));
  chart.addEventListener('focus', () => view.invalidate());
  chart.addEventListener('blur', () => view.invalidate());
}

function onWheel(e, { x }, view) {
  e.preventDefault();
  const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
  const dx = e.deltaX * unit;
  const dy = e.deltaY * unit;
  if (e.shiftKey && !e.ctrlKey) {
    view.scrollBy(dy || dx);
    return;
  }
  if (Math.abs(dx) > Math.abs(dy)) {
    view.panPx(dx);
    return;
  }
  view.zoomAt(x, Math.exp(dy * (e.ctrlKey ? 0.01 : 0.002)));
}

// Pointers: a drag pans (or, from the axis, picks a range), two fingers
// pinch, a press without moving clicks; a mouse that moves hovers. While a
// pointer is down the ranks' rows keep their order (view.holdLayout).
function wirePointers(chart, view, local) {
  const pointers = new Map(); // pointerId -> { x, y }
  let drag = null; // { kind: 'pan' | 'range', x, y, lastX, lastY, moved }
  let pinch = null; // { distance, middle }
  const twoFingers = () => {
    const [a, b] = [...pointers.values()];
    return { distance: Math.hypot(a.x - b.x, a.y - b.y), middle: (a.x + b.x) / 2 };
  };
  chart.addEventListener('pointerdown', (e) => {
    if (e.button !== 0 && e.pointerType === 'mouse') return;
    chart.setPointerCapture(e.pointerId);
    const p = local(e);
    pointers.set(e.pointerId, p);
    view.holdLayout(true);
    if (pointers.size === 2) {
      pinch = twoFingers();
      drag = null;
      view.setRange(null);
      return;
    }
    drag = { kind: p.y < AXIS_H ? 'range' : 'pan', x: p.x, y: p.y, lastX: p.x, lastY: p.y, moved: false };
  });
  chart.addEventListener('pointermove', (e) => {
    const p = local(e);
    if (pointers.has(e.pointerId)) pointers.set(e.pointerId, p);
    if (pinch && pointers.size >= 2) {
      const now = twoFingers();
      if (now.distance > 0 && pinch.distance > 0) view.zoomAt(now.middle, pinch.distance / now.distance);
      view.panPx(pinch.middle - now.middle);
      pinch = now;
    } else if (!drag) {
      if (e.pointerType === 'mouse') view.hoverAt(p.x, p.y);
    } else {
      dragTo(drag, p, chart, view);
    }
  });
  const end = (e) => {
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinch = null;
    chart.classList.remove('dragging');
    if (drag) {
      const released = drag;
      drag = null;
      dragEnded(released, e, local(e), view);
    }
    if (!pointers.size) view.holdLayout(false);
  };
  chart.addEventListener('pointerup', end);
  chart.addEventListener('pointercancel', end);
  chart.addEventListener('pointerleave', (e) => {
    if (e.pointerType === 'mouse' && !drag) view.hoverAt(null);
  });
}

// A drag moved to `p`: past 4 px it pans and scrolls, or picks the range.
function dragTo(drag, p, chart, view) {
  if (Math.abs(p.x - drag.x) + Math.abs(p.y - drag.y) > 4) drag.moved = true;
  if (!drag.moved) return;
  if (drag.kind === 'range') {
    view.setRange([drag.x, p.x]);
  } else {
    view.panPx(drag.lastX - p.x);
    view.scrollBy(drag.lastY - p.y);
    chart.classList.add('dragging');
  }
  drag.lastX = p.x;
  drag.lastY = p.y;
}

// A drag released at `p`: a range zooms to it, a press that did not move clicks.
function dragEnded(drag, e, p, view) {
  if (e.type === 'pointercancel') {
    view.setRange(null);
  } else if (drag.kind === 'range' && drag.moved) {
    view.zoomToRangePx(drag.x, p.x);
  } else if (!drag.moved) {
    view.clickAt(p.x, p.y, { touch: e.pointerType !== 'mouse' });
  }
}

function onKey(e, view) {
  if (e.altKey || e.metaKey || (e.ctrlKey && e.key !== 'f')) return;
  const focus = view.hasFocusedCall;
  let handled = true;
  switch (e.key) {
    case '+':
    case '=':
      view.zoomCentre(1 / ZOOM_STEP);
      break;
    case '-':
    case '_':
      view.zoomCentre(ZOOM_STEP);
      break;
    case '0':
      view.reset();
      break;
    case 'ArrowLeft':
      if (focus) view.moveFocus('previous');
      else view.panFraction(-0.1);
      break;
    case 'ArrowRight':
      if (focus) view.moveFocus('next');
      else view.panFraction(0.1);
      break;
    case 'ArrowUp':
      if (focus) view.moveFocus('parent');
      else view.scrollBy(-3 * 18);
      break;
    case 'ArrowDown':
      if (focus) view.moveFocus('child');
      else view.scrollBy(3 * 18);
      break;
    case 'PageUp':
      if (focus) view.moveFocus('lane-previous');
      else view.scrollBy(-view.pageHeight);
      break;
    case 'PageDown':
      if (focus) view.moveFocus('lane-next');
      else view.scrollBy(view.pageHeight);
      break;
    case 'Enter':
      if (focus) view.zoomToFocused();
      else view.focusFirst();
      break;
    case ' ':
      if (focus) view.selectFocused();
      else handled = false;
      break;
    case 'Escape':
      if (focus) view.unfocus();
      else handled = false;
      break;
    default:
      handled = false;
  }
  if (handled) e.preventDefault();
}
