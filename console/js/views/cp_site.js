// cp_site.js — a CleanPipe site: under attack now, its traffic (the
// customer's policy dashboard for the site's blocks), its DDoS events
// (filters, paging) and the stop button of an ongoing one
// ({CPC}/dashboard/ddos_events, .../ddos_event/{id}/stop, .../policy).
import * as api from '../api.js';
import {h, clear, fill, section, table, badge, field, select, apiError} from '../dom.js';
import * as fmt from '../format.js';
import {timeChart} from '../charts.js';
import {eventsForm} from '../events_form.js';
import {pager} from '../pager.js';
import {names, label, crumbs, customerCrumbs, status} from '../shell.js';

function overview(cpc, s, site) {
  const el = h('div', {class: 'grid stats'});
  fill(el, async () => {
    const t = fmt.now();
    const [ongoing, recent] = await Promise.all([
      api.get(`${cpc}/dashboard/ddos_events`, {site_id: s, status: 1, num: 1}),
      api.get(`${cpc}/dashboard/policy`, {ips: site.cidr.join(','), start_time: t - 600, end_time: t}),
    ]);
    // the last complete minute of the policy series
    const last = series => [...series].reverse().find(p => p[0] + 60 <= t) || [0, 0];
    const current = last(recent.pass_bps)[1] + last(recent.drop_bps)[1];
    const top = ongoing.events[0];
    return [
      h('div', {class: 'stat'}, h('h3', {}, 'Under attack now'),
        h('p', {class: 'big'}, ongoing.total > 0 ? badge('Under attack', 'bad') : badge('No attack', 'ok')),
        h('p', {class: 'hint'}, ongoing.total > 0 ?
          `${ongoing.total} ongoing; newest: ${top.attack_type} on ${top.site_ip}` : 'no ongoing event')),
      h('div', {class: 'stat'}, h('h3', {}, 'Current traffic'), h('p', {class: 'big'}, fmt.bps(current)),
        h('p', {class: 'hint'}, 'passed and dropped, the last complete minute')),
    ];
  });
  return el;
}

function trafficChart(cpc, site) {
  const out = h('div');
  const span = select('span', [['7200', 'Last 2 hours'], ['86400', 'Last day'], ['604800', 'Last 7 days']], '86400');
  const unit = select('unit', [['bps', 'bits/s'], ['pps', 'packets/s']], 'bps');
  const load = () => fill(out, async () => {
    const t = fmt.now();
    const r = await api.get(`${cpc}/dashboard/policy`, {ips: site.cidr.join(','),
      start_time: t - Number(span.value), end_time: t});
    const u = unit.value;
    return timeChart(`Traffic toward ${site.cidr.join(', ')} (${u})`, [
      {label: 'Passed', points: r[`pass_${u}`]}, {label: 'Dropped', points: r[`drop_${u}`]}], u);
  });
  span.addEventListener('change', load);
  unit.addEventListener('change', load);
  load();
  return section('Traffic', h('div', {class: 'filters'}, field('Window', span), field('Show', unit)), out);
}

// Stop asks once more in the row itself, then POSTs .../stop?stop_type=1|2.
function stopCell(cpc, e, reload) {
  const cell = h('div', {class: 'stop'});
  const ask = () => {
    const type = select('stop_type', [['1', 'this event'], ['2', 'this event and its hosts\' events']], '1');
    const result = h('div');
    clear(cell, field('Stop', type),
      h('button', {type: 'button', class: 'danger', onclick: async ev => {
        ev.target.disabled = true;
        try {
          await api.send('POST', `${cpc}/dashboard/ddos_event/${api.enc(e.alert_id)}/stop`,
            {query: {stop_type: type.value}});
          status(`Event ${e.alert_id} stopped.`);
          reload();
        } catch (err) {
          clear(result, apiError(err));
          ev.target.disabled = false;
        }
      }}, 'Confirm stop'),
      h('button', {type: 'button', onclick: idle}, 'Cancel'), result);
    type.focus();
  };
  const idle = () => clear(cell, h('button', {type: 'button', class: 'danger', onclick: ask,
    'aria-label': `Stop event ${e.alert_id}`}, 'Stop'));
  idle();
  return cell;
}

function events(cpc, s) {
  const list = h('div', {id: 'cp-events'});
  let filter = {status: '2', num: 10}, offset = 0;
  const load = at => fill(list, async () => {
    offset = at;
    const r = await api.get(`${cpc}/dashboard/ddos_events`, {site_id: s, status: filter.status,
      num: filter.num, start: offset, start_time: filter.from, end_time: filter.to, site_ip: filter.site_ip,
      alert_id: filter.alert_id});
    return [table('DDoS events, newest first', [
      {label: 'Alert id', header: true, value: e => e.alert_id},
      {label: 'Status', value: e => (e.status === 1 ? badge('ongoing', 'bad') : badge('stopped', 'muted'))},
      {label: 'Attack type', value: e => e.attack_type},
      {label: 'Address', value: e => e.site_ip},
      {label: 'Start (UTC)', value: e => fmt.time(e.start_time)},
      {label: 'Duration', value: e => fmt.duration(e.duration)},
      {label: 'Peak bps', num: true, value: e => fmt.bps(e.max_bps), raw: e => e.max_bps},
      {label: 'Peak pps', num: true, value: e => fmt.pps(e.max_pps), raw: e => e.max_pps},
      {label: 'Severity', value: e => e.severity_level},
      {label: 'Action', value: e => (e.status === 1 ? stopCell(cpc, e, () => load(offset)) : '—')},
    ], r.events, 'no events in this window.'), pager('Events', offset, filter.num, r.total, load)];
  });
  load(0);
  return section('DDoS events', eventsForm(v => { filter = v; load(0); }), list,
    h('p', {class: 'hint'}, 'The API has no per-event detail for CleanPipe events; the traffic above is the ' +
      'policy dashboard of the site\'s blocks.'));
}

export async function render(main, {c, s}) {
  const cpc = `/spe/customer/${api.enc(c)}`;
  const cpcc = `${cpc}/cp`;
  crumbs([...customerCrumbs(c), [`CleanPipe ${label(s)}`, `#/c/${c}/cp/${s}`]]);
  const body = h('div');
  clear(main, h('h1', {}, `CleanPipe: ${label(s)}`),
    h('p', {}, h('a', {href: `#/c/${c}/cp/${s}/config`}, 'Configuration of this site')), body);
  await fill(body, async () => {
    const site = await api.get(`${cpc}/cp/site/${api.enc(s)}`);
    names.set(s, site.site_name);
    main.querySelector('h1').textContent = `CleanPipe: ${site.site_name}`;
    crumbs([...customerCrumbs(c), [`CleanPipe ${site.site_name}`, `#/c/${c}/cp/${s}`]]);
    return [h('p', {class: 'meta'}, `Blocks ${site.cidr.join(', ')} · plan ${site.service_plan}`),
      overview(cpcc, s, site), events(cpcc, s), trafficChart(cpcc, site)];
  });
}
