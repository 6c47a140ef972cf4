// The console (issue 51): pages over ddl-service's own REST API, as the signed-in caller. Every
// figure comes from a statement anyone could type (information_schema, DESCRIBE), so the console
// shows exactly what the caller may see. No build step: plain modules served as they are.

const view = document.getElementById('view');
const TOKEN = 'mt.console.token';

/** A statement's answer: {columns, rows} for a query, the operation for a change; a problem throws. */
async function run(statement) {
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

/** A refusal as the API gives it (RFC 9457: title is the reason, detail the message). */
class Problem extends Error {
  constructor(body) {
    super(body.detail || body.title || 'the request failed');
    this.body = body;
  }
}

/** A query's rows as objects keyed by column name. */
async function rows(statement) {
  const body = await run(statement);
  return body.rows.map(row => Object.fromEntries(body.columns.map((c, i) => [c.name, row[i]])));
}

/** Shows {@code nodes} as the page, leaving out the absent ones. */
const show = (...nodes) => view.replaceChildren(...nodes.filter(n => n !== null && n !== undefined));

const quote = text => "'" + String(text).replaceAll("'", "''") + "'";

/** Elements without innerHTML: values are shown as text, never markup. */
function el(tag, attributes = {}, ...children) {
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

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag, attributes = {}, ...children) {
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

function duration(ms) {
  if (ms === null || ms === undefined) return '';
  if (ms < 1000) return ms + ' ms';
  if (ms < 120000) return (ms / 1000).toFixed(1) + ' s';
  if (ms < 7200000) return (ms / 60000).toFixed(1) + ' min';
  return (ms / 3600000).toFixed(1) + ' h';
}

/** How a table is doing, for its badge and its node: ok, warn (late), bad, or idle (no report). */
function health(table) {
  if (!table) return 'idle';
  if (['SUSPENDED', 'FAILED'].includes(table.status)) return 'bad';
  const target = freshnessMillis(table.freshness);
  if (table.measured_lag !== null && table.measured_lag !== undefined && target !== null) {
    return table.measured_lag <= target ? 'ok' : 'warn';
  }
  return ['ACTIVATED', 'RUNNING'].includes(table.status) ? 'ok' : 'idle';
}

const badge = (text, kind) => el('span', {class: 'badge ' + kind}, text || 'no report yet');

function failure(error) {
  const body = error.body || {};
  return el('div', {class: 'error', role: 'alert'},
    el('strong', {}, body.title || 'Error'), ': ', error.message,
    body.allowed ? el('div', {class: 'hint'}, 'Allowed: ', body.allowed) : null);
}

// ---- pages ----------------------------------------------------------------------------------

function signIn(refusal) {
  const token = el('input', {type: 'password', id: 'token', placeholder: 'mtk.<account>.<secret> or a JWT',
    autocomplete: 'off'});
  const message = el('div', {}, refusal ? failure(refusal) : null);
  const form = el('form', {onsubmit: async event => {
    event.preventDefault();
    sessionStorage.setItem(TOKEN, token.value.trim());
    try {
      await run('SHOW MATERIALIZED TABLES');
      route();
    } catch (error) {
      sessionStorage.removeItem(TOKEN);
      message.replaceChildren(failure(error));
    }
  }}, el('p', {}, 'Sign in with an API key or a token of your identity provider (docs/security.md).'),
    token, ' ', el('button', {type: 'submit'}, 'Sign in'), message);
  show(el('h1', {}, 'Sign in'), form);
}

const TABLES = 'SELECT table_name, refresh_mode, freshness, status, measured_lag, last_refresh, '
  + 'next_refresh FROM information_schema.materialized_tables ORDER BY table_name';

/** How often a shown page asks again for what events change (status, lag, history). */
const LIVE_MILLIS = 3000;
let live = null;

let following = null;

/** Each navigation's number: a page still loading when another was asked for draws nothing. */
let routeGen = 0;

/**
 * Keeps the page shown up to date: follows the refresh events (GET /api/v1/events, of {@code table}
 * or of all) and redraws as each arrives, telling {@code onEvent}; asks again every LIVE_MILLIS
 * when the events cannot be followed (a standby), and every 5 LIVE_MILLIS regardless.
 */
function keepLive(redraw, gen, table = null, onEvent = () => {}) {
  const shown = () => gen === routeGen && sessionStorage.getItem(TOKEN);
  let streaming = false;
  let pending = null;
  const redrawSoon = () => { // at most one redraw per 150 ms, however fast events come
    if (pending) return;
    pending = setTimeout(() => {
      pending = null;
      if (shown()) redraw().catch(() => {});
    }, 150);
  };
  const tick = async () => {
    if (!shown()) return;
    try {
      await redraw();
    } catch (error) {
      // shown when the page is next opened; a moment's failure should not blank the page
    }
    if (shown()) live = setTimeout(tick, streaming ? 5 * LIVE_MILLIS : LIVE_MILLIS);
  };
  live = setTimeout(tick, LIVE_MILLIS);
  const connect = () => {
    if (!shown()) return;
    following = new AbortController();
    follow(table, following.signal, event => {
      onEvent(event);
      redrawSoon();
    }, () => { streaming = true; }).catch(() => {}).finally(() => {
      streaming = false;
      setTimeout(connect, 5 * LIVE_MILLIS); // the stream ended (a restart, a slow reader): again
    });
  };
  connect();
}

/** Reads the event stream: one JSON object per Server-Sent Event, until {@code signal} aborts. */
async function follow(table, signal, onEvent, onOpen) {
  const response = await fetch('/api/v1/events' + (table ? '?table=' + encodeURIComponent(table) : ''), {
    headers: {authorization: 'Bearer ' + sessionStorage.getItem(TOKEN), accept: 'text/event-stream'},
    signal,
  });
  if (!response.ok) throw new Problem(await response.json().catch(() => ({})));
  onOpen();
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    buffered += decoder.decode(chunk.value, {stream: true});
    let end;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const data = block.split('\n').filter(l => l.startsWith('data:')).map(l => l.slice(5)).join('\n');
      if (data.trim()) onEvent(JSON.parse(data));
    }
  }
}

