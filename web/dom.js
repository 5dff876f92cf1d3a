// DOM helpers and number formatting, shared by the page's modules. Text from
// files is only ever set as text (textContent, attributes), never parsed as HTML.

export const $ = (id) => document.getElementById(id);

// el('p', { className: 'hint', text: 'x', 'data-testid': 't' }, child, 'text', ...)
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value == null || value === false) continue;
    if (key === 'className') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
    else if (key in node && typeof value !== 'string') node[key] = value;
    else node.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child == null || child === false) continue;
    node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return node;
}

export function show(node, visible) {
  node.hidden = !visible;
}

const integer = new Intl.NumberFormat('en-US');
export const count = (n) => integer.format(n);

export function plural(n, one, many = `${one}s`) {
  return `${count(n)} ${n === 1 ? one : many}`;
}

export function bytes(n) {
  if (n < 1000) return `${n} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = -1;
  do {
    v /= 1000;
    u++;
  } while (v >= 1000 && u < units.length - 1);
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[u]}`;
}

// A time estimate as people say it: "under a second", "about 12 s", "about 3 min".
export function seconds(s) {
  if (s < 1) return 'under a second';
  if (s < 90) return `about ${Math.round(s)} s`;
  return `about ${Math.round(s / 60)} min`;
}

// A duration in seconds as people read it: 1.5 s, 20 ms, 300 µs.
export function duration(s) {
  const abs = Math.abs(s);
  const fmt = (v, unit) => `${Number(v.toPrecision(3))} ${unit}`;
  if (abs >= 1 || abs === 0) return fmt(s, 's');
  if (abs >= 1e-3) return fmt(s * 1e3, 'ms');
  if (abs >= 1e-6) return fmt(s * 1e6, 'µs');
  return fmt(s * 1e9, 'ns');
}

// Waits until the browser has laid out and painted pending changes.
export const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
