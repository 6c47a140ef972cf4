// Times the console's pages as a user opens them, in Debian's Chromium through playwright-core,
// until the page is drawn: each a full load (the page, its script and the statements it runs, as
// from a bookmark), then each reached from another page of the console (a link followed: the
// script is loaded, the statements run and the page drawn).
// Usage: node console_loads.js <console url> <token> <loads> <table> <source> <node_modules dir>
// Prints one line per page and way: "<page> <load ms>,<load ms>,..." (in-console: "<page>-nav").
// With MT_BENCH_PROFILE=1, also where each full load's time went, from the page's own timeline
// (navigation and resource timing, and when the page was first drawn), on stderr: p50 of each step.
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

/**
 * In the page, before its scripts: marks when any page's drawn selector first matches (in the DOM)
 * and when the frame after it began (its style, layout and paint done).
 */
function markDrawn(selectors) {
  new MutationObserver((_, observer) => {
    if (selectors.some(selector => document.querySelector(selector))) {
      performance.mark('drawn');
      requestAnimationFrame(() => requestAnimationFrame(() => performance.mark('painted')));
      observer.disconnect();
    }
  }).observe(document, {childList: true, subtree: true});
}

/** In the page: when each step of its load ended, ms from the navigation's start. */
async function timeline() {
  for (let i = 0; i < 100 && !performance.getEntriesByName('painted').length; i++) {
    await new Promise(resolve => setTimeout(resolve, 10));
  }
  const navigation = performance.getEntriesByType('navigation')[0];
  const resources = performance.getEntriesByType('resource');
  const scripts = resources.filter(r => r.name.endsWith('.js'));
  const statements = resources.filter(r => r.name.includes('/api/v1/statements'));
  const drawn = performance.getEntriesByName('drawn')[0];
  const painted = performance.getEntriesByName('painted')[0];
  return {
    'page received': navigation.responseEnd,
    'scripts received': Math.max(0, ...scripts.map(r => r.responseEnd)),
    'DOM content loaded': navigation.domContentLoadedEventEnd,
    'first statement sent': statements.length ? Math.min(...statements.map(r => r.startTime)) : 0,
    'statements answered': Math.max(0, ...statements.map(r => r.responseEnd)),
    'slowest statement': Math.max(0, ...statements.map(r => r.responseEnd - r.startTime)),
    'in the DOM': drawn ? drawn.startTime : 0,
    'painted': painted ? painted.startTime : 0,
  };
}

function medians(steps) {
  return Object.keys(steps[0]).map(key => {
    const values = steps.map(step => step[key]).sort((a, b) => a - b);
    return key + ' ' + Math.round(values[Math.floor((values.length - 1) / 2)]);
  }).join(', ');
}

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.MT_CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(60000);
    const profile = process.env.MT_BENCH_PROFILE === '1';
    if (profile) await page.addInitScript(markDrawn, PAGES.map(([, , drawn]) => drawn));
    await page.goto(url);
    await page.fill('#token', token);
    await page.click('button[type=submit]');
    await page.waitForSelector('#tables');
    for (const [name, hash, drawn] of PAGES) {
      const times = [];
      const steps = [];
      for (let i = 0; i < Number(loads) + 1; i++) {
        await page.goto('about:blank');
        const start = Date.now();
        await page.goto(url + hash);
        await page.waitForSelector(drawn);
        if (i > 0) times.push(Date.now() - start); // the first warms the browser's cache
        if (i > 0 && profile) steps.push(await page.evaluate(timeline));
      }
      console.log(name + ' ' + times.join(','));
      if (profile) console.error(name + ' (p50 ms from the navigation\'s start): ' + medians(steps));
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