/** A line per event: when, what, and what it says (its error, reason or rows). */
function eventLine(event) {
  const e = event.event || {};
  const said = e.error || e.reason || e.message || (e.rowsWritten !== undefined ? e.rowsWritten + ' rows written' : '')
    || (e.jobId ? 'job ' + e.jobId : '');
  return el('li', {'data-type': event.type}, el('span', {class: 'muted'}, (event.readAt || '').slice(11, 19)), ' ',
    el('strong', {}, event.type), said ? ' ' + said : '');
}

const liveNote = () => el('p', {class: 'muted', id: 'live'},
  'Redrawn as refresh events arrive (and every ' + LIVE_MILLIS / 1000 + ' s when they cannot be followed).');

async function tablesPage(gen) {
  const filter = el('input', {type: 'search', id: 'filter', placeholder: 'Filter by name or status'});
  const body = el('tbody');
  let list = await rows(TABLES);
  if (gen !== routeGen) return;
  const count = el('span', {class: 'muted'}, '(' + list.length + ')');
  const draw = () => {
    const words = filter.value.trim().toLowerCase();
    body.replaceChildren(...list
      .filter(t => !words || (t.table_name + ' ' + (t.status || '')).toLowerCase().includes(words))
      .map(t => el('tr', {'data-table': t.table_name},
        el('td', {}, el('a', {href: '#/table/' + encodeURIComponent(t.table_name)}, t.table_name)),
        el('td', {}, badge(t.status, health(t))),
        el('td', {}, t.refresh_mode),
        el('td', {}, t.freshness),
        el('td', {class: 'num'}, duration(t.measured_lag)),
        el('td', {}, t.last_refresh || ''),
        el('td', {}, t.next_refresh || ''))));
  };
  filter.addEventListener('input', draw);
  draw();
  keepLive(async () => {
    list = await rows(TABLES);
    count.replaceChildren('(' + list.length + ')');
    draw();
  }, gen);
  show(
    el('h1', {}, 'Materialized tables ', count),
    el('p', {}, filter),
    el('table', {id: 'tables'},
      el('thead', {}, el('tr', {}, ['table', 'status', 'mode', 'freshness', 'measured lag',
        'last refresh', 'next refresh'].map(h => el('th', {}, h)))), body), liveNote());
}

