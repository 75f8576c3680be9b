// op_config.js — an Origin Protection site's configuration, read-mostly:
// each host's detection thresholds ({OPH}/detection/policy) and the site's
// allow and block lists ({OPS}/mitigation/allow-block-list), with edits
// through the same endpoints.
import * as api from '../api.js';
import {h, clear, fill, section, table, field, select, apiError} from '../dom.js';
import {listsSection} from '../lists.js';
import {status} from '../shell.js';
import {siteHeading} from '../site.js';

const TYPES = ['tcp', 'udp', 'icmp', 'ip', 'sip', 'http', 'total_traffic'];

function thresholdForm(path, policy, reload) {
  const out = h('div', {class: 'form-result'});
  const type = select('type', TYPES.filter(t => policy[t]).map(t => [t, t]), 'tcp');
  const name = h('select', {name: 'name'});
  const low = h('input', {name: 'low_pps', size: 8, spellcheck: 'false'});
  const high = h('input', {name: 'high_pps', size: 8, spellcheck: 'false'});
  const enabled = select('is_enabled', [['1', 'on'], ['0', 'off']], '1');
  const pick = () => {
    const row = policy[type.value]?.[name.value] || {};
    low.value = row.low_pps ?? '';
    high.value = row.high_pps ?? '';
    enabled.value = String(row.is_enabled ?? 1);
  };
  const names_ = () => {
    clear(name, Object.keys(policy[type.value] || {}).map(n => h('option', {value: n}, n)));
    pick();
  };
  type.addEventListener('change', names_);
  name.addEventListener('change', pick);
  names_();
  const form = h('form', {class: 'edit filters', 'aria-label': 'Edit a detection threshold'},
    field('Type', type), field('Threshold', name), field('Detection', enabled),
    field('Low (pps)', low, 'e.g. 10K'), field('High (pps)', high, 'e.g. 50K'),
    h('div', {class: 'field'}, h('button', {type: 'submit'}, 'Save threshold')));
  form.addEventListener('submit', async ev => {
    ev.preventDefault();
    clear(out);
    try {
      await api.send('POST', path, {form: {type: type.value, name: name.value, is_enabled: enabled.value,
        low_pps: low.value.trim(), high_pps: high.value.trim()}});
      status(`Threshold ${type.value}/${name.value} saved.`);
      reload();
    } catch (err) {
      clear(out, apiError(err));
    }
  });
  return [form, out];
}

function detection(c, s, report) {
  const hosts = (report?.networks || []).flatMap(n => n.host_list.map(x => ({...x, network_id: n.network_id,
    network_name: n.network_name})));
  const el = h('div');
  if (hosts.length === 0) return section('Detection thresholds', h('p', {}, 'This site has no hosts yet.'));
  const pick = select('host', hosts.map(x => [x.host_id, `${x.host_name} (${x.cidr.join(', ')}) in ${x.network_name}`]),
    hosts[0].host_id);
  const load = () => fill(el, async () => {
    const x = hosts.find(y => y.host_id === pick.value);
    const path = `/spe/customer/${api.enc(c)}/op/site/${api.enc(s)}/network/${api.enc(x.network_id)}` +
      `/host/${api.enc(x.host_id)}/detection/policy`;
    const policy = await api.get(path);
    const rows = TYPES.flatMap(t => Object.entries(policy[t] || {}).map(([n, v]) => ({type: t, name: n, ...v})));
    return [...thresholdForm(path, policy, load), table('Thresholds (packets/s and bits/s)', [
      {label: 'Threshold', header: true, value: r => `${r.type} / ${r.name}`},
      {label: 'Detection', value: r => (r.is_enabled ? 'on' : 'off')},
      {label: 'Low pps', num: true, value: r => r.low_pps ?? '—'},
      {label: 'High pps', num: true, value: r => r.high_pps ?? '—'},
      {label: 'Low bps', num: true, value: r => r.low_bps ?? '—'},
      {label: 'High bps', num: true, value: r => r.high_bps ?? '—'},
      {label: 'Direction', value: r => r.direction_pps ?? r.direction_bps ?? '—'},
    ], rows)];
  });
  pick.addEventListener('change', load);
  load();
  return section('Detection thresholds', h('div', {class: 'filters'}, field('Host', pick)), el);
}

export async function render(main, {c, s}) {
  const ops = `/spe/customer/${api.enc(c)}/op/site/${api.enc(s)}/mitigation/allow-block-list`;
  const {h1, site} = siteHeading(c, 'op', s, name => `Configuration: ${name}`, [['Configuration', location.hash]]);
  const body = h('div');
  clear(main, h1, body);
  await fill(body, async () => {
    await site; // the API's own answer for a site that is not there
    // the site's networks and hosts: its row of the site report
    const report = (await api.get(`/spe/customer/${api.enc(c)}/op/site-report`)).sites.find(x => x.site_id === s);
    return [detection(c, s, report), listsSection({
      read: type => api.get(ops, {type}),
      // src_countries: the write's documented name (required; empty: none)
      write: (type, ips, countries) => api.send('POST', ops, {form: {type, source_ips: ips.join(','),
        src_countries: countries.join(',')}}),
      toggle: (type, on) => api.send('POST', `${ops}/switch`, {form: {type, is_enabled: on}}),
    })];
  });
}
