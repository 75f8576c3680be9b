// cp_config.js — a CleanPipe site's allow and block lists
// ({CPC}/site/{id}/mitigation/allow-block-list, JSON bodies), read and
// edited through the same endpoints.
import * as api from '../api.js';
import {clear} from '../dom.js';
import {listsSection} from '../lists.js';
import {siteHeading} from '../site.js';

export async function render(main, {c, s}) {
  const path = `/spe/customer/${api.enc(c)}/cp/site/${api.enc(s)}/mitigation/allow-block-list`;
  const {h1} = siteHeading(c, 'cp', s, name => `Configuration: ${name}`, [['Configuration', location.hash]]);
  clear(main, h1, listsSection({
    read: type => api.get(path, {type}),
    write: (type, ips, countries) => api.send('POST', path, {json: {type, source_ips: ips, source_countries: countries}}),
    toggle: (type, on) => api.send('POST', `${path}/switch`, {json: {type, is_enabled: on}}),
  }));
}