async function tablePage(name, gen) {
  const heading = el('h1'), reason = el('div'), plan = el('div', {class: 'card'});
  const definition = el('div', {class: 'card'}), chart = el('div', {class: 'card'}), history = el('div');
  // What changes as events arrive: redrawn in place every LIVE_MILLIS while the page is shown.
  const draw = async () => {
    const [described, tables, refreshes] = await Promise.all([
      rows('DESCRIBE MATERIALIZED TABLE ' + name),
      rows('SELECT table_name, freshness, status, measured_lag FROM information_schema.materialized_tables'),
      rows('SELECT refresh_trigger, state, state_message, data_timestamp, started_at, finished_at, '
        + 'rows_written, freshness_met FROM information_schema.refresh_history WHERE table_name = '
        + quote(name) + ' ORDER BY finished_at DESC LIMIT 200'),
    ]);
    const property = Object.fromEntries(described.map(r => [r.property, r.value]));
    const byName = Object.fromEntries(tables.map(t => [t.table_name, t]));
    const self = byName[name];
    const status = property['refresh.status'];
    const why = ['SUSPENDED', 'FAILED'].includes(status) ? property['refresh.last_error']
      : status === 'QUEUED' ? property['refresh.queued_reason'] : null;
    const planned = described.filter(r => /^(plan\.|refresh\.incremental|last_change\.)/.test(r.property));
    heading.replaceChildren(name, ' ', badge(self?.status, health(self)));
    reason.replaceChildren(...(why ? [el('div', {class: 'reason', id: 'reason'},
      el('strong', {}, property['refresh.status'] + ': '), why)] : []));
    plan.replaceChildren(el('h2', {}, 'Plan and why'), planned.length
      ? propertyTable(planned, 'plan')
      : el('p', {class: 'muted', id: 'plan'}, 'Not planned yet: planner-service has not answered for this version.'));
    definition.replaceChildren(el('h2', {}, 'Definition'),
      propertyTable(described.filter(r => /^(version|refresh_mode|freshness|keys|query|options|timestamps|refresh\.status|refresh\.measured_lag|refresh\.data_timestamp)$/.test(r.property)), 'definition'));
    chart.replaceChildren(lagChart(refreshes, freshnessMillis(self?.freshness ?? property.freshness)));
    history.replaceChildren(historyTable(refreshes));
    return byName;
  };
  const [byName, dependencies] = await Promise.all([draw(),
    rows('SELECT table_name, upstream_table, upstream_kind FROM information_schema.table_dependencies')]);
  if (gen !== routeGen) return;
  const events = el('ol', {id: 'events', reversed: true});
  show(heading, reason, el('div', {class: 'cols'}, plan, definition),
    el('h2', {}, 'Lineage'), el('div', {class: 'card'}, lineage(name, dependencies, byName)),
    el('h2', {}, 'Measured lag against the freshness'), chart,
    el('h2', {}, 'Events as they arrive'), el('div', {class: 'card'}, events),
    el('h2', {}, 'Refresh history'), history, liveNote());
  keepLive(draw, gen, name, event => {
    events.prepend(eventLine(event));
    while (events.children.length > 50) events.lastChild.remove();
  });
}

