// Times the console's pages as a user opens them, in Debian's Chromium through playwright-core,
// until the page is drawn: each a full load (the page, its script and the statements it runs, as
// from a bookmark), then each reached from another page of the console (a link followed: the
// script is loaded, the statements run and the page drawn).
// Usage: node console_loads.js <console url> <token> <loads> <table> <source> <node_modules dir>
// Prints one line per page and way: "<page> <load ms>,<load ms>,..." (in-console: "<page>-nav").
'use strict';
const path = require('path');
const [, , url, token, loads, table, source, modules] = process.argv;
const {chromium} = require(path.join(modules, 'playwright-core'));

const PAGES = [
  ['tables', '#/', '#tables tbody tr'],
  ['table', '#/table/' + encodeURIComponent(table), '#lineage'],
  ['source', '#/source/' + encodeURIComponent(source), '#lineage'],
  ['sql', '#/sql', '#sql'],
];

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.MT_CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(60000);
    await page.goto(url);
    await page.fill('#token', token);
    await page.click('button[type=submit]');
    await page.waitForSelector('#tables');
    for (const [name, hash, drawn] of PAGES) {
      const times = [];
      for (let i = 0; i < Number(loads) + 1; i++) {
        await page.goto('about:blank');
        const start = Date.now();
        await page.goto(url + hash);
        await page.waitForSelector(drawn);
        if (i > 0) times.push(Date.now() - start); // the first warms the browser's cache
      }
      console.log(name + ' ' + times.join(','));
    }
    // Reached from another page: from the SQL editor, and the editor from the list.
    for (const [name, hash, drawn] of PAGES) {
      const [fromHash, fromDrawn] = name === 'sql' ? ['#/', '#tables tbody tr'] : ['#/sql', '#sql'];
      const times = [];
      for (let i = 0; i < Number(loads) + 1; i++) {
        await page.goto(url + fromHash);
        await page.waitForSelector(fromDrawn);
        const start = Date.now();
        await page.evaluate(h => { location.hash = h; }, hash);
        await page.waitForSelector(drawn);
        if (i > 0) times.push(Date.now() - start);
      }
      console.log(name + '-nav ' + times.join(','));
    }
  } finally {
    await browser.close();
  }
})().catch(error => {
  console.error(error);
  process.exit(1);
});
