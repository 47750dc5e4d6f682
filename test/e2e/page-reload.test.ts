// A page opened on a feed already synced in main (a reload, a second window, a renderer that
// reconnects): the feed's rows reach it as a snapshot, chunk by chunk, while main says "synced". The
// badge read "synced" over a table still filling (at 150,000 pods, 15 s from 2,000 rows to the
// last); it now says how far the rows have come until the snapshot's end, and "synced" only then.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startBrowserMode, type BrowserMode } from '../../main/app/serve';
import { launchChromium, screenshotPath } from './chromium';

const pods = 30_000;
const podsText = pods.toLocaleString('en-US');
let mode: BrowserMode;
let dataDirectory: string;
let browser: Browser;
let page: Page;

/** What the page showed at each of its frames: the badge's text and the table's row count. */
interface Sample {
  readonly badge: string;
  readonly rows: string;
}

interface SamplingWindow {
  kubetideSamples?: Sample[];
}

beforeAll(async () => {
  dataDirectory = mkdtempSync(join(tmpdir(), 'kubetide-reload-'));
  mode = await startBrowserMode({
    port: 0,
    embedded: true,
    pods,
    churn: false,
    record: false,
    dataDirectory,
    log: () => undefined,
  });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  // Every frame of every load of the page, from its first: what a person could have read in it.
  await page.addInitScript(() => {
    const samples: Sample[] = [];
    (window as SamplingWindow).kubetideSamples = samples;
    // No function is named here: the test's transform would wrap it in a helper the page lacks.
    void (async () => {
      for (;;) {
        await new Promise((resolve) => requestAnimationFrame(resolve));
        samples.push({
          badge: document.querySelector('[data-testid="sync-state"]')?.textContent ?? '',
          rows: document.querySelector('[data-testid="row-count"]')?.textContent ?? '',
        });
      }
    })();
  });
  await page.goto(mode.launchUrl());
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await mode?.close();
  rmSync(dataDirectory, { recursive: true, force: true });
});

const badge = () => page.getByTestId('sync-state').textContent();
const rows = () => page.getByTestId('row-count').textContent();

describe('a page opened on a feed main has synced', () => {
  it('says how far its rows have come, and "synced" only once the table holds them all', async () => {
    await expect.poll(badge, { timeout: 120_000 }).toBe('synced');
    await expect.poll(rows, { timeout: 60_000 }).toBe(podsText);

    await page.reload();
    await page
      .getByTestId('sync-state')
      .filter({ hasText: /^loading \d+% \([\d,]+ of 30,000\)$/ })
      .waitFor();
    await page.screenshot({ path: screenshotPath('reload-loading') });
    await expect.poll(badge, { timeout: 60_000 }).toBe('synced');
    expect(await rows()).toBe(podsText);

    const samples = await page.evaluate(() => (window as SamplingWindow).kubetideSamples ?? []);
    const loading = samples.filter((sample) => sample.badge.startsWith('loading'));
    expect(loading.length).toBeGreaterThan(0);
    const untrue = samples.filter((sample) => sample.badge === 'synced' && sample.rows !== podsText);
    expect(untrue, 'frames that read "synced" over a table short of its rows').toEqual([]);
  }, 240_000);
});
