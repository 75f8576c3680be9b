// cp_site.js — a CleanPipe site: under attack now, its traffic (the
// customer's policy dashboard for the site's blocks), its DDoS events
// (filters, paging) and the stop button of an ongoing one
// ({CPC}/dashboard/ddos_events, .../ddos_event/{id}/stop, .../policy).
import * as api from '../api.js';
import {h, clear, fill, section, badge, stat, field, select, apiError} from '../dom.js';
import * as fmt from '../format.js';
import {timeChart} from '../charts.js';
import {ddosList} from '../ddos_list.js';
import {status} from '../shell.js';
import {siteHeading, configLink} from '../site.js';

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
      stat('Under attack now', ongoing.total > 0 ? badge('Under attack', 'bad') : badge('No attack', 'ok'),
        h('p', {class: 'hint'}, ongoing.total > 0 ?
          `${ongoing.total} ongoing; newest: ${top.attack_type} on ${top.site_ip}` : 'no ongoing event')),
      stat('Current traffic', fmt.bps(current), h('p', {class: 'hint'}, 'passed and dropped, the last complete minute')),
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
// Focus stays on what the keyboard used: the type after Stop, Stop again
// after Cancel, the list (redrawn) after a stop.
function stopCell(cpc, e, reload) {
  const cell = h('div', {class: 'stop'});
  let busy = false;
  const ask = () => {
    const type = select('stop_type', [['1', 'this event'], ['2', 'this event and its hosts\' events']], '1');
    const result = h('div');
    clear(cell, field('Stop', type),
      h('button', {type: 'button', class: 'danger', 'aria-disabled': 'false', onclick: async ev => {
        if (busy) return;
        busy = true;
        const button = ev.currentTarget;
        button.setAttribute('aria-disabled', 'true');
        try {
          await api.send('POST', `${cpc}/dashboard/ddos_event/${api.enc(e.alert_id)}/stop`,
            {query: {stop_type: type.value}});
          status(`Event ${e.alert_id} stopped.`);
          reload();
        } catch (err) {
          clear(result, apiError(err));
          button.setAttribute('aria-disabled', 'false');
        } finally {
          busy = false;
        }
      }}, 'Confirm stop'),
      h('button', {type: 'button', onclick: () => idle().focus()}, 'Cancel'), result);
    type.focus();
  };
  const idle = () => {
    const stop = h('button', {type: 'button', class: 'danger', onclick: ask, 'aria-label': `Stop event ${e.alert_id}`},
      'Stop');
    clear(cell, stop);
    return stop;
  };
  idle();
  return cell;
}

function events(cpc, s) {
  return ddosList({
    id: 'cp-events',
    read: (f, offset) => api.get(`${cpc}/dashboard/ddos_events`, {site_id: s, status: f.status, num: f.num,
      start: offset, start_time: f.from, end_time: f.to, site_ip: f.site_ip, alert_id: f.alert_id}),
    alert: e => e.alert_id,
    severity: e => e.severity_level,
    action: (e, reload) => (e.status === 1 ? stopCell(cpc, e, reload) : '—'),
    note: 'The API has no per-event detail for CleanPipe events; the traffic below is the policy dashboard ' +
      'of the site\'s blocks.',
  });
}

export async function render(main, {c, s}) {
  const cpc = `/spe/customer/${api.enc(c)}/cp`;
  const {h1, site} = siteHeading(c, 'cp', s, name => `CleanPipe: ${name}`);
  const body = h('div');
  clear(main, h1, configLink(c, 'cp', s), body);
  await fill(body, async () => {
    const x = await site;
    return [h('p', {class: 'meta'}, `Blocks ${x.cidr.join(', ')} · plan ${x.service_plan}`),
      overview(cpc, s, x), events(cpc, s), trafficChart(cpc, x)];
  });
}
