// op_site.js — an Origin Protection site's dashboards ({OPD}/site/{id}/...):
// under attack now, current traffic, DDoS events (filters, paging), active
// mitigation and the network summary.
import * as api from '../api.js';
import {h, clear, fill, section, table, badge, stat, field, select} from '../dom.js';
import * as fmt from '../format.js';
import {ddosList} from '../ddos_list.js';
import {siteHeading, configLink} from '../site.js';

export const OP_SEVERITY = {0: 'low', 1: 'high', 2: 'medium', 3: 'blackhole'};
const opTime = ts => (ts ? fmt.time(ts) : undefined); // 'year-month-day hour:minute:second' (UTC)

function overview(base) {
  const el = h('div', {class: 'grid stats'});
  fill(el, async () => {
    const [attack, traffic] = await Promise.all([api.get(`${base}/is_under_attack`),
      api.get(`${base}/current_traffic`)]);
    return [
      stat('Under attack now', attack.status === 1 ? badge('Under attack', 'bad') : badge('No attack', 'ok'),
        h('p', {class: 'hint', id: 'attack-peak'}, attack.status === 1 ? 'Largest ongoing peak: ' :
          'Largest peak this month: ', fmt.bps(attack.bps_size))),
      stat('Current traffic', h('span', {id: 'current-bps'}, fmt.bps(traffic.bps_size)),
        h('p', {class: 'hint'}, 'toward the site, the last complete minute')),
    ];
  });
  return el;
}

function events(c, s, base) {
  return ddosList({
    id: 'op-events',
    read: (f, offset) => api.get(`${base}/ddos_events`, {status: f.status, num: f.num, start: offset,
      start_time: opTime(f.from), end_time: opTime(f.to), site_ip: f.site_ip, alert_id: f.alert_id}),
    alert: e => h('a', {href: `#/c/${c}/op/${s}/event/${encodeURIComponent(e.alert_id)}`}, e.alert_id),
    severity: e => OP_SEVERITY[e.severity] ?? String(e.severity),
  });
}

function mitigation(base) {
  const el = h('div');
  fill(el, async () => table('Resources under mitigation now', [
    {label: 'Resource', header: true, value: m => m.name},
    {label: 'Blocks', value: m => (m.cidr || []).join(', ')},
    {label: 'Dropped (5 min mean)', num: true, value: m => fmt.bps(m.bot)},
    {label: 'Passed (5 min mean)', num: true, value: m => fmt.bps(m.clean)},
  ], await api.get(`${base}/active_mitigation`), 'nothing is being mitigated now.'));
  return section('Active mitigation', el);
}

// [member of the result, title, member of an item, what its size is]
const GROUPS = [['app', 'Applications', 'app', 'Mean rate'], ['proto', 'Protocols', 'proto', 'Mean rate'],
  ['country', 'Source countries', 'country', 'Mean rate'], ['as_num', 'Source AS', 'as', 'Mean rate'],
  ['ip', 'Destination addresses', 'ip', 'Mean rate'], ['attack_type', 'Attack types', 'attack_type', 'Peak rate']];

function summary(base) {
  const out = h('div', {class: 'grid two'});
  const range = select('range', [['hour', 'Last hour'], ['day', 'Last day'], ['week', 'Last 7 days'],
    ['month', 'Last 30 days']], 'hour');
  const type = select('type', [['bps', 'bits/s'], ['pps', 'packets/s']], 'bps');
  const load = () => fill(out, async () => {
    const r = await api.get(`${base}/network_summary`, {range: range.value, type: type.value});
    const rate = type.value === 'pps' ? fmt.pps : fmt.bps;
    return GROUPS.map(([key, title, member, size]) => table(title, [
      {label: title, header: true, value: x => (x[member] === '' ? '(none)' : String(x[member]))},
      {label: size, num: true, value: x => rate(x.size)},
      {label: 'Flows', num: true, value: x => (x.count === undefined ? '—' : fmt.count(x.count))},
    ], r[key] || [], 'none in this range.'));
  });
  range.addEventListener('change', load);
  type.addEventListener('change', load);
  load();
  return section('Network summary', h('div', {class: 'filters'}, field('Range', range), field('Rate', type)), out);
}

export async function render(main, {c, s}) {
  const base = `/specp/op/dashboard/site/${api.enc(s)}`;
  const {h1, site} = siteHeading(c, 'op', s, name => `Origin Protection: ${name}`);
  const head = h('div');
  clear(main, h1, configLink(c, 'op', s), head, overview(base), events(c, s, base), mitigation(base), summary(base));
  await fill(head, async () => {
    const x = await site;
    return h('p', {class: 'meta'}, `AS${x.as_num} · blocks ${(x.cidr || []).join(', ')} · plan ${x.service_plan}`);
  });
}
