// op_event.js — one Origin Protection DDoS event: its traffic over time
// (bps or pps: total, passed, dropped), where it came from (threat map
// sources and top countries), its characterization and traffic patterns
// ({OPD}/ddos_event/{id}/detail?module=...).
import * as api from '../api.js';
import {h, clear, fill, section, table, badge, field, select} from '../dom.js';
import * as fmt from '../format.js';
import {timeChart} from '../charts.js';
import {siteHeading} from '../site.js';
import {OP_SEVERITY} from './op_site.js';

// One request per module and page (two sections read characterization).
let asked = new Map();
function detail(e, module) {
  if (!asked.has(module)) asked.set(module, api.get(`/specp/op/dashboard/ddos_event/${api.enc(e)}/detail`, {module}));
  return asked.get(module);
}

// The event's row of the site's list (the last 31 days), for its header.
function summary(s, e) {
  const el = h('div');
  fill(el, async () => {
    const r = await api.get(`/specp/op/dashboard/site/${api.enc(s)}/ddos_events`, {alert_id: e, status: 2,
      start_time: fmt.time(fmt.now() - 31 * 86400 + 60)});
    const ev = r.events[0];
    if (!ev) return h('p', {class: 'hint'}, 'This event started more than 31 days ago: the list no longer shows it.');
    return h('dl', {class: 'facts'},
      h('dt', {}, 'Status'), h('dd', {}, ev.status === 1 ? badge('ongoing', 'bad') : badge('stopped', 'muted')),
      h('dt', {}, 'Attack type'), h('dd', {}, ev.attack_type),
      h('dt', {}, 'Address'), h('dd', {}, ev.site_ip),
      h('dt', {}, 'Start (UTC)'), h('dd', {}, fmt.time(ev.start_time)),
      h('dt', {}, 'End (UTC)'), h('dd', {}, ev.end_time ? fmt.time(ev.end_time) : 'ongoing'),
      h('dt', {}, 'Peak'), h('dd', {}, `${fmt.bps(ev.max_bps)}, ${fmt.pps(ev.max_pps)}`),
      h('dt', {}, 'Severity'), h('dd', {}, OP_SEVERITY[ev.severity] ?? String(ev.severity)));
  });
  return el;
}

function traffic(e) {
  const out = h('div');
  const unit = select('unit', [['bps', 'bits/s'], ['pps', 'packets/s']], 'bps');
  let data = null;
  const figure = () => timeChart(`Traffic toward the event's addresses (${unit.value})`,
    [['total', 'Total'], ['pass', 'Passed'], ['drop', 'Dropped']]
      .map(([k, name]) => ({label: name, points: data[unit.value][k]})), unit.value);
  fill(out, async () => {
    data = (await detail(e, 'traffic')).traffic;
    return figure();
  });
  unit.addEventListener('change', () => data && clear(out, figure()));
  return section('Traffic', h('div', {class: 'filters'}, field('Show', unit)), out);
}

function sources(e) {
  const el = h('div', {class: 'grid two'});
  fill(el, async () => {
    const [map, chr] = await Promise.all([detail(e, 'threat_map'), detail(e, 'characterization')]);
    const countries = chr.characterization.filter(x => x.element === 'src_country');
    return [
      table('Top source countries (share of bytes)', [
        {label: 'Country', header: true, value: x => x.country || x.item},
        {label: 'Code', value: x => x.item},
        {label: 'Share', num: true, value: x => `${x.percent} %`},
        {label: 'Bytes', num: true, value: x => fmt.bytes(x.value), raw: x => x.value},
      ], countries, 'no flows were recorded for this event.'),
      table('Threat map: top sources by bits/s', [
        {label: 'Source', header: true, value: x => x.ip},
        {label: 'Country', value: x => (x.country ? `${x.country} (${x.code})` : x.code || '—')},
        {label: 'Organisation', value: x => x.org || '—'},
        {label: 'Mean rate', num: true, value: x => fmt.bps(x.size), raw: x => x.size},
        {label: 'Share', num: true, value: x => `${x.percent} %`},
      ], map.threat_map.bps, 'no sources were recorded.'),
    ];
  });
  return section('Where it came from', el);
}

const ELEMENTS = [['src_as', 'Source AS'], ['src_ip', 'Source addresses'], ['protocol', 'Protocols'],
  ['src_port', 'Source ports'], ['dst_port', 'Destination ports']];

function characterization(e) {
  const el = h('div', {class: 'grid three'});
  fill(el, async () => {
    const items = (await detail(e, 'characterization')).characterization;
    return ELEMENTS.map(([key, title]) => table(title, [
      {label: title, header: true, value: x => x.item},
      {label: 'Share', num: true, value: x => `${x.percent} %`},
      {label: 'Bytes', num: true, value: x => fmt.bytes(x.value)},
    ], items.filter(x => x.element === key)));
  });
  return section('Characterization (top 5 by bytes)', el);
}

function patterns(e) {
  const el = h('div');
  fill(el, async () => {
    const all = (await detail(e, 'traffic_patterns')).traffic_patterns;
    return [table(`Traffic patterns (the top ${Math.min(all.length, 25)} of ${all.length} by bytes)`, [
      {label: 'Source block', header: true, value: p => p.cidr},
      {label: 'AS', value: p => String(p.asn)},
      {label: 'Router', value: p => p.router},
      {label: 'Protocol', num: true, value: p => String(p.protocol)},
      {label: 'Ports (src → dst)', value: p => `${p.src_port} → ${p.dest_port}`},
      {label: 'Mean', num: true, value: p => fmt.bps(p.average.bps)},
      {label: 'Busiest minute', num: true, value: p => fmt.bps(p.max.bps)},
      {label: 'Total', num: true, value: p => fmt.bytes(p.total.byte)},
    ], all.slice(0, 25))];
  });
  return section('Traffic patterns', el);
}

export async function render(main, {c, s, e}) {
  asked = new Map();
  siteHeading(c, 'op', s, null, [[`Event ${e}`, location.hash]]);
  clear(main, h('h1', {}, `DDoS event ${e}`), summary(s, e), traffic(e), sources(e), characterization(e),
    patterns(e));
}
