// shell.js — what every page shares: breadcrumbs, the status line, and
// the names learnt on the way (ids -> names, for the crumbs).
import * as api from './api.js';
import {h, clear} from './dom.js';

const crumbsEl = document.getElementById('crumbs');
const statusEl = document.getElementById('status');

// Names learnt on the way (customer and site ids -> names), for crumbs.
export const names = new Map();
export const label = id => names.get(id) || id;

export function status(text) {
  statusEl.textContent = text;
}

export function crumbs(list) {
  const items = list.map(([text, href], i) => h('li', {},
    i === list.length - 1 ? h('span', {'aria-current': 'page'}, text) : h('a', {href}, text)));
  clear(crumbsEl, h('ol', {}, items));
}

export function home() {
  const s = api.current();
  return s && s.kind === 'installed' ? `#/c/${s.customer}` : '#/customers';
}

export function customerCrumbs(c) {
  const s = api.current();
  const list = s && s.kind === 'portal' ? [['Customers', '#/customers']] : [];
  return [...list, [label(c), `#/c/${c}`]];
}

