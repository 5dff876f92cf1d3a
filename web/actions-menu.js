// The bar's actions (Download, Open in a new tab, Full screen: #actions-list)
// folded into one menu button on narrow screens (at most NARROW px: the
// button #actions-menu, its menu the same elements, so they keep their ids
// and test ids). Wide, they are a row of buttons as before and the menu
// button is hidden. The menu follows the WAI-ARIA menu button pattern:
// Enter, Space, a click or ↓ open it on its first item (↑: its last), ↑/↓
// move (round), Home/End, Escape closes it and returns the focus to the
// button, Tab or a click elsewhere closes it, choosing an item closes it.
// Full screen, a toggle, is a menuitemcheckbox (aria-checked) in the menu
// and a button with aria-pressed in the row (markPressed sets either).

import { $ } from './dom.js';

const NARROW = '(max-width: 600px)';

let narrow = null; // the media query
let open = false;

const items = () => [...$('actions-list').children];
const shownItems = () => items().filter((item) => !item.hidden);

// The toggle's state, in the way the current layout says it.
export function markPressed(button, on) {
  button.dataset.on = String(on);
  if (narrow?.matches) {
    button.removeAttribute('aria-pressed');
    button.setAttribute('aria-checked', String(on));
  } else {
    button.removeAttribute('aria-checked');
    button.setAttribute('aria-pressed', String(on));
  }
}

// The roles and the menu button for the layout (narrow: a menu).
function layout() {
  const menu = narrow.matches;
  if (!menu) close(false);
  $('bar-actions').classList.toggle('as-menu', menu);
  const list = $('actions-list');
  if (menu) {
    list.setAttribute('role', 'menu');
    list.setAttribute('aria-labelledby', 'actions-menu');
  } else {
    list.removeAttribute('role');
    list.removeAttribute('aria-labelledby');
  }
  for (const item of items()) {
    if (menu) {
      item.setAttribute('role', item.hasAttribute('data-on') ? 'menuitemcheckbox' : 'menuitem');
      item.tabIndex = -1;
    } else {
      item.removeAttribute('role');
      item.removeAttribute('tabindex');
    }
    if (item.hasAttribute('data-on')) markPressed(item, item.dataset.on === 'true');
  }
  showButton();
}

// The menu button shows on narrow screens while an action is there to show.
function showButton() {
  const button = $('actions-menu');
  button.hidden = !narrow.matches || !shownItems().length;
  if (button.hidden) close(false);
}

function openMenu(focusLast = false) {
  const shown = shownItems();
  if (!shown.length) return;
  open = true;
  $('bar-actions').classList.add('open');
  $('actions-menu').setAttribute('aria-expanded', 'true');
  (focusLast ? shown.at(-1) : shown[0]).focus();
}

// Closes the menu; refocus: the focus returns to the menu button.
function close(refocus) {
  if (!open) return;
  open = false;
  $('bar-actions').classList.remove('open');
  $('actions-menu').setAttribute('aria-expanded', 'false');
  if (refocus) $('actions-menu').focus();
}

function onButtonKey(e) {
  if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    e.preventDefault();
    openMenu(e.key === 'ArrowUp');
  }
}

function onMenuKey(e) {
  const shown = shownItems();
  const i = shown.indexOf(document.activeElement);
  const to = { ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: shown.length - 1 }[e.key];
  if (to !== undefined) {
    e.preventDefault();
    shown[(to + shown.length) % shown.length].focus();
  } else if (e.key === 'Escape') {
    e.preventDefault();
    e.stopPropagation();
    close(true);
  } else if (e.key === 'Tab') {
    close(false);
  } else if (e.key === ' ' && document.activeElement?.tagName === 'A') {
    e.preventDefault(); // a link in a menu takes Space as Enter
    document.activeElement.click();
  }
}

export function setUp() {
  narrow = window.matchMedia(NARROW);
  narrow.addEventListener('change', layout);
  const button = $('actions-menu');
  button.addEventListener('click', () => (open ? close(false) : openMenu()));
  button.addEventListener('keydown', onButtonKey);
  const list = $('actions-list');
  list.addEventListener('keydown', (e) => open && onMenuKey(e));
  // Chosen: closed once the item's own action ran, the focus back on the button.
  list.addEventListener('click', () => open && setTimeout(() => close(true)));
  document.addEventListener('pointerdown', (e) => {
    if (open && !$('bar-actions').contains(e.target)) close(false);
  });
  new MutationObserver(showButton).observe(list, { subtree: true, attributeFilter: ['hidden'] });
  layout();
}
