// ap_site.js — an Application Protection site: raw against clean bandwidth
// over the documented periods (.../traffic/bandwidth/{raw|clean}) and its
// WAF events with their attack-type summary (GET /spe/ap/dashboard/waf/event).
import * as api from '../api.js';
import {h, clear, fill, section, table, badge, field, select} from '../dom.js';
import * as fmt from '../format.js';
import {timeChart} from '../charts.js';
import {pager} from '../pager.js';
import {siteHeading, configLink} from '../site.js';

// The documented periods and a span inside each one's bounds (doc 002:
// hour: more than 1 minute and less than 2 hours, day: 1 hour to 2 days,
// week: 1 to 7 days, month: 7 to 31 days).
export const PERIODS = [['hour', 'Last hour (a point a minute)', 3600],
  ['day', 'Last day (a point every 10 minutes)', 86400],
  ['week', 'Last 6 days (a point an hour)', 6 * 86400],
  ['month', 'Last 30 days (a point an hour)', 30 * 86400]];

export const AP_SEVERITY = {0: 'low', 1: 'medium', 2: 'high'};

function bandwidth(c, s) {
  const out = h('div');
  const period = select('period', PERIODS.map(([v, t]) => [v, t]), 'day');
  const dir = select('direction', [['in', 'Inbound'], ['out', 'Outbound']], 'in');
  const load = () => fill(out, async () => {
    const t = fmt.now();
    const [, , span] = PERIODS.find(p => p[0] === period.value);
    const q = {start_time: String(t - span), end_time: String(t), period: period.value};
    const base = `/spe/ap/customer/${api.enc(c)}/site/${api.enc(s)}/traffic/bandwidth`;
    const [raw, clean] = await Promise.all([api.get(`${base}/raw`, q), api.get(`${base}/clean`, q)]);
    const pts = list => list.map(p => [p.time, p.value]);
    return [
      h('p', {class: 'meta'}, `Highest minute in the window: raw ${fmt.bps(raw.max)}, clean ${fmt.bps(clean.max)}`),
      timeChart(`Bandwidth, ${dir.value === 'in' ? 'inbound' : 'outbound'}: raw against clean`, [
        {label: 'Raw', points: pts(raw[dir.value])}, {label: 'Clean', points: pts(clean[dir.value])}], 'bps'),
    ];
  });
  period.addEventListener('change', load);
  dir.addEventListener('change', load);
  load();
  return section('Bandwidth', h('div', {class: 'filters'}, field('Period', period), field('Direction', dir)), out);
}

export function summaryText(sum) {
  return Object.entries(sum || {}).filter(([, v]) => v.count > 0)
    .map(([, v]) => `${v.name} ${v.percent} %`).join(', ');
}

function wafEvents(c, s) {
  const list = h('div', {id: 'waf-events'});
  const days = select('days', [['1', 'Last day'], ['7', 'Last 7 days'], ['31', 'Last 31 days']], '7');
  const num = 20;
  const load = offset => fill(list, async () => {
    const r = await api.get('/spe/ap/dashboard/waf/event', {customer_id: c, site_id: s, num, start: offset,
      start_time: String(fmt.now() - Number(days.value) * 86400 + 60)});
    return [table('WAF events, newest first (times UTC)', [
      {label: 'Event', header: true, value: e => h('a', {href: `#/c/${c}/ap/${s}/waf/${e.event_id}`}, e.event_id)},
      {label: 'Status', value: e => (e.status === 0 ? badge('ongoing', 'bad') : badge('stopped', 'muted'))},
      {label: 'Domain', value: e => e.domain_name},
      {label: 'Start', value: e => e.start_time},
      {label: 'End', value: e => e.end_time || '—'},
      {label: 'Attacks', num: true, value: e => fmt.count(e.attack_count)},
      {label: 'Attack types', value: e => summaryText(e.attack_type_summary)},
      {label: 'Severity', value: e => AP_SEVERITY[e.severity] ?? String(e.severity)},
    ], r.events, 'no WAF events in this window.'), pager('Events', offset, num, r.total_num, load)];
  });
  days.addEventListener('change', () => load(0));
  load(0);
  return section('WAF events', h('div', {class: 'filters'}, field('Window', days)), list);
}

export async function render(main, {c, s}) {
  const {h1, site} = siteHeading(c, 'ap', s, name => `Application Protection: ${name}`);
  const head = h('div');
  clear(main, h1, configLink(c, 'ap', s), head, bandwidth(c, s), wafEvents(c, s));
  await fill(head, async () => {
    const x = await site;
    return h('p', {class: 'meta'}, `VIPs ${[...x.vip, ...x.vip_v6].join(', ')} · plan ${x.service_plan}`);
  });
}
