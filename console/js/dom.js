// dom.js — building the page from API data without HTML strings: every
// value goes in as text (textContent), so nothing the API answers can run.

// h('a', {href: '#/x', class: 'btn', onclick: fn}, 'text', child, ...)
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'value' || k === 'checked' || k === 'selected') el[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  add(el, children);
  return el;
}

function add(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
}

export function clear(el, ...children) {
  el.replaceChildren();
  add(el, children);
  return el;
}

let ids = 0;
export function uid(prefix) {
  ids += 1;
  return `${prefix}-${ids}`;
}

// A titled region of a page.
export function section(title, ...children) {
  const id = uid('sec');
  return h('section', {class: 'card', 'aria-labelledby': id}, h('h2', {id}, title), ...children);
}

// columns: [{label, value: row => text|Node, num: bool, raw: row => number}]
// A raw value goes to the cell's data-value, for readers that want the
// number the API answered rather than its display.
export function table(caption, columns, rows, empty = 'None.') {
  if (!rows || rows.length === 0) return h('p', {class: 'empty'}, `${caption}: ${empty}`);
  const head = h('tr', {}, columns.map(c => h('th', {scope: 'col', class: c.num ? 'num' : null}, c.label)));
  const body = rows.map(r => h('tr', {}, columns.map((c, i) => {
    const v = c.value(r);
    const attrs = {class: c.num ? 'num' : null, dataset: c.raw ? {value: String(c.raw(r))} : undefined};
    return i === 0 && c.header ? h('th', {scope: 'row', ...attrs}, v) : h('td', attrs, v);
  })));
  return h('div', {class: 'scroll', tabindex: '0', role: 'region', 'aria-label': caption},
    h('table', {}, h('caption', {}, caption), h('thead', {}, head), h('tbody', {}, body)));
}

// A labelled form control: field('Site IP', h('input', {...}))
export function field(label, control, hint) {
  const id = control.id || uid('f');
  control.id = id;
  const hintId = hint ? `${id}-hint` : null;
  if (hintId) control.setAttribute('aria-describedby', hintId);
  return h('div', {class: 'field'}, h('label', {for: id}, label), control,
    hint ? h('span', {class: 'hint', id: hintId}, hint) : null);
}

export function select(name, options, value) {
  return h('select', {name}, options.map(([v, text]) =>
    h('option', {value: v, selected: String(v) === String(value)}, text)));
}

// The API's failure, as it said it: its message verbatim, and its code.
export function apiError(err) {
  return h('div', {class: 'error', role: 'alert'},
    h('span', {class: 'error-msg'}, err.msg ?? String(err)),
    err.code ? h('span', {class: 'error-code'}, ` (code ${err.code}, HTTP ${err.status})`) : null);
}

// What a control is to the person using it: its role and its name.
const focusKey = e => `${e.tagName}|${e.getAttribute('aria-label') || e.textContent.trim()}`;

// Fills el with what render() returns, or with the API's error. Keyboard
// focus inside el (a pager's Next, a Save) is not lost with the old
// content: it goes to the same control redrawn, else to el itself.
export async function fill(el, render) {
  const had = el.contains(document.activeElement) ? focusKey(document.activeElement) : null;
  clear(el, h('p', {class: 'loading'}, 'Loading…'));
  if (had) focusWithin(el, null);
  try {
    clear(el, await render());
  } catch (err) {
    clear(el, apiError(err));
    if (!err.code) console.warn(err); // not the API's: a fault of the console
  }
  if (had && (!document.activeElement || document.activeElement === document.body ||
      document.activeElement === el)) focusWithin(el, had);
}

// Focuses the enabled control of el with that key, else el itself.
function focusWithin(el, key) {
  const same = key && [...el.querySelectorAll('a[href], button, input, select, textarea, summary')]
    .find(c => !c.disabled && focusKey(c) === key);
  if (same) {
    same.focus();
    return;
  }
  if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
  el.focus({preventScroll: true});
}

// One figure of a site's overview: a title, the value, a line under it.
export function stat(title, value, note) {
  return h('div', {class: 'stat'}, h('h3', {}, title), h('p', {class: 'big'}, value), note);
}

export function badge(text, kind) {
  return h('span', {class: `badge ${kind}`}, text);
}
