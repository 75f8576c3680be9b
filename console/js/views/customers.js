// customers.js — a portal's customers (GET /spe/customers, paged).
import * as api from '../api.js';
import {h, clear, fill, table} from '../dom.js';
import {names, crumbs} from '../shell.js';

const SERVICES = [['origin_protection', 'Origin/CleanPipe'], ['application_protection', 'Application'],
  ['dns_protection', 'DNS'], ['cdn_federation', 'CDN']];

export async function render(main) {
  crumbs([['Customers', '#/customers']]);
  const list = h('div');
  clear(main, h('h1', {}, 'Customers'), list);
  const load = page => fill(list, async () => {
    const r = await api.get('/spe/customers', {page, page_size: 20});
    for (const c of r.customer) names.set(c.customer_id, c.customer_name);
    return [
      table('Customers of this portal', [
        {label: 'Customer', header: true,
          value: c => h('a', {href: `#/c/${c.customer_id}`}, c.customer_name)},
        {label: 'Customer id', value: c => h('code', {}, c.customer_id)},
        {label: 'Services', value: c => SERVICES.filter(([k]) => c.protect_services?.[k]).map(([, n]) => n)
          .join(', ') || 'none'},
      ], r.customer, 'this portal has no customers yet.'),
      h('nav', {class: 'pager', 'aria-label': 'Customer pages'},
        h('button', {type: 'button', disabled: r.page <= 1, onclick: () => load(r.page - 1)}, 'Previous'),
        h('span', {}, `Page ${r.page} of ${Math.max(r.pages, 1)}`),
        h('button', {type: 'button', disabled: r.page >= r.pages, onclick: () => load(r.page + 1)}, 'Next')),
    ];
  });
  await load(1);
}
