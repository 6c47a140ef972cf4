// The console (issue 51): pages over ddl-service's own REST API, as the signed-in caller. Every
// figure of a table comes from a statement anyone could type (information_schema, DESCRIBE); the
// cluster's from GET /api/v1/cluster (cluster.js). So the console shows exactly what the caller may
// see. No build step: plain modules served as they are.

import {
  TOKEN, run, Problem, rows, show, quote, el, freshnessMillis, duration, health, badge, failure,
} from './common.js';
import {clusterPage} from './cluster.js';
import {propertyTable, resultTable, historyTable, lagChart, lineage, progressBar, loading} from './drawings.js';

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
  + 'next_refresh, load_progress, rebuild_progress, refresh_progress, snapshot_progress '
  + 'FROM information_schema.materialized_tables ORDER BY table_name';

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
    || (e.sourceRecordsBehind !== undefined ? e.sourceRecordsRead + ' source records read, ' + e.sourceRecordsBehind + ' to read' : '')
    || (event.type === 'RefreshProgress' ? e.sourceRecordsRead + ' source records read'
      + (e.sourceRecordsToRead !== undefined ? ' of ' + e.sourceRecordsToRead : '') : '')
    || (e.jobId ? 'job ' + e.jobId : '');
  return el('li', {'data-type': event.type}, el('span', {class: 'muted'}, (event.readAt || '').slice(11, 19)), ' ',
    el('strong', {}, event.type), said ? ' ' + said : '');
}

const liveNote = () => el('p', {class: 'muted', id: 'live'},
  'Redrawn as refresh events arrive (and every ' + LIVE_MILLIS / 1000 + ' s when they cannot be followed).');

/** How many rows the list draws before it asks to filter or to show them all. */
const LIST_MOST = 100;

async function tablesPage(gen) {
  const filter = el('input', {type: 'search', id: 'filter', placeholder: 'Filter by name or status'});
  const body = el('tbody');
  const more = el('p', {class: 'muted', id: 'more'});
  let all = false;
  let list = await rows(TABLES);
  if (gen !== routeGen) return;
  const count = el('span', {class: 'muted'}, '(' + list.length + ')');
  const draw = () => {
    const words = filter.value.trim().toLowerCase();
    const matching = list.filter(t => !words || (t.table_name + ' ' + (t.status || '')).toLowerCase().includes(words));
    body.replaceChildren(...(all ? matching : matching.slice(0, LIST_MOST))
      .map(t => el('tr', {'data-table': t.table_name},
        el('td', {}, el('a', {href: '#/table/' + encodeURIComponent(t.table_name)}, t.table_name)),
        el('td', {}, badge(t.status, health(t)), loading(t)),
        el('td', {}, t.refresh_mode),
        el('td', {}, t.freshness),
        el('td', {class: 'num'}, duration(t.measured_lag)),
        el('td', {}, t.last_refresh || ''),
        el('td', {}, t.next_refresh || ''))));
    more.replaceChildren(...(!all && matching.length > LIST_MOST
      ? ['Showing ' + LIST_MOST + ' of ' + matching.length.toLocaleString('en') + ': filter by name or status, or ',
        el('button', {type: 'button', id: 'show-all', onclick: () => { all = true; draw(); }}, 'show all')]
      : []));
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
        'last refresh', 'next refresh'].map(h => el('th', {}, h)))), body), more, liveNote());
}

/**
 * Long work under way on a table, each as a card with a bar where its share is known: a FULL
 * refresh running, its new query rebuilt beside it (a switch-over, a restore beside it, a rebuild
 * after an input's rows were replaced), the capture's snapshot of its sources (their rows readable
 * only once it ends), its streaming job catching up through its sources.
 */
function longWork(property, self) {
  const under = (words, prefixes) => prefixes.some(prefix => (words || '').startsWith(prefix));
  const cards = [];
  if (property['refresh.running']) {
    cards.push(el('div', {class: 'card', id: 'refresh-progress'}, el('h2', {}, 'Refreshing'),
      self?.refresh_progress != null ? progressBar(self.refresh_progress, self.refresh_time_left, 'refresh') : null,
      el('p', {class: 'muted'}, property['refresh.running'])));
  }
  const staged = [property['refresh.rebuild'], property['last_change.done']]
    .find(words => under(words, ['rebuilding', 'switching over', 'restoring']));
  if (staged) {
    cards.push(el('div', {class: 'card', id: 'rebuild-progress'},
      el('h2', {}, under(staged, ['rebuilding']) ? 'Rebuilding' : 'Switching over to the new query'),
      self?.rebuild_progress != null ? progressBar(self.rebuild_progress, self.rebuild_time_left, 'rebuild') : null,
      el('p', {class: 'muted'}, staged)));
  }
  if (property['refresh.source_snapshot']) {
    cards.push(el('div', {class: 'card', id: 'snapshot-progress'}, el('h2', {}, 'The capture is snapshotting its sources'),
      self?.snapshot_progress != null ? progressBar(self.snapshot_progress, self.snapshot_time_left, 'snapshot') : null,
      el('p', {class: 'muted'}, property['refresh.source_snapshot'])));
  }
  if (under(property['refresh.initial_load'], ['catching up'])) {
    cards.push(el('div', {class: 'card', id: 'progress'}, el('h2', {}, 'Catching up through its sources'),
      progressBar(self?.load_progress ?? 0, self?.load_time_left),
      el('p', {class: 'muted'}, property['refresh.initial_load'])));
  }
  return cards;
}

async function tablePage(name, gen) {
  const heading = el('h1'), reason = el('div'), progress = el('div'), plan = el('div', {class: 'card'});
  const definition = el('div', {class: 'card'}), chart = el('div', {class: 'card'}), history = el('div');
  // What changes as events arrive: redrawn in place every LIVE_MILLIS while the page is shown.
  const draw = async () => {
    const [described, tables, refreshes] = await Promise.all([
      rows('DESCRIBE MATERIALIZED TABLE ' + name),
      rows('SELECT table_name, freshness, status, measured_lag, load_progress, load_time_left, '
        + 'rebuild_progress, rebuild_time_left, refresh_progress, refresh_time_left, '
        + 'snapshot_progress, snapshot_time_left '
        + 'FROM information_schema.materialized_tables'),
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
    progress.replaceChildren(...longWork(property, self));
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
  show(heading, reason, progress, el('div', {class: 'cols'}, plan, definition),
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
  // Its readers with their freshness in one statement: each information_schema statement builds
  // every table's row, so two (the edges, then the tables) built them twice.
  const [columns, dependencies] = await Promise.all([
    rows('DESCRIBE ' + name),
    rows('SELECT d.table_name, d.upstream_table, d.upstream_kind, m.freshness, m.status, m.measured_lag '
      + 'FROM information_schema.table_dependencies d '
      + 'LEFT JOIN information_schema.materialized_tables m ON m.table_name = d.table_name'),
  ]);
  if (gen !== routeGen) return;
  const byName = Object.fromEntries(dependencies.map(d => [d.table_name, d]));
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
    link.classList.toggle('current', link.dataset.nav === (['sql', 'cluster'].includes(page) ? page : 'tables'));
  }
  try {
    if (page === 'sql') sqlPage();
    else if (page === 'cluster') await clusterPage(() => gen === routeGen && sessionStorage.getItem(TOKEN));
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
