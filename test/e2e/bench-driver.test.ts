// The ui bench's bare DevTools driver (test/bench/cdp-browser.ts) against Kubetide in browser mode on
// the embedded cluster: its input must be real to the page (keydown, keypress and input events with a
// real keyboard's key and code, a wheel that scrolls, a click that opens), and the page's own timing
// (event timing entries, long tasks, the bench probe's keystroke latencies) must still arrive, so the
// ui bench measures with it what it measured through playwright-core.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserMode, type BrowserMode } from '../../main/app/serve';
import { byTestId, type BenchPage } from '../bench/bench-page';
import { CdpBrowser } from '../bench/cdp-browser';

const probeScript = fileURLToPath(new URL('../bench/ui-page-probe.js', import.meta.url));
let mode: BrowserMode;
let dataDirectory: string;
let browser: CdpBrowser;
let page: BenchPage;

const attribute = (selector: string, name: string) =>
  page.evaluate((asked) => document.querySelector(asked.selector)?.getAttribute(asked.name) ?? null, {
    selector,
    name,
  });

beforeAll(async () => {
  dataDirectory = mkdtempSync(join(tmpdir(), 'kubetide-bench-driver-'));
  mode = await startBrowserMode({
    port: 0,
    embedded: true,
    pods: 600,
    churn: false,
    dataDirectory,
    log: () => undefined,
  });
  browser = await CdpBrowser.launch({
    width: 1440,
    height: 900,
    colorScheme: 'dark',
    initScriptPath: probeScript,
  });
  page = await browser.newPage();
  await page.goto(mode.launchUrl());
  await page.waitForFunction(
    () => document.querySelector('[data-testid="sync-state"]')?.textContent === 'synced',
    undefined,
    { timeout: 60_000 },
  );
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await mode?.close();
  if (dataDirectory) rmSync(dataDirectory, { recursive: true, force: true });
});

