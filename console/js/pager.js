// pager.js — "Previous / Next" over an offset-paged list of the API.
import {h} from './dom.js';

// offset, size, total: numbers; go(newOffset) reloads the list.
export function pager(what, offset, size, total, go) {
  const last = Math.min(offset + size, total);
  const text = total === 0 ? `No ${what}` : `${what} ${offset + 1}–${last} of ${total}`;
  return h('nav', {class: 'pager', 'aria-label': `${what}: pages`},
    h('button', {type: 'button', disabled: offset === 0, onclick: () => go(Math.max(0, offset - size))},
      'Previous'),
    h('span', {'aria-live': 'polite'}, text),
    h('button', {type: 'button', disabled: last >= total, onclick: () => go(offset + size)}, 'Next'));
}
