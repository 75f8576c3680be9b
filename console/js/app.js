// app.js — the console's entry: sign-in state and the hash router (#/...:
// ids only, never a token). Each page is a module of views/; shell.js
// holds what they share.
import * as api from './api.js';
import {h, clear} from './dom.js';
import {names, status, crumbs, home} from './shell.js';
import * as signin from './views/signin.js';
import * as customers from './views/customers.js';
import * as customer from './views/customer.js';
import * as opSite from './views/op_site.js';
import * as opEvent from './views/op_event.js';
import * as opConfig from './views/op_config.js';
import * as cpSite from './views/cp_site.js';
import * as cpConfig from './views/cp_config.js';
import * as apSite from './views/ap_site.js';
import * as wafEvent from './views/waf_event.js';
import * as apConfig from './views/ap_config.js';

const ID = '([A-Za-z0-9._:-]+)';
const routes = [
  [new RegExp('^#/customers$'), customers],
  [new RegExp(`^#/c/${ID}$`), customer, ['c']],
  [new RegExp(`^#/c/${ID}/op/${ID}$`), opSite, ['c', 's']],
  [new RegExp(`^#/c/${ID}/op/${ID}/event/${ID}$`), opEvent, ['c', 's', 'e']],
  [new RegExp(`^#/c/${ID}/op/${ID}/config$`), opConfig, ['c', 's']],
  [new RegExp(`^#/c/${ID}/cp/${ID}$`), cpSite, ['c', 's']],
  [new RegExp(`^#/c/${ID}/cp/${ID}/config$`), cpConfig, ['c', 's']],
  [new RegExp(`^#/c/${ID}/ap/${ID}$`), apSite, ['c', 's']],
  [new RegExp(`^#/c/${ID}/ap/${ID}/waf/${ID}$`), wafEvent, ['c', 's', 'e']],
  [new RegExp(`^#/c/${ID}/ap/${ID}/config$`), apConfig, ['c', 's']],
];

const main = document.getElementById('main'); // the landmark: the status line and the page
const page = document.getElementById('page');
const signoutBtn = document.getElementById('signout');

let rendering = 0;

async function route() {
  const hash = location.hash || '#/';
  if (!hash.startsWith('#/')) return; // an in-page anchor (the skip link)
  const mine = ++rendering;
  signoutBtn.hidden = !api.current();
  status('');
  if (!api.current()) {
    crumbs([['Sign in', '#/']]);
    signin.render(page, () => {
      if (location.hash === '#/' || !location.hash) location.hash = home();
      else route();
    });
    return;
  }
  if (hash === '#/') {
    location.hash = home();
    return;
  }
  for (const [re, view, keys = []] of routes) {
    const m = re.exec(hash);
    if (!m) continue;
    const params = Object.fromEntries(keys.map((k, i) => [k, decodeURIComponent(m[i + 1])]));
    clear(page);
    await view.render(page, params);
    if (mine === rendering) {
      document.title = `${page.querySelector('h1')?.textContent || 'parapet'} — parapet console`;
      main.focus({preventScroll: true});
    }
    return;
  }
  crumbs([['Not found', hash]]);
  clear(page, h('h1', {}, 'No such page'), h('p', {}, h('a', {href: home()}, 'Back to the start')));
}

signoutBtn.addEventListener('click', () => {
  api.signOut();
  names.clear();
  if (location.hash === '#/') route();
  else location.hash = '#/'; // routed once, by hashchange
});
// The skip link moves focus to the page's content without leaving the
// route in the address bar (its #main is for a browser without script).
document.querySelector('a.skip').addEventListener('click', ev => {
  ev.preventDefault();
  main.focus();
});
window.addEventListener('hashchange', route);
route();
