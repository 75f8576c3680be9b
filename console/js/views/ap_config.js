// ap_config.js — an Application Protection domain port's WAF switches
// ({WAF}/owasp, PUT .../owasp/action-switch, POST .../owasp/switch/{0|1})
// and AppShield switches ({ASH}/switches, read-only). The API lists no
// domains of a site, so the domain ports to choose from are the ones the
// site's WAF events of the last 31 days name, and any domain looked up by
// its id (GET {CAP}/site/{id}/domain/{domain_id}).
import * as api from '../api.js';
import {h, clear, fill, section, table, field, select, apiError} from '../dom.js';
import * as fmt from '../format.js';
import {status} from '../shell.js';
import {siteHeading} from '../site.js';

function owaspRow(base, item, reload) {
  const out = h('div');
  const enable = select('enable', [['1', 'on'], ['0', 'off']], String(item.enable));
  enable.setAttribute('aria-label', `${item.name}: on or off`);
  const action = item.action === undefined ? null :
    select('action', [['block', 'block'], ['log', 'log']], item.action);
  if (action) action.setAttribute('aria-label', `${item.name}: action`);
  const save = h('button', {type: 'button', 'aria-label': `Save ${item.name}`, onclick: async () => {
    clear(out);
    const value = {enable: Number(enable.value)};
    if (action) value.action = action.value;
    try {
      await api.send('PUT', `${base}/policy/waf/owasp/action-switch`, {json: {[item.name]: value}});
      status(`${item.name} saved.`);
      reload();
    } catch (err) {
      clear(out, apiError(err));
    }
  }}, 'Save');
  return h('div', {class: 'inline'}, enable, action, save, out);
}

function waf(base) {
  const el = h('div');
  const load = () => fill(el, async () => {
    const r = await api.get(`${base}/policy/waf/owasp`);
    const master = h('button', {type: 'button', onclick: async () => {
      try {
        await api.send('POST', `${base}/policy/waf/owasp/switch/${r.enable ? 0 : 1}`);
        status(`WAF ${r.enable ? 'off' : 'on'}.`);
        load();
      } catch (err) {
        el.append(apiError(err));
      }
    }}, r.enable ? 'Turn the WAF off' : 'Turn the WAF on');
    const editable = r.waf_attack_list.filter(x => x.type === 'general' || x.type.startsWith('simple'));
    return [
      h('p', {}, `The WAF is ${r.enable ? 'on' : 'off'} for this domain port. `, master),
      table('OWASP protections', [
        {label: 'Protection', header: true, value: x => x.name},
        {label: 'Kind', value: x => x.type},
        {label: 'State', value: x => `${x.enable ? 'on' : 'off'}${x.action ? `, ${x.action}` : ''}`},
        {label: 'Change', value: x => owaspRow(base, x, load)},
      ], editable),
    ];
  });
  load();
  return section('WAF switches (OWASP)', el);
}

function appshield(ash) {
  const el = h('div');
  fill(el, async () => {
    const r = await api.get(`${ash}/switches`);
    const rows = Object.values(r).flatMap(p => [p, ...Object.values(p).filter(v => v && typeof v === 'object')
      .map(v => ({...v, name: `${p.name} / ${v.name}`}))]);
    return table('AppShield switches (read-only)', [
      {label: 'Switch', header: true, value: x => x.name},
      {label: 'State', value: x => (x.enable ? 'on' : 'off')},
    ], rows);
  });
  return section('AppShield', el);
}

export async function render(main, {c, s}) {
  const {h1} = siteHeading(c, 'ap', s, name => `Configuration: ${name}`, [['Configuration', location.hash]]);
  const ports = new Map(); // domain_port_id -> label
  const chooser = h('div');
  const body = h('div');
  const show = id => {
    const base = `/spe/ap/customer/${api.enc(c)}/site/${api.enc(s)}/domain-port/${api.enc(id)}`;
    const ash = `/policy/appshield/customer/${api.enc(c)}/site/${api.enc(s)}/domain-port/${api.enc(id)}`;
    clear(body, waf(base), appshield(ash));
  };
  const redraw = () => {
    if (ports.size === 0) return clear(chooser, h('p', {}, 'No domain port known yet: look a domain up by its id.'));
    const pick = select('domain_port', [...ports].map(([id, text]) => [id, text]), [...ports.keys()][0]);
    pick.addEventListener('change', () => show(pick.value));
    clear(chooser, field('Domain port', pick));
    show(pick.value);
  };
  const lookupOut = h('div');
  const domainId = h('input', {name: 'domain_id', spellcheck: 'false', size: 18});
  const lookup = h('form', {class: 'filters', 'aria-label': 'Look a domain up'},
    field('Domain id', domainId), h('div', {class: 'field'}, h('button', {type: 'submit'}, 'Look up')), lookupOut);
  lookup.addEventListener('submit', async ev => {
    ev.preventDefault();
    clear(lookupOut);
    try {
      const d = await api.get(`/spe/customer/${api.enc(c)}/ap/site/${api.enc(s)}/domain/${api.enc(domainId.value.trim())}`);
      for (const p of d.http_port_list) ports.set(p.domain_port_id, `${d.domain} HTTP ${p.port}`);
      for (const p of d.https_port_list) ports.set(p.domain_port_id, `${d.domain} HTTPS ${p.port}`);
      redraw();
    } catch (err) {
      clear(lookupOut, apiError(err));
    }
  });
  clear(main, h1, section('Domain port', chooser, lookup), body);
  await fill(chooser, async () => {
    const r = await api.get('/spe/ap/dashboard/waf/event', {customer_id: c, site_id: s, num: 50,
      start_time: String(fmt.now() - 31 * 86400 + 60)});
    for (const e of r.events) if (!ports.has(e.domain_port_id)) ports.set(e.domain_port_id, `${e.domain_name} (port ${e.domain_port_id})`);
    return [];
  });
  redraw();
}
