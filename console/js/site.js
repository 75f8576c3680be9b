// site.js — what every page of one site shares: its crumbs and its
// heading, first with the name known (or its id), then with the name its
// own record gives (GET {customer}/{op|cp|ap}/site/{id}), so that a page
// opened by its address names its site too.
import * as api from './api.js';
import {h} from './dom.js';
import {names, label, crumbs, customerCrumbs} from './shell.js';

const SHORT = {op: 'OP', cp: 'CleanPipe', ap: 'AP'};

export async function readSite(c, family, s) {
  const got = await api.get(`/spe/customer/${api.enc(c)}/${family}/site/${api.enc(s)}`);
  const site = Array.isArray(got) ? got[0] : got; // the OP read answers a one-element array
  names.set(s, site.site_name);
  return site;
}

// title: name => the h1's text, or null for a page with an h1 of its own;
// more: the crumbs after the site's. Returns {h1, site: a promise of the
// site's record}.
export function siteHeading(c, family, s, title, more = []) {
  const h1 = title ? h('h1', {}, title(label(s))) : null;
  const show = () => {
    if (h1) h1.textContent = title(label(s));
    crumbs([...customerCrumbs(c), [`${SHORT[family]} ${label(s)}`, `#/c/${c}/${family}/${s}`], ...more]);
  };
  show();
  const site = readSite(c, family, s);
  const customer = names.has(c) ? null :
    api.get(`/spe/customer/${api.enc(c)}`).then(r => names.set(c, r.customer_name));
  // a failed read: the page shows it where it awaits the site
  Promise.allSettled([site, customer]).then(show);
  return {h1, site};
}

export const configLink = (c, family, s) =>
  h('p', {}, h('a', {href: `#/c/${c}/${family}/${s}/config`}, 'Configuration of this site'));
