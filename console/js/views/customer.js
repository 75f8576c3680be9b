// customer.js — one customer: its record and its sites of the three
// families with each data plane's deploy state (the site reports:
// GET {customer}/op|cp|ap/site-report).
import * as api from '../api.js';
import {h, clear, fill, section, table, badge} from '../dom.js';
import {names, crumbs, customerCrumbs} from '../shell.js';

function deployStates(site) {
  const planes = site.dataplane || [];
  if (planes.length === 0) return badge('not deployed yet', 'muted');
  return h('ul', {class: 'plain'}, planes.map(p => h('li', {},
    `${p.plane}: `, badge(p.state, p.state === 'deployed' ? 'ok' : p.state === 'failed' ? 'bad' : 'warn'),
    p.reason ? h('span', {class: 'hint'}, ` ${p.reason}`) : null)));
}

function family(c, kind, title, path, columns) {
  const body = h('div');
  fill(body, async () => {
    const r = await api.get(`/spe/customer/${api.enc(c)}/${path}`);
    for (const s of r.sites) names.set(s.site_id, s.site_name);
    return table(title, [
      {label: 'Site', header: true, value: s => h('a', {href: `#/c/${c}/${kind}/${s.site_id}`}, s.site_name)},
      ...columns,
      {label: 'Deploy state', value: deployStates},
      {label: 'Configuration', value: s => h('a', {href: `#/c/${c}/${kind}/${s.site_id}/config`,
        'aria-label': `Configuration of ${s.site_name}`}, 'Configuration')},
    ], r.sites, 'no sites.');
  });
  return section(title, body);
}

const cidrs = s => (s.cidr || []).join(', ');

export async function render(main, {c}) {
  const head = h('div');
  clear(main, h('h1', {}, names.get(c) || 'Customer'), head,
    family(c, 'op', 'Origin Protection sites', 'op/site-report', [
      {label: 'AS', value: s => String(s.as_num)}, {label: 'Blocks', value: cidrs}]),
    family(c, 'cp', 'CleanPipe sites', 'cp/site-report', [
      {label: 'Blocks', value: cidrs}, {label: 'Hosts', num: true, value: s => String(s.host_count)}]),
    family(c, 'ap', 'Application Protection sites', 'ap/site-report', [
      {label: 'VIPs', value: s => [...(s.vip || []), ...(s.vip_v6 || [])].join(', ')},
      {label: 'Domains', value: s => (s.domains || []).join(', ')}]));
  crumbs(customerCrumbs(c));
  await fill(head, async () => {
    const r = await api.get(`/spe/customer/${api.enc(c)}`);
    names.set(c, r.customer_name);
    main.querySelector('h1').textContent = r.customer_name;
    crumbs(customerCrumbs(c));
    return h('p', {class: 'meta'}, [r.company, r.email, r.website].filter(Boolean).join(' · '));
  });
}
