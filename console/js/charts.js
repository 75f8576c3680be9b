// charts.js — time series drawn with Chart.js (Debian's libjs-chart.js,
// which the server reads from /usr/share/javascript/chart.js and serves
// under /console/lib/chart.js/), each with a table of the same numbers
// beside it: for screen readers, for copying, and for when Chart.js is
// not installed.
import {h, uid} from './dom.js';
import * as fmt from './format.js';

const LIB = '/console/lib/chart.js/chart.esm.js';
let loading = null;

function library() {
  if (!loading) {
    loading = import(LIB).then(m => {
      m.Chart.register(...m.registerables);
      m.Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
      m.Chart.defaults.color = '#1a1a1a';
      return m.Chart;
    }).catch(() => null);
  }
  return loading;
}

// Colours with at least 4.5:1 against white, told apart by dash too.
const STYLES = [
  {borderColor: '#1f4e8c', backgroundColor: 'rgba(31,78,140,0.12)', borderDash: []},
  {borderColor: '#a33b00', backgroundColor: 'rgba(163,59,0,0.10)', borderDash: [6, 3]},
  {borderColor: '#2d6a2d', backgroundColor: 'rgba(45,106,45,0.10)', borderDash: [2, 2]},
];

// A time axis ticks on whole minutes, hours or days: the smallest step
// that gives at most 8 ticks over span seconds.
const STEPS = [60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800];
export const timeStep = span => STEPS.find(s => span / s <= 8) || STEPS[STEPS.length - 1];

// series: [{label, points: [[unix seconds, value], ...]}]; unit: 'bps'|'pps'
export function timeChart(title, series, unit) {
  const format = unit === 'pps' ? fmt.pps : fmt.bps;
  const id = uid('chart');
  const canvas = h('canvas', {role: 'img', 'aria-label': `${title} (chart; the numbers are in the table below)`});
  const box = h('div', {class: 'chart'}, canvas);
  const note = h('p', {class: 'hint', hidden: true});
  const times = [...new Set(series.flatMap(s => s.points.map(p => p[0])))].sort((a, b) => a - b);
  const byTime = series.map(s => new Map(s.points.map(p => [p[0], p[1]])));
  const rows = times.map(t => h('tr', {dataset: {time: String(t)}},
    h('th', {scope: 'row'}, fmt.time(t)),
    byTime.map(m => h('td', {class: 'num', dataset: {value: String(m.get(t) ?? '')}},
      m.has(t) ? format(m.get(t)) : '—'))));
  const data = h('details', {},
    h('summary', {}, `The numbers (${times.length} points, UTC)`),
    h('div', {class: 'scroll', tabindex: '0', role: 'region', 'aria-label': `${title}: numbers`},
      h('table', {class: 'series'},
        h('caption', {}, title),
        h('thead', {}, h('tr', {}, h('th', {scope: 'col'}, 'Time (UTC)'),
          series.map(s => h('th', {scope: 'col', class: 'num'}, s.label)))),
        h('tbody', {}, rows))));
  const fig = h('figure', {class: 'figure', id, dataset: {unit}},
    h('figcaption', {}, title), box, note, data);
  draw(canvas, series, format, note, times);
  return fig;
}

async function draw(canvas, series, format, note, times) {
  const Chart = await library();
  if (!Chart) {
    note.hidden = false;
    note.textContent = 'No chart: this server has no Chart.js (Debian package libjs-chart.js). ' +
      'The numbers are in the table.';
    return;
  }
  new Chart(canvas, {
    type: 'line',
    data: {datasets: series.map((s, i) => ({
      label: s.label,
      data: s.points.map(([x, y]) => ({x, y})),
      pointRadius: s.points.length > 60 ? 0 : 2,
      borderWidth: 2,
      fill: false,
      ...STYLES[i % STYLES.length],
    }))},
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      parsing: false,
      interaction: {mode: 'nearest', axis: 'x', intersect: false},
      scales: {
        x: {type: 'linear', min: times[0], max: times[times.length - 1],
          ticks: {stepSize: timeStep(times[times.length - 1] - times[0]), callback: v => fmt.shortTime(v),
            maxRotation: 0, autoSkipPadding: 16}},
        y: {beginAtZero: true, ticks: {callback: v => format(v)}},
      },
      plugins: {
        tooltip: {callbacks: {
          title: items => fmt.time(items[0].parsed.x),
          label: item => `${item.dataset.label}: ${format(item.parsed.y)}`,
        }},
      },
    },
  });
}
