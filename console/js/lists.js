// lists.js — the allow and block lists of a site (Origin Protection and
// CleanPipe have the same shape: is_enabled, source_ips,
// source_countries). Shown read-only, with an edit form that writes
// through the family's own endpoint and shows the API's answer as it is.
import {h, clear, fill, field, section, badge, apiError} from './dom.js';
import {status} from './shell.js';

const split = text => text.split(/[\s,]+/).map(x => x.trim()).filter(Boolean);
const TITLES = {allow_list: 'Allow list', block_list: 'Block list'};

// io: {read(type) -> {is_enabled, source_ips, source_countries},
//      write(type, ips[], countries[]), toggle(type, 0|1)}
function one(type, io) {
  const el = h('div', {id: `list-${type}`});
  const load = () => fill(el, async () => {
    const r = await io.read(type);
    const out = h('div', {class: 'form-result'});
    const ips = h('textarea', {name: 'source_ips', rows: 4, cols: 36, spellcheck: 'false'});
    ips.value = r.source_ips.join('\n');
    const countries = h('input', {name: 'source_countries', spellcheck: 'false', size: 24});
    countries.value = r.source_countries.join(', ');
    const form = h('form', {class: 'edit', 'aria-label': `Edit the ${TITLES[type].toLowerCase()}`},
      field('Source addresses or blocks', ips, 'One a line (or comma-separated)'),
      field('Source countries', countries, 'ISO 3166 codes, comma-separated'),
      h('button', {type: 'submit'}, `Save the ${TITLES[type].toLowerCase()}`), out);
    form.addEventListener('submit', async ev => {
      ev.preventDefault();
      clear(out);
      try {
        await io.write(type, split(ips.value), split(countries.value));
        status(`${TITLES[type]} saved.`);
        load();
      } catch (err) {
        clear(out, apiError(err));
      }
    });
    const toggleOut = h('div');
    const verb = r.is_enabled ? 'Disable' : 'Enable';
    const toggle = h('button', {type: 'button', 'aria-label': `${verb} the ${TITLES[type].toLowerCase()}`,
      onclick: async () => {
        try {
          await io.toggle(type, r.is_enabled ? 0 : 1);
          status(`${TITLES[type]} ${r.is_enabled ? 'disabled' : 'enabled'}.`);
          load();
        } catch (err) {
          clear(toggleOut, apiError(err));
        }
      }}, verb);
    return [
      h('p', {}, r.is_enabled ? badge('enabled', 'ok') : badge('disabled', 'muted'), ' ', toggle),
      toggleOut,
      h('p', {}, `${r.source_ips.length} addresses or blocks, ${r.source_countries.length} countries.`),
      form,
    ];
  });
  load();
  return h('div', {class: 'card inner'}, h('h3', {}, TITLES[type]), el);
}

export function listsSection(io) {
  return section('Allow and block lists', h('div', {class: 'grid two'}, one('allow_list', io), one('block_list', io)));
}
