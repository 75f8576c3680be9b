// op_site.js — an Origin Protection site's dashboards ({OPD}/site/{id}/...):
// under attack now, current traffic, DDoS events (filters, paging), active
// mitigation and the network summary.
import * as api from '../api.js';
import {h, clear, fill, section, table, badge, field, select} from '../dom.js';
import * as fmt from '../format.js';
import {eventsForm} from '../events_form.js';
import {pager} from '../pager.js';
import {names, label, crumbs, customerCrumbs} from '../shell.js';

export const OP_SEVERITY = {0: 'low', 1: 'high', 2: 'medium', 3: 'blackhole'};
const opTime = ts => (ts ? fmt.time(ts) : undefined); // 'year-month-day hour:minute:second' (UTC)

function stat(title, value, extra) {
  return h('div', {class: 'stat'}, h('h3', {}, title), h('p', {class: 'big'}, value), extra);
}

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
  const list = h('div', {id: 'op-events'});
  let filter = {status: '2', num: 10};
  const load = offset => fill(list, async () => {
    const r = await api.get(`${base}/ddos_events`, {status: filter.status, num: filter.num, start: offset,
      start_time: opTime(filter.from), end_time: opTime(filter.to), site_ip: filter.site_ip,
      alert_id: filter.alert_id});
    return [table('DDoS events, newest first', [
      {label: 'Alert id', header: true,
        value: e => h('a', {href: `#/c/${c}/op/${s}/event/${encodeURIComponent(e.alert_id)}`}, e.alert_id)},
      {label: 'Status', value: e => (e.status === 1 ? badge('ongoing', 'bad') : badge('stopped', 'muted'))},
      {label: 'Attack type', value: e => e.attack_type},
      {label: 'Address', value: e => e.site_ip},
      {label: 'Start (UTC)', value: e => fmt.time(e.start_time)},
      {label: 'Duration', value: e => fmt.duration(e.duration)},
      {label: 'Peak bps', num: true, value: e => fmt.bps(e.max_bps), raw: e => e.max_bps},
      {label: 'Peak pps', num: true, value: e => fmt.pps(e.max_pps), raw: e => e.max_pps},
      {label: 'Severity', value: e => OP_SEVERITY[e.severity] ?? String(e.severity)},
    ], r.events, 'no events in this window.'), pager('Events', offset, filter.num, r.total, load)];
  });
  const form = eventsForm(v => { filter = v; load(0); });
  load(0);
  return section('DDoS events', form, list);
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
      {label: title, header: true, value: x => String(x[member])},
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
  crumbs([...customerCrumbs(c), [`OP ${label(s)}`, `#/c/${c}/op/${s}`]]);
  const head = h('div');
  clear(main,
    h('h1', {}, `Origin Protection: ${label(s)}`),
    h('p', {}, h('a', {href: `#/c/${c}/op/${s}/config`}, 'Configuration of this site')), head,
    overview(base), events(c, s, base), mitigation(base), summary(base));
  await fill(head, async () => {
    const got = await api.get(`/spe/customer/${api.enc(c)}/op/site/${api.enc(s)}`);
    const site = Array.isArray(got) ? got[0] : got; // the read answers a one-element array
    names.set(s, site.site_name);
    main.querySelector('h1').textContent = `Origin Protection: ${site.site_name}`;
    crumbs([...customerCrumbs(c), [`OP ${site.site_name}`, `#/c/${c}/op/${s}`]]);
    return h('p', {class: 'meta'}, `AS${site.as_num} · blocks ${(site.cidr || []).join(', ')} · ` +
      `plan ${site.service_plan}`);
  });
}
