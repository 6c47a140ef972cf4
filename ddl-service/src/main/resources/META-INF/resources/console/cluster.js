// The cluster page: the Flink cluster's task slots (used, free, kept for FULL refreshes), the tables
// waiting for slots, and our jobs with links to Flink's own UI, as the job manager last reported
// them (GET /api/v1/cluster). Asked again every few seconds while shown.

import {get, show, el, svg, badge, failure} from './common.js';

const EVERY_MILLIS = 3000;

/** Draws the page, then redraws it while {@code shown()} says it is still the page shown. */
export async function clusterPage(shown) {
  const page = el('div', {id: 'cluster'});
  const draw = async () => {
    try {
      page.replaceChildren(...drawn(await get('/api/v1/cluster')));
    } catch (error) {
      page.replaceChildren(failure(error));
    }
  };
  await draw();
  if (!shown()) return;
  show(el('h1', {}, 'Cluster'), page);
  const again = async () => {
    if (!shown()) return;
    await draw();
    setTimeout(again, EVERY_MILLIS);
  };
  setTimeout(again, EVERY_MILLIS);
}

function drawn(cluster) {
  const ago = Math.max(0, Math.round((Date.now() - Date.parse(cluster.observedAt)) / 1000));
  const streaming = cluster.jobs.filter(job => job.kind === 'STREAMING').length;
  return [
    // The job manager writes its report at least every 30 s: an older one means it is not looking.
    ago > 90 ? el('div', {class: 'reason', id: 'stale'}, el('strong', {}, 'No report for ' + ago + ' s: '),
      'the job manager has not looked at the cluster since; is it running (its readiness)?') : null,
    el('p', {class: 'muted'}, 'As the job manager saw it ', ago + ' s ago (' + cluster.observedAt + ').',
      cluster.flinkWebUrl ? [' Flink\'s own UI: ', el('a', {href: cluster.flinkWebUrl, target: '_blank', rel: 'noopener'},
        cluster.flinkWebUrl)] : null),
    el('div', {class: 'cols'},
      el('div', {class: 'card'},
        el('h2', {}, 'Task slots'),
        slotBar(cluster),
        el('table', {id: 'slots'}, el('tbody', {},
          row('total', cluster.slotsTotal, 'in ' + cluster.taskManagers + ' TaskManager' + (cluster.taskManagers === 1 ? '' : 's')),
          row('used', cluster.slotsUsed, streaming + ' streaming job' + (streaming === 1 ? '' : 's') + ' of yours'),
          row('free', cluster.slotsFree, ''),
          row('kept for FULL refreshes', cluster.slotsReserved, 'streaming jobs leave these free')))),
      el('div', {class: 'card'},
        el('h2', {}, 'Waiting for slots'),
        cluster.queuedTables.length || cluster.otherQueuedTables
          ? el('ol', {id: 'queued'}, cluster.queuedTables.map(table =>
            el('li', {}, el('a', {href: '#/table/' + encodeURIComponent(table)}, table))),
            cluster.otherQueuedTables ? el('li', {class: 'muted'}, cluster.otherQueuedTables + ' you may not see') : null)
          : el('p', {class: 'muted', id: 'queued'}, 'No table waits: every streaming job has its slots.'),
        el('p', {class: 'hint'}, 'They start in this order as slots free up: suspend or drop a table, or add a TaskManager.'))),
    el('h2', {}, 'Jobs'),
    el('table', {id: 'jobs'},
      el('thead', {}, el('tr', {}, ['table', 'kind', 'state', 'Flink job'].map(h => el('th', {}, h)))),
      el('tbody', {}, cluster.jobs.map(job => el('tr', {'data-table': job.table},
        el('td', {}, el('a', {href: '#/table/' + encodeURIComponent(job.table)}, job.table)),
        el('td', {}, job.kind === 'STREAMING' ? 'streaming' : 'FULL refresh'),
        el('td', {}, badge(job.state, job.state === 'RUNNING' ? 'ok' : ['FAILING', 'RESTARTING'].includes(job.state) ? 'bad' : 'idle')),
        el('td', {}, job.flinkUrl
          ? el('a', {class: 'flink', href: job.flinkUrl, target: '_blank', rel: 'noopener', title: job.jobName}, job.jobId)
          : el('code', {title: job.jobName}, job.jobId)))))),
    cluster.otherJobs ? el('p', {class: 'muted'}, cluster.otherJobs + ' more of tables you may not see.') : null,
  ].filter(Boolean);
}

const row = (what, count, note) =>
  el('tr', {'data-slots': what}, el('th', {}, what), el('td', {class: 'num'}, count), el('td', {class: 'muted'}, note));

/** The slots as one bar: used, then free; the free ones kept for FULL refreshes hatched last. */
function slotBar(cluster) {
  const total = Math.max(cluster.slotsTotal, 1);
  const keptFree = Math.min(cluster.slotsReserved, cluster.slotsFree);
  const parts = [['used', cluster.slotsUsed], ['free', cluster.slotsFree - keptFree], ['kept', keptFree]];
  let x = 0;
  const bars = parts.map(([kind, count]) => {
    const bar = svg('rect', {class: 'slots-' + kind, x: x, y: 0, width: 400 * count / total, height: 18},
      svg('title', {}, count + ' ' + kind));
    x += 400 * count / total;
    return bar;
  });
  return svg('svg', {id: 'slot-bar', viewBox: '0 0 400 18', preserveAspectRatio: 'none', width: '100%', height: 18, role: 'img',
    'aria-label': cluster.slotsUsed + ' of ' + cluster.slotsTotal + ' task slots used'}, ...bars);
}
