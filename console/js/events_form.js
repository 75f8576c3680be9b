// events_form.js — the filter form of the DDoS event lists (Origin
// Protection and CleanPipe): status, window (UTC), address, alert id, page
// size. Each list turns the values into its endpoint's own formats.
import {h, field, select} from './dom.js';
import {inputToUnix} from './format.js';

export function eventsForm(onApply) {
  const form = h('form', {class: 'filters', 'aria-label': 'Filter the events'},
    field('Status', select('status', [['2', 'All'], ['1', 'Ongoing'], ['0', 'Stopped']], '2')),
    field('From (UTC)', h('input', {name: 'from', type: 'datetime-local'}), 'Empty: the start of this month'),
    field('To (UTC)', h('input', {name: 'to', type: 'datetime-local'})),
    field('Attacked address', h('input', {name: 'site_ip', spellcheck: 'false', size: 18})),
    field('Alert id', h('input', {name: 'alert_id', spellcheck: 'false', size: 18})),
    field('Per page', select('num', [['10', '10'], ['25', '25'], ['50', '50']], '10')),
    h('div', {class: 'field'}, h('button', {type: 'submit'}, 'Apply')));
  form.addEventListener('submit', ev => {
    ev.preventDefault();
    onApply(values(form));
  });
  return form;
}

export function values(form) {
  const fd = new FormData(form);
  return {
    status: fd.get('status'),
    from: inputToUnix(fd.get('from')),
    to: inputToUnix(fd.get('to')),
    site_ip: fd.get('site_ip').trim(),
    alert_id: fd.get('alert_id').trim(),
    num: Number(fd.get('num')),
  };
}
