// waf_event.js — one WAF event: its top source countries and URL paths
// (.../waf/event/{id}/top), its log, paged (.../log), and the download of
// all its entries as CSV (.../download).
import * as api from '../api.js';
import {h, clear, fill, section, table, apiError} from '../dom.js';
import * as fmt from '../format.js';
import {pager} from '../pager.js';
import {status} from '../shell.js';
import {siteHeading} from '../site.js';

function tops(base) {
  const el = h('div', {class: 'grid two'});
  fill(el, async () => {
    const r = await api.get(`${base}/top`);
    return [
      table('Top source countries', [
        {label: 'Country', header: true, value: x => `${x.country} (${x.code})`},
        {label: 'Entries', num: true, value: x => fmt.count(x.count)},
        {label: 'Share', num: true, value: x => `${x.percent} %`},
      ], r.top10_country),
      table('Top URL paths', [
        {label: 'Path', header: true, value: x => h('code', {}, x.url)},
        {label: 'Entries', num: true, value: x => fmt.count(x.count)},
        {label: 'Share', num: true, value: x => `${x.percent} %`},
      ], r.top10_url),
    ];
  });
  return section('Top lists', el);
}

function log(base) {
  const el = h('div', {id: 'waf-log'});
  const num = 20;
  const load = offset => fill(el, async () => {
    const r = await api.get(`${base}/log`, {num, start: offset});
    return [table('Log entries, oldest first', [
      {label: 'Time (UTC)', header: true, value: x => fmt.time(x.timestamp)},
      {label: 'Action', value: x => x.action},
      {label: 'Type', value: x => x.attack_type},
      {label: 'Rule', value: x => x.rule_id},
      {label: 'Source', value: x => `${x.src_ip}${x.src_ip_cc ? ` (${x.src_ip_cc})` : ''}`},
      {label: 'Request', value: x => h('code', {}, `${x.http_method} ${x.host}${x.http_path}`)},
      {label: 'Matched', value: x => h('code', {}, x.match_content)},
      {label: 'Rule message', value: x => x.pattern},
    ], r.logs), pager('Entries', offset, num, r.total_num, load)];
  });
  load(0);
  return section('Log', el);
}

function downloader(base, e) {
  const out = h('div');
  const button = h('button', {type: 'button', onclick: async () => {
    button.disabled = true;
    clear(out);
    try {
      const f = await api.download(`${base}/download`, `waf-event-${e}.csv`);
      status(`Saved ${f.name} (${fmt.count(f.bytes)} bytes).`);
    } catch (err) {
      clear(out, apiError(err));
    } finally {
      button.disabled = false;
    }
  }}, 'Download all entries (CSV)');
  return section('Download', button, out);
}

export async function render(main, {c, s, e}) {
  const base = `/spe/ap/customer/${api.enc(c)}/dashboard/waf/event/${api.enc(e)}`;
  siteHeading(c, 'ap', s, null, [[`WAF event ${e}`, location.hash]]);
  clear(main, h('h1', {}, `WAF event ${e}`), tops(base), log(base), downloader(base, e));
}
