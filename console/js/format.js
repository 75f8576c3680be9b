// format.js — how numbers and times the API answers are shown.

function scaled(n, unit) {
  const steps = ['', 'K', 'M', 'G', 'T', 'P'];
  let v = Number(n) || 0, i = 0;
  while (Math.abs(v) >= 1000 && i < steps.length - 1) { v /= 1000; i += 1; }
  return `${i === 0 ? v.toFixed(0) : v.toFixed(2)} ${steps[i]}${unit}`;
}

export const bps = n => scaled(n, 'bps');
export const pps = n => scaled(n, 'pps');
export const bytes = n => scaled(n, 'B');
export const count = n => (Number(n) || 0).toLocaleString('en-US');

const pad = n => String(n).padStart(2, '0');

// unix seconds -> 'YYYY-MM-DD HH:MM:SS' (UTC)
export function time(ts) {
  if (!ts) return '—';
  const d = new Date(Number(ts) * 1000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

export function shortTime(ts) {
  return time(ts).slice(5, 16);
}

export function duration(s) {
  s = Number(s) || 0;
  const hh = Math.floor(s / 3600), mm = Math.floor((s % 3600) / 60), ss = s % 60;
  return hh ? `${hh} h ${mm} min` : mm ? `${mm} min ${ss} s` : `${ss} s`;
}

export const now = () => Math.floor(Date.now() / 1000);

// A datetime-local input's value, read as UTC: unix seconds ('' -> null).
export function inputToUnix(v) {
  if (!v) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(v);
  if (!m) return null;
  return Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] || 0)) / 1000;
}

export function unixToInput(ts) {
  return time(ts).slice(0, 16).replace(' ', 'T');
}
