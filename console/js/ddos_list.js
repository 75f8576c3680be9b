// ddos_list.js — the DDoS event list of an Origin Protection or a
// CleanPipe site: the filter form (events_form.js), a table of the
// events, newest first, and the pager. Each family gives its own read
// (endpoint and time format), alert id cell, severity and, for CleanPipe,
// an action.
import {h, fill, section, table, badge} from './dom.js';
import * as fmt from './format.js';
import {eventsForm} from './events_form.js';
import {pager} from './pager.js';

// o: {id, read(filter, offset) -> {events, total}, alert(e) -> node|text,
//     severity(e) -> text, action(e, reload) -> node (optional), note (optional)}
export function ddosList(o) {
  const list = h('div', {id: o.id});
  let filter = {status: '2', num: 10}, offset = 0;
  const load = at => fill(list, async () => {
    offset = at;
    const r = await o.read(filter, offset);
    // the action third: on a phone it shows without scrolling the table
    const columns = [
      {label: 'Alert id', header: true, value: o.alert},
      {label: 'Status', value: e => (e.status === 1 ? badge('ongoing', 'bad') : badge('stopped', 'muted'))},
      o.action && {label: 'Action', value: e => o.action(e, () => load(offset))},
      {label: 'Attack type', value: e => e.attack_type},
      {label: 'Address', value: e => e.site_ip},
      {label: 'Start (UTC)', value: e => fmt.time(e.start_time)},
      {label: 'Duration', value: e => fmt.duration(e.duration)},
      {label: 'Peak bps', num: true, value: e => fmt.bps(e.max_bps), raw: e => e.max_bps},
      {label: 'Peak pps', num: true, value: e => fmt.pps(e.max_pps), raw: e => e.max_pps},
      {label: 'Severity', value: o.severity},
    ].filter(Boolean);
    return [table('DDoS events, newest first', columns, r.events, 'no events in this window.'),
      pager('Events', offset, filter.num, r.total, load)];
  });
  load(0);
  return section('DDoS events', eventsForm(v => { filter = v; load(0); }), list,
    o.note ? h('p', {class: 'hint'}, o.note) : null);
}