describe('the ui bench driver over bare DevTools', { timeout: 60_000 }, () => {
  it('types into the filter bar as a keyboard does, and Enter leaves it', async () => {
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      for (const type of ['keydown', 'keypress', 'keyup'])
        window.addEventListener(
          type,
          (event) =>
            seen.push(`${event.type} ${(event as KeyboardEvent).key} ${(event as KeyboardEvent).code}`),
          true,
        );
      window.addEventListener(
        'input',
        (event) => seen.push(`input ${(event as InputEvent).inputType} ${(event as InputEvent).data}`),
        true,
      );
    });
    await page.click(byTestId('filter-input'));
    await page.keyboard.type('app=a!', { delay: 5 });
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen.splice(0));
    expect(seen.slice(0, 4)).toEqual([
      'keydown a KeyA',
      'keypress a KeyA',
      'input insertText a',
      'keyup a KeyA',
    ]);
    expect(seen).toContain('keydown = Equal');
    expect(seen).toContain('input insertText !');
    expect(seen).toContain('keydown ! Digit1');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('app=web', { delay: 5 });
    const input = byTestId('filter-input');
    expect(
      await page.evaluate((selector) => (document.querySelector(selector) as HTMLInputElement).value, input),
    ).toBe('app=web');
    // The table answers the typed text (its data-filter names the text its rows answer).
    await page.waitForFunction(
      () => document.querySelector('main.content')?.getAttribute('data-filter') === 'app=web',
    );
    // Escape closes any completion list; Enter, with none, leaves the field.
    await page.keyboard.press('Escape');
    await page.click(input);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Escape');
    await page.click(input);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null)).not.toBe(
      'filter-input',
    );
    await page.waitForFunction(
      () => document.querySelector('main.content')?.getAttribute('data-filter') === '',
    );
  });

  it('scrolls the table with the mouse wheel', async () => {
    const body = byTestId('table-body');
    const box = await page.boundingBox(body);
    expect(box).not.toBeNull();
    const scrollTop = () => page.evaluate((selector) => document.querySelector(selector)!.scrollTop, body);
    expect(await scrollTop()).toBe(0);
    await page.mouse.move(box!.x + box!.width / 2, box!.y + box!.height / 2);
    for (let notch = 0; notch < 5; notch++) await page.mouse.wheel(0, 240);
    await page.waitForFunction((selector) => document.querySelector(selector)!.scrollTop > 0, body);
    for (let notch = 0; notch < 5; notch++) await page.mouse.wheel(0, -240);
    await page.waitForFunction((selector) => document.querySelector(selector)!.scrollTop === 0, body);
  });

  it('clicks by selector: a sidebar kind opens its table, a row and Enter its detail', async () => {
    await page.click('[data-testid="sidebar"] [data-kind="deployments"]');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="kind-title"]')?.textContent === 'Deployments',
    );
    await page.click('[data-testid="sidebar"] [data-kind="pods"]');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="kind-title"]')?.textContent === 'Pods',
    );
    await page.click('[role="row"][data-key]', { nth: 2 });
    const key = (await attribute('[role="row"][data-key][aria-selected="true"]', 'data-key')) ?? '';
    expect(key).toContain('/');
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      (name) => document.querySelector('[data-testid="detail-name"]')?.textContent === name,
      key.split('/').pop(),
    );
    await page.keyboard.press('Escape');
  });

  it('leaves the page its event timing, long-task entries and the probe keystroke latencies', async () => {
    await page.evaluate(() => {
      const entries: string[] = [];
      (window as unknown as { entries: string[] }).entries = entries;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          entries.push(`${entry.entryType} ${entry.name} ${Math.round(entry.duration)} ${entry.startTime}`);
      }).observe({ type: 'event', durationThreshold: 16 } as PerformanceObserverInit);
      // A slow handler: its keydown's event timing entry lasts at least this long.
      window.addEventListener('keydown', (event) => {
        if (event.key !== 'x') return;
        const until = performance.now() + 60;
        while (performance.now() < until);
      });
    });
    const probe = 'window.kubetideProbe';
    const from = await page.evaluate<number>(`${probe}.now()`);
    await page.click(byTestId('filter-input'));
    await page.evaluate(`${probe}.startKeystrokes()`);
    await page.keyboard.type('x', { delay: 5 });
    const typed = await page.evaluate<{ latencies: number[]; unanswered: number }>(
      `${probe}.stopKeystrokes(10000)`,
    );
    expect(typed.unanswered).toBe(0);
    expect(typed.latencies).toHaveLength(1);
    // Keydown to the painted answer: the handler's 60 ms are inside it.
    expect(typed.latencies[0]).toBeGreaterThanOrEqual(60);
    // A task of the page's own over 50 ms is a long task.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) =>
          setTimeout(() => {
            const until = performance.now() + 120;
            while (performance.now() < until);
            resolve();
          }),
        ),
    );
    await page.waitForTimeout(200);
    const to = await page.evaluate<number>(`${probe}.now()`);
    const longTasks = await page.evaluate<number[]>(`${probe}.longTasksBetween(${from}, ${to})`);
    expect(longTasks.some((duration) => duration >= 120)).toBe(true);
    // The typed key's entry, not a late one of an earlier test's key (Escape's, 16 ms, reached this
    // observer once in CI): the first keydown the page timed after `from`.
    await page.waitForFunction(
      (after) =>
        (window as unknown as { entries: string[] }).entries.some(
          (entry) => entry.startsWith('event keydown') && Number(entry.split(' ')[3]) >= after,
        ),
      from,
    );
    const entries = await page.evaluate(() => (window as unknown as { entries: string[] }).entries);
    const keydown = entries.find(
      (entry) => entry.startsWith('event keydown') && Number(entry.split(' ')[3]) >= from,
    )!;
    expect(Number(keydown.split(' ')[2])).toBeGreaterThanOrEqual(60);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
  });
});
