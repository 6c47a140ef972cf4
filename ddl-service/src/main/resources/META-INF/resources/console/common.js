// What every page of the console uses: its REST calls as the signed-in caller, elements built
// without markup, and how a table's health and durations are shown.

export const view = document.getElementById('view');
export const TOKEN = 'mt.console.token';

/** A statement's answer: {columns, rows} for a query, the operation for a change; a problem throws. */
export async function run(statement) {
  const response = await fetch('/api/v1/statements', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: 'Bearer ' + sessionStorage.getItem(TOKEN),
    },
    body: JSON.stringify({statement}),
  });
  const body = await response.json().catch(() => ({}));
  if (response.status === 401) {
    sessionStorage.removeItem(TOKEN); // the next page asks for a token again
  }
  if (!response.ok) {
    throw new Problem(body);
  }
  return body;
}

/** A GET of the REST API as the signed-in caller: its JSON body; a problem throws. */
export async function get(path) {
  const response = await fetch(path, {headers: {authorization: 'Bearer ' + sessionStorage.getItem(TOKEN)}});
  const body = await response.json().catch(() => ({}));
  if (response.status === 401) sessionStorage.removeItem(TOKEN);
  if (!response.ok) throw new Problem(body);
  return body;
}

/** A refusal as the API gives it (RFC 9457: title is the reason, detail the message). */
export class Problem extends Error {
  constructor(body) {
    super(body.detail || body.title || 'the request failed');
    this.body = body;
  }
}

/** A query's rows as objects keyed by column name. */
export async function rows(statement) {
  const body = await run(statement);
  return body.rows.map(row => Object.fromEntries(body.columns.map((c, i) => [c.name, row[i]])));
}

/** Shows {@code nodes} as the page, leaving out the absent ones. */
export const show = (...nodes) => view.replaceChildren(...nodes.filter(n => n !== null && n !== undefined));

export const quote = text => "'" + String(text).replaceAll("'", "''") + "'";

/** Elements without innerHTML: values are shown as text, never markup. */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (value !== null && value !== undefined && value !== false) node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) {
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  }
  return node;
}

export const SVG = 'http://www.w3.org/2000/svg';
export function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Milliseconds of a freshness: ISO-8601 (PT5M, P1D) or INTERVAL '5' MINUTE; null if neither. */
export function freshnessMillis(text) {
  if (!text) return null;
  const iso = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i.exec(text.trim());
  if (iso) {
    const [, d = 0, h = 0, m = 0, s = 0] = iso;
    return ((+d * 24 + +h) * 60 + +m) * 60000 + +s * 1000;
  }
  const interval = /INTERVAL\s+'(\d+)'\s+(SECOND|MINUTE|HOUR|DAY)/i.exec(text);
  if (interval) {
    const unit = {SECOND: 1000, MINUTE: 60000, HOUR: 3600000, DAY: 86400000};
    return +interval[1] * unit[interval[2].toUpperCase()];
  }
  return null;
}

export function duration(ms) {
  if (ms === null || ms === undefined) return '';
  if (ms < 1000) return ms + ' ms';
  if (ms < 120000) return (ms / 1000).toFixed(1) + ' s';
  if (ms < 7200000) return (ms / 60000).toFixed(1) + ' min';
  return (ms / 3600000).toFixed(1) + ' h';
}

/** How a table is doing, for its badge and its node: ok, warn (late), bad, or idle (no report). */
export function health(table) {
  if (!table) return 'idle';
  if (['SUSPENDED', 'FAILED'].includes(table.status)) return 'bad';
  const target = freshnessMillis(table.freshness);
  if (table.measured_lag !== null && table.measured_lag !== undefined && target !== null) {
    return table.measured_lag <= target ? 'ok' : 'warn';
  }
  return ['ACTIVATED', 'RUNNING'].includes(table.status) ? 'ok' : 'idle';
}

export const badge = (text, kind) => el('span', {class: 'badge ' + kind}, text || 'no report yet');

export function failure(error) {
  const body = error.body || {};
  return el('div', {class: 'error', role: 'alert'},
    el('strong', {}, body.title || 'Error'), ': ', error.message,
    body.allowed ? el('div', {class: 'hint'}, 'Allowed: ', body.allowed) : null);
}
