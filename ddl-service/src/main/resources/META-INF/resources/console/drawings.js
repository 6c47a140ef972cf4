// What the pages draw: tables of properties, results and history, the lag chart against the
// freshness line, and the lineage graph.

import {el, svg, duration, health, badge} from './common.js';

export function propertyTable(list, id) {
  return el('table', {id},
    list.map(r => el('tr', {}, el('th', {}, r.property), el('td', {}, el('pre', {}, r.value ?? '')))));
}

export function resultTable(body, id) {
  return el('table', {id},
    el('thead', {}, el('tr', {}, body.columns.map(c => el('th', {}, c.name)))),
    el('tbody', {}, body.rows.map(r => el('tr', {}, r.map(v => el('td', {}, v === null ? 'NULL' : v))))));
}

export function historyTable(history) {
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
export function lagChart(history, target) {
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
export function lineage(name, dependencies, byName) {
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
  // A column of more than MOST_PER_COLUMN tables shows the first of them by name and counts the
  // rest: a source read by a thousand tables stays a drawing one can read (and draws in time).
  const hidden = new Map();
  for (const [depth, tables] of columns) {
    if (tables.length > MOST_PER_COLUMN) {
      tables.sort();
      hidden.set(depth, tables.length - (MOST_PER_COLUMN - 1));
      columns.set(depth, tables.slice(0, MOST_PER_COLUMN - 1));
    }
  }
  const depths = [...columns.keys()].sort((a, b) => a - b);
  const nodeWidth = 230, nodeHeight = 34, gapX = 70, gapY = 18;
  const tallest = Math.max(...[...columns.keys()].map(d => columns.get(d).length + (hidden.has(d) ? 1 : 0)));
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
  depths.forEach((depth, i) => {
    if (!hidden.has(depth)) return;
    const x = i * (nodeWidth + gapX) + 10, y = (MOST_PER_COLUMN - 1) * (nodeHeight + gapY) + 10;
    drawing.append(svg('g', {class: 'more', id: 'lineage-more'},
      svg('rect', {x, y, width: nodeWidth, height: nodeHeight, rx: 6, fill: '#fff', stroke: '#a0aec0',
        'stroke-dasharray': '4 3'}),
      svg('text', {x: x + 10, y: y + 21, fill: '#1d2330'}, '+ ' + hidden.get(depth) + ' more tables')));
  });
  return drawing;
}

/** How many tables of one column of the lineage are drawn by name. */
const MOST_PER_COLUMN = 40;

/** A share done as a bar, with its percentage and the time left (ms) when known. */
export function progressBar(percent, timeLeftMillis, id = 'progress') {
  const done = Math.max(0, Math.min(100, percent));
  return el('div', {class: 'progress'},
    svg('svg', {id: id + '-bar', viewBox: '0 0 400 14', preserveAspectRatio: 'none', width: '100%', height: 14,
      role: 'img', 'aria-label': done.toFixed(1) + '% done'},
    svg('rect', {class: 'progress-left', x: 0, y: 0, width: 400, height: 14}),
    svg('rect', {class: 'progress-done', x: 0, y: 0, width: 4 * done, height: 14})),
    el('strong', {id: id + '-percent'}, done.toFixed(1) + '%'),
    timeLeftMillis !== null && timeLeftMillis !== undefined
      ? el('span', {class: 'muted'}, ' about ', timeLeft(timeLeftMillis), ' left') : null);
}

/** A time left in words, as DESCRIBE says it: "42 s", "1 min 55 s", "2 h 5 min". */
export function timeLeft(ms) {
  const seconds = Math.max(1, Math.round(ms / 1000));
  if (seconds < 60) return seconds + ' s';
  if (seconds < 3600) return Math.floor(seconds / 60) + ' min' + (seconds % 60 ? ' ' + seconds % 60 + ' s' : '');
  const minutes = Math.floor(seconds / 60);
  return Math.floor(minutes / 60) + ' h' + (minutes % 60 ? ' ' + minutes % 60 + ' min' : '');
}

/**
 * Beside a table's status in the list: how far its long work is, a FULL refresh running, its new
 * query rebuilt beside it, the capture's snapshot of its sources, or its streaming job catching up.
 */
export function loading(table) {
  const under = (percent) => percent !== null && percent !== undefined && percent < 100;
  const [what, percent] = under(table.refresh_progress) ? ['refreshing', table.refresh_progress]
    : under(table.rebuild_progress) ? ['rebuilding', table.rebuild_progress]
    : under(table.snapshot_progress) ? ['snapshotting', table.snapshot_progress]
    : under(table.load_progress) ? ['loading', table.load_progress] : [null, null];
  return what ? el('span', {class: 'muted loading'}, ' ', what, ' ', Math.floor(percent), '%') : null;
}