async function sourcePage(name, gen) {
  const [columns, dependencies, tables] = await Promise.all([
    rows('DESCRIBE ' + name),
    rows('SELECT table_name, upstream_table, upstream_kind FROM information_schema.table_dependencies'),
    rows('SELECT table_name, freshness, status, measured_lag FROM information_schema.materialized_tables'),
  ]);
  if (gen !== routeGen) return;
  const byName = Object.fromEntries(tables.map(t => [t.table_name, t]));
  show(
    el('h1', {}, name, ' ', el('span', {class: 'badge'}, 'source table')),
    el('div', {class: 'card'}, resultTable({columns: Object.keys(columns[0] || {}).map(n => ({name: n})),
      rows: columns.map(Object.values)}, 'columns')),
    el('h2', {}, 'Read by'),
    el('div', {class: 'card'}, lineage(name, dependencies, byName)));
}

function sqlPage() {
  const editor = el('textarea', {id: 'sql', spellcheck: 'false',
    placeholder: 'CREATE MATERIALIZED TABLE ... FRESHNESS = INTERVAL \'5\' MINUTE AS SELECT ...'});
  editor.value = sessionStorage.getItem('mt.console.sql') || '';
  const output = el('div', {id: 'result'});
  const execute = async () => {
    const statement = editor.value;
    sessionStorage.setItem('mt.console.sql', statement);
    output.replaceChildren(el('p', {class: 'muted'}, 'Running...'));
    const started = performance.now();
    try {
      const body = await run(statement);
      const took = el('p', {class: 'muted'}, Math.round(performance.now() - started) + ' ms');
      output.replaceChildren(body.columns
        ? el('div', {}, resultTable(body, 'answer'), took)
        : el('div', {class: 'ok-box', id: 'status'}, el('strong', {}, body.status), ' ',
            body.table || '', body.message ? ': ' + body.message : '', took));
    } catch (error) {
      output.replaceChildren(statementError(statement, error, editor));
    }
  };
  editor.addEventListener('keydown', event => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) { event.preventDefault(); execute(); }
  });
  show(el('h1', {}, 'SQL'), editor,
    el('p', {}, el('button', {id: 'run', onclick: execute}, 'Run'), ' ',
      el('span', {class: 'muted'}, 'Ctrl+Enter; one statement at a time')), output);
}

/** A refusal with its place: the statement's line, a caret under the column, the text selected. */
function statementError(statement, error, editor) {
  const body = error.body || {};
  const box = failure(error);
  if (body.line) {
    const lines = statement.split('\n');
    const text = lines[body.line - 1] ?? '';
    box.append(el('div', {id: 'position'}, 'At line ' + body.line + ', column ' + body.column + ':'),
      el('pre', {id: 'caret'}, text + '\n' + ' '.repeat(Math.max(0, body.column - 1)) + '^'));
    const offset = lines.slice(0, body.line - 1).reduce((sum, l) => sum + l.length + 1, 0) + body.column - 1;
    editor.focus();
    editor.setSelectionRange(offset, Math.min(statement.length, offset + 1));
  }
  return box;
}

// ---- drawings and tables --------------------------------------------------------------------

function propertyTable(list, id) {
  return el('table', {id},
    list.map(r => el('tr', {}, el('th', {}, r.property), el('td', {}, el('pre', {}, r.value ?? '')))));
}

function resultTable(body, id) {
  return el('table', {id},
    el('thead', {}, el('tr', {}, body.columns.map(c => el('th', {}, c.name)))),
    el('tbody', {}, body.rows.map(r => el('tr', {}, r.map(v => el('td', {}, v === null ? 'NULL' : v))))));
}

function historyTable(history) {
  if (!history.length) return el('p', {class: 'muted', id: 'history'}, 'No refresh recorded yet.');
  return el('table', {id: 'history'},
    el('thead', {}, el('tr', {}, ['finished', 'trigger', 'state', 'took', 'rows', 'fresh', 'message']
      .map(h => el('th', {}, h)))),
    el('tbody', {}, history.map(h => el('tr', {},
      el('td', {}, h.finished_at || ''), el('td', {}, h.refresh_trigger),
      el('td', {}, badge(h.state, {SUCCEEDED: 'ok', NO_DATA: 'idle', FRESHNESS_RESTORED: 'ok'}[h.state] || 'bad')),
      el('td', {class: 'num'}, h.started_at && h.finished_at ? duration(Date.parse(h.finished_at) - Date.parse(h.started_at)) : ''),
      el('td', {class: 'num'}, h.rows_written ?? ''),
      el('td', {}, h.freshness_met === null ? '' : h.freshness_met ? 'yes' : 'no'),
      el('td', {}, h.state_message || '')))));
}

