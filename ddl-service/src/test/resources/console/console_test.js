// The console in a real Chromium (Debian's), driven by playwright-core (npm), as a user would:
// sign in, create a materialized table from the SQL editor, see an error's place, find the table,
// its plan, lineage and lag chart, click through to its source, read a suspended table's reason,
// a table's progress through its sources, and the cluster's slots and jobs. Screenshots of each
// step go to the screenshots directory (a build artifact).
// Usage: node console_test.js <console url> <token> <screenshots dir> <schema> <node_modules dir>
'use strict';
const path = require('path');
const [, , url, token, shots, db, modules] = process.argv;
const {chromium} = require(path.join(modules, 'playwright-core'));

/** The next line the test writes to this script (after it sent an event). */
const lines = require('readline').createInterface({input: process.stdin});
const waiting = [];
lines.on('line', line => waiting.shift()?.(line));
const nextLine = () => Promise.race([new Promise(resolve => waiting.push(resolve)),
  new Promise((_, reject) => setTimeout(() => reject(new Error('no line from the test in 30 s')), 30000).unref())]);

const expect = (ok, what) => {
  if (!ok) throw new Error('expected ' + what);
};

const began = Date.now();
const log = line => console.log(line + ' (' + ((Date.now() - began) / 1000).toFixed(1) + ' s)');

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.MT_CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-background-networking'],
  });
  const page = await browser.newPage({viewport: {width: 1280, height: 900}});
  const pageErrors = [];
  page.on('pageerror', error => pageErrors.push(error.message));
  // A refused style or script (the Content-Security-Policy) is a console error.
  page.on('console', message => {
    if (message.type() === 'error' && !/status of 40[01]/.test(message.text())) pageErrors.push(message.text());
  });
  page.setDefaultTimeout(20000);
  const shot = name => page.screenshot({path: path.join(shots, name + '.png'), fullPage: true});
  const text = async selector => (await page.locator(selector).first().textContent()).trim();
  const sql = async statement => {
    await page.fill('#sql', statement);
    await page.click('#run');
    await page.waitForSelector('#result :is(#status, #answer, .error)');
  };
  try {
    await page.goto(url);
    await page.fill('#token', 'mtk.nobody.wrong');
    await page.click('button[type=submit]');
    await page.waitForSelector('[role=alert]');
    expect(/Unauthenticated|credential|token/i.test(await text('[role=alert]')), 'a wrong token refused');
    log('signed out: a wrong token is refused');

    await page.fill('#token', token);
    await page.click('button[type=submit]');
    await page.waitForSelector('#tables');
    log('signed in');

    await page.goto(url + '#/sql');
    await sql(`CREATE TABLE ${db}.visits (id BIGINT, ds STRING) WITH ('connector' = 'datagen')`);
    expect((await text('#status')).startsWith('SUCCEEDED'), 'the source created');
    await sql(`CREATE MATERIALIZED TABLE ${db}.daily FRESHNESS = INTERVAL '1' HOUR\n`
      + `AS SELECT ds, COUNT(*) AS n FROM ${db}.visits GROUP BY ds`);
    expect((await text('#status')).startsWith('SUCCEEDED'), 'the materialized table created');
    log('created from the editor: ' + await text('#status'));

    await sql(`SELECT ds,\n  nope\nFROM ${db}.daily`);
    await page.waitForSelector('#position');
    const position = await text('#position');
    const caret = await page.locator('#caret').textContent();
    await shot('1-error-position');
    expect(position === 'At line 2, column 3:', 'the error at line 2, column 3, not ' + position);
    expect(caret === '  nope\n  ^', 'the line and a caret under its column, not ' + JSON.stringify(caret));
    log('error shown ' + position + ' ' + JSON.stringify(caret));

    await page.goto(url + '#/');
    await page.waitForSelector('#tables');
    await page.fill('#filter', db);
    await page.waitForSelector(`#tables tr[data-table="default_catalog.${db}.held"]`);
    expect(await page.locator('#tables tbody tr').count() === 2, 'two tables of the schema listed');
    expect((await text(`#tables tr[data-table="default_catalog.${db}.held"] .badge`)) === 'SUSPENDED',
      'the suspended table marked SUSPENDED');
    const dailyStatus = await text(`#tables tr[data-table="default_catalog.${db}.daily"] .badge`);
    await shot('2-tables');
    log('listed: daily and held (SUSPENDED)');

    await page.click(`a[href="#/table/${encodeURIComponent('default_catalog.' + db + '.daily')}"]`);
    await page.waitForSelector('#lineage');
    expect((await text('#plan')).includes('Not planned yet'), 'a table not planned yet says so');
    const upstream = page.locator(`#lineage .node[data-table="default_catalog.${db}.visits"]`);
    expect(await upstream.count() === 1, 'the source in the lineage');
    await shot('3-table');
    await upstream.click();
    await page.waitForSelector('#columns');
    expect((await text('h1')).includes(`${db}.visits`), 'the upstream table\'s page');
    expect((await text('#columns')).includes('ds'), 'the source\'s columns');
    const downstream = page.locator(`#lineage .node[data-table="default_catalog.${db}.daily"]`);
    expect(await downstream.count() === 1, 'the table that reads it');
    const readerTitle = await downstream.locator('title').textContent();
    expect(readerTitle.endsWith(`(${dailyStatus || 'no report yet'})`),
      `the reader drawn with its status as the list shows it (${dailyStatus}), not ${readerTitle}`);
    await shot('4-source');
    log('lineage: daily -> visits and back');

    const following = page.waitForResponse(response => response.url().includes('/api/v1/events?table='));
    await page.goto(url + '#/table/' + encodeURIComponent(`default_catalog.${db}.held`));
    expect((await following).status() === 200, 'the page follows the table\'s events');
    await page.waitForSelector('#reason');
    expect((await text('#reason')).includes('5 failures in a row; the last: boom.'), 'the suspended reason');
    const plan = await text('#plan');
    expect(plan.includes('plan.mode') && plan.includes('CONTINUOUS (test)'), 'the plan and its reasons');
    await page.waitForSelector('#lag-chart circle');
    const points = await page.locator('#lag-chart .lag-point').count();
    expect(points >= 3, 'a lag point per refresh, not ' + points);
    expect(await page.locator('#freshness-line').count() === 1, 'the freshness line');
    expect(await page.locator('#history tbody tr').count() >= 3, 'the refresh history');
    await shot('5-suspended');
    log('suspended: reason shown; lag chart of ' + points + ' points against the freshness');

    // The job manager resumes it while the page is open: the page shows it without a reload.
    console.log('awaiting an event');
    await nextLine();
    await page.waitForFunction(() => document.querySelector('h1 .badge')?.textContent === 'ACTIVATED');
    await page.waitForSelector('#events li[data-type="JobStarted"]');
    expect((await text('#events li[data-type="JobStarted"]')).includes('job 0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a'),
      'the event as it arrived');
    expect(await page.locator('#reason').count() === 0, 'the reason gone once it runs again');
    await page.waitForSelector('#progress-percent');
    await page.waitForSelector('#events li[data-type="LoadProgress"]');
    expect((await text('#events li[data-type="LoadProgress"]')).includes('3500000 source records read, 1150000 to read'),
      'the load\'s event as it arrived');
    expect((await text('#progress-percent')) === '75.3%', 'how far its job is through its sources');
    expect((await text('#progress')).includes('about 1 min 55 s left'), 'the time left: ' + await text('#progress'));
    await shot('6-running-again');
    log('live: ACTIVATED shown as it arrived');

    await page.click('header nav a[data-nav="tables"]');
    // The list draws its first 100 matches: other tests' tables may come before these.
    await page.waitForSelector('#filter');
    await page.fill('#filter', db);
    await page.waitForSelector(`#tables tr[data-table="default_catalog.${db}.held"] .loading`);
    expect((await text(`#tables tr[data-table="default_catalog.${db}.held"] .loading`)) === 'loading 75%',
      'the list says it is loading');
    log('progress: 75.3% through its sources, about 115 s left');

    // A FULL refresh of daily runs: its page and the list say how far it is.
    console.log('awaiting a refresh');
    await nextLine();
    await page.waitForSelector(`#tables tr[data-table="default_catalog.${db}.daily"] .loading`);
    expect((await text(`#tables tr[data-table="default_catalog.${db}.daily"] .loading`)) === 'refreshing 25%',
      'the list says it is refreshing: ' + await text(`#tables tr[data-table="default_catalog.${db}.daily"] .loading`));
    await page.goto(url + '#/table/' + encodeURIComponent(`default_catalog.${db}.daily`));
    await page.waitForSelector('#refresh-percent');
    expect((await text('#refresh-percent')) === '25.0%', 'how far the refresh is');
    expect((await text('#refresh-progress')).includes('4,800,000 source records it reads'),
      'what it reads in all: ' + await text('#refresh-progress'));
    expect(/about 1 min (29|30|31) s left/.test(await text('#refresh-progress .progress')),
      'the time left in the words DESCRIBE uses: ' + await text('#refresh-progress .progress'));
    await shot('6b-refreshing');
    log('refresh progress: 25.0% of its sources\' records, in the list and on its page');

    // The cluster: its slots, the table waiting for one, the running job linked to Flink's UI.
    await page.click('header nav a[data-nav="cluster"]');
    await page.waitForSelector('#slots');
    expect((await text('#slots tr[data-slots="total"] td.num')) === '4', 'the cluster\'s 4 slots');
    expect((await text('#slots tr[data-slots="used"] td.num')) === '3', '3 of them used');
    expect(await page.locator('#slot-bar rect').count() === 3, 'the slots drawn as one bar');
    const job = page.locator(`#jobs tr[data-table="default_catalog.${db}.held"] a.flink`);
    expect((await job.getAttribute('href')) === 'http://127.0.0.1:8085/#/job/running/0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c/overview',
      'the job linked to its page in Flink\'s UI');
    await shot('7-cluster');
    await page.click(`#queued a[href="#/table/${encodeURIComponent('default_catalog.' + db + '.daily')}"]`);
    await page.waitForFunction(name => document.querySelector('h1')?.textContent.includes(name), `${db}.daily`);
    log('cluster: 3 of 4 slots used, the queued table one click from its page');

    expect(pageErrors.length === 0, 'no script error in the page: ' + pageErrors.join('; '));
    console.log('done');
  } catch (error) {
    await shot('failed').catch(() => {});
    console.log('FAILED: ' + error.message);
    process.exitCode = 1;
  } finally {
    await browser.close();
    lines.close();
    log('browser closed');
  }
})();
