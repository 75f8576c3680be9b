// api.js — the console's only way to the server: the public API under
// /api and /oauth, as any other client calls it. The access token lives in
// this module's memory only: never in the page's URL, a cookie or Web
// Storage, so it is gone when the tab is closed or reloaded. It travels in
// the access_token query parameter, the one place the API documents for it,
// on same-origin fetch() calls only (never a link or the address bar), and
// the server logs no query string.

let session = null; // {token, kind: 'portal'|'installed', customer, expires}

export class ApiError extends Error {
  constructor(status, code, msg) {
    super(msg);
    this.status = status;
    this.code = code;
    this.msg = msg;
  }
}

export const current = () => session;
export function signOut() { session = null; }

async function call(url, init = {}) {
  let res;
  try {
    res = await fetch(url, {...init, credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer'});
  } catch (e) {
    throw new ApiError(0, 0, `The server could not be reached (${e.message}).`);
  }
  const type = res.headers.get('Content-Type') || '';
  if (!type.startsWith('application/json')) {
    if (res.ok) return res;
    throw new ApiError(res.status, 0, `HTTP ${res.status} without an API envelope`);
  }
  const body = await res.json();
  if (body.code !== 0) {
    if (res.status === 401 && session) session.expired = true;
    throw new ApiError(res.status, body.code, body.msg);
  }
  return body.result;
}

function form(fields) {
  const f = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined && v !== null) f.append(k, v);
  return f;
}

// Client credential: a portal app's id and secret (POST /oauth/credit/token).
export async function signInClient(appId, secret) {
  const r = await call('/oauth/credit/token', {method: 'POST',
    body: form({app_id: appId, secret, grant_type: 'client_credential'})});
  session = {token: r.access_token, kind: 'portal', expires: Date.now() + r.expires_in * 1000};
}

// An installed app's access token (from /oauth/access_token), which acts
// for one customer: the one its token result named (parapet_account).
// Checked by reading that customer before it is kept.
export async function signInToken(token, customer) {
  const trial = {token, kind: 'installed', customer, expires: null};
  const previous = session;
  session = trial;
  try {
    await get(`/spe/customer/${encodeURIComponent(customer)}`);
  } catch (e) {
    session = previous;
    throw e;
  }
}

function apiUrl(path, query = {}) {
  if (!session) throw new ApiError(401, 0, 'Not signed in.');
  const u = new URL(`/api${path}`, location.origin);
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '') continue;
    for (const one of Array.isArray(v) ? v : [v]) u.searchParams.append(k, one);
  }
  u.searchParams.set('access_token', session.token);
  return u;
}

export const get = (path, query) => call(apiUrl(path, query));

// send('POST', path, {query, form: {...}} | {query, json: {...}})
export function send(method, path, {query, form: fields, json} = {}) {
  const init = {method};
  if (fields) init.body = form(fields);
  if (json !== undefined) {
    init.body = JSON.stringify(json);
    init.headers = {'Content-Type': 'application/json'};
  }
  return call(apiUrl(path, query), init);
}

// A file the API answers (not an envelope): saved under the name the
// server gives in Content-Disposition.
export async function download(path, fallbackName) {
  const res = await call(apiUrl(path));
  const cd = res.headers.get('Content-Disposition') || '';
  const m = /filename="([^"]+)"/.exec(cd);
  const blob = await res.blob();
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = m ? m[1] : fallbackName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  return {name: a.download, bytes: blob.size};
}

export const enc = encodeURIComponent;