/**
 * Lag at each recorded refresh (when it finished, less the data it had) against the freshness line:
 * the measured freshness over time, from the refresh history.
 */
function lagChart(history, target) {
  const points = history
    .filter(h => h.data_timestamp && h.finished_at)
    .map(h => ({at: Date.parse(h.finished_at), lag: Date.parse(h.finished_at) - Date.parse(h.data_timestamp)}))
    .filter(p => !Number.isNaN(p.at) && !Number.isNaN(p.lag))
    .sort((a, b) => a.at - b.at);
  if (!points.length) return el('p', {class: 'muted', id: 'lag-chart'}, 'No measured lag yet.');
  const width = 900, height = 220, left = 60, bottom = 30;
  const first = points[0].at, last = Math.max(points[points.length - 1].at, first + 1);
  const top = Math.max(...points.map(p => p.lag), target || 0) * 1.1 || 1;
  const x = at => left + (at - first) / (last - first) * (width - left - 10);
  const y = lag => height - bottom - lag / top * (height - bottom - 10);
  const chart = svg('svg', {id: 'lag-chart', viewBox: `0 0 ${width} ${height}`, width: '100%'},
    svg('line', {x1: left, y1: height - bottom, x2: width, y2: height - bottom, stroke: '#999'}),
    svg('text', {x: 4, y: 14}, duration(Math.round(top))),
    svg('text', {x: 4, y: height - bottom}, '0'),
    svg('text', {x: left, y: height - 8}, new Date(first).toISOString().slice(11, 19)),
    svg('text', {x: width - 70, y: height - 8}, new Date(last).toISOString().slice(11, 19)),
    svg('polyline', {fill: 'none', stroke: '#2b6cb0', 'stroke-width': 2,
      points: points.map(p => x(p.at) + ',' + y(p.lag)).join(' ')}));
  for (const p of points) {
    chart.append(svg('circle', {class: 'lag-point', cx: x(p.at), cy: y(p.lag), r: 3,
      fill: target !== null && p.lag > target ? '#c53030' : '#2b6cb0'},
      svg('title', {}, new Date(p.at).toISOString() + ': ' + duration(p.lag))));
  }
  if (target) {
    chart.append(svg('line', {id: 'freshness-line', x1: left, y1: y(target), x2: width, y2: y(target),
      stroke: '#c53030', 'stroke-dasharray': '6 4'}),
      svg('text', {x: left + 4, y: y(target) - 4, fill: '#c53030'}, 'freshness ' + duration(target)));
  }
  return chart;
}

/**
 * The tables `name` reads, back to the sources, and those that read it, in columns by distance:
 * upstream to the left, downstream to the right; each node links to its page, coloured by health.
 */
function lineage(name, dependencies, byName) {
  const upstream = new Map(), downstream = new Map(), kinds = new Map();
  for (const d of dependencies) {
    (upstream.get(d.table_name) || upstream.set(d.table_name, []).get(d.table_name)).push(d.upstream_table);
    (downstream.get(d.upstream_table) || downstream.set(d.upstream_table, []).get(d.upstream_table)).push(d.table_name);
    kinds.set(d.upstream_table, d.upstream_kind);
    kinds.set(d.table_name, 'MATERIALIZED_TABLE');
  }
  if (!kinds.has(name)) kinds.set(name, byName[name] ? 'MATERIALIZED_TABLE' : 'SOURCE_TABLE');
  const layer = new Map([[name, 0]]);
  const walk = (edges, step) => {
    const queue = [name];
    while (queue.length) {
      const at = queue.shift();
      for (const next of edges.get(at) || []) {
        const depth = layer.get(at) + step;
        if (!layer.has(next) || Math.abs(depth) > Math.abs(layer.get(next))) {
          if (Math.abs(depth) > 50) continue; // a cycle cannot be declared; bound it all the same
          layer.set(next, depth);
          queue.push(next);
        }
      }
    }
  };
  walk(upstream, -1);
  walk(downstream, 1);
  const columns = new Map();
  for (const [table, depth] of layer) (columns.get(depth) || columns.set(depth, []).get(depth)).push(table);
  const depths = [...columns.keys()].sort((a, b) => a - b);
  const nodeWidth = 230, nodeHeight = 34, gapX = 70, gapY = 18;
  const tallest = Math.max(...[...columns.values()].map(c => c.length));
  const width = depths.length * (nodeWidth + gapX), height = tallest * (nodeHeight + gapY) + 10;
  const place = new Map();
  depths.forEach((depth, i) => columns.get(depth).sort().forEach((table, j) =>
    place.set(table, {x: i * (nodeWidth + gapX) + 10, y: j * (nodeHeight + gapY) + 10})));
  const drawing = svg('svg', {id: 'lineage', viewBox: `0 0 ${width} ${height}`, width: Math.min(width, 1150)});
  for (const d of dependencies) {
    const from = place.get(d.upstream_table), to = place.get(d.table_name);
    if (!from || !to) continue;
    const x1 = from.x + nodeWidth, y1 = from.y + nodeHeight / 2, x2 = to.x, y2 = to.y + nodeHeight / 2;
    drawing.append(svg('path', {d: `M${x1},${y1} C${x1 + 35},${y1} ${x2 - 35},${y2} ${x2},${y2}`,
      fill: 'none', stroke: '#a0aec0', 'stroke-width': 1.5}));
  }
  const colour = {ok: '#1f8a4c', warn: '#b7791f', bad: '#c53030', idle: '#718096'};
  for (const [table, at] of place) {
    const source = kinds.get(table) === 'SOURCE_TABLE';
    const link = '#/' + (source ? 'source/' : 'table/') + encodeURIComponent(table);
    const short = table.replace(/^default_catalog\./, '');
    drawing.append(svg('g', {class: 'node', 'data-table': table, tabindex: 0,
        onclick: () => { location.hash = link; }},
      svg('rect', {x: at.x, y: at.y, width: nodeWidth, height: nodeHeight, rx: 6,
        fill: source ? '#fff' : colour[health(byName[table])], stroke: table === name ? '#1d2330' : '#a0aec0',
        'stroke-width': table === name ? 2.5 : 1}),
      svg('text', {x: at.x + 10, y: at.y + 21, fill: source ? '#1d2330' : '#fff'},
        (short.length > 32 ? short.slice(0, 31) + '…' : short)),
      svg('title', {}, table + (source ? ' (source table)' : ' (' + (byName[table]?.status || 'no report yet') + ')'))));
  }
  return drawing;
}

// ---- routing --------------------------------------------------------------------------------

async function route() {
  const gen = ++routeGen;
  clearTimeout(live);
  following?.abort();
  const token = sessionStorage.getItem(TOKEN);
  document.getElementById('sign-out').hidden = !token;
  if (!token) return signIn();
  const [page, argument] = location.hash.replace(/^#\/?/, '').split('/');
  for (const link of document.querySelectorAll('header nav a')) {
    link.classList.toggle('current', link.dataset.nav === (page === 'sql' ? 'sql' : 'tables'));
  }
  try {
    if (page === 'sql') sqlPage();
    else if (page === 'table') await tablePage(decodeURIComponent(argument), gen);
    else if (page === 'source') await sourcePage(decodeURIComponent(argument), gen);
    else await tablesPage(gen);
  } catch (error) {
    if (gen !== routeGen) return; // another page is shown by now
    if (!sessionStorage.getItem(TOKEN)) return signIn(error); // the token was refused
    show(failure(error));
  }
}

document.getElementById('sign-out').addEventListener('click', () => {
  sessionStorage.removeItem(TOKEN);
  route();
});
window.addEventListener('hashchange', route);
route();
