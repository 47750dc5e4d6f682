// What the history e2e tests do to the page as a person would: type a filter and leave the bar, and
// click the timeline at a moment.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { fillFilter } from './chromium';

/** Opens the filter bar, types `text` (waiting until the table answers it) and leaves the bar. */
export async function setFilter(page: Page, text: string): Promise<void> {
  await page.keyboard.press('/');
  await fillFilter(page, text);
  await page.keyboard.press('Escape');
}

/**
 * Clicks the timeline where `time` is, once the timeline covers it, and checks the moment reached.
 * The live timeline rescales every 2 s; one landing between reading its scale here and the press
 * moves the moment by up to that much, so such a click is made again on the new scale.
 */
export async function scrubTo(page: Page, time: number): Promise<void> {
  const timeline = page.getByTestId('timeline');
  const chart = page.getByTestId('timeline-chart');
  await expect
    .poll(async () => Number(await timeline.getAttribute('data-to')), { timeout: 15_000 })
    .toBeGreaterThan(time);
  for (let attempt = 1; ; attempt++) {
    const from = Number(await timeline.getAttribute('data-from'));
    const to = Number(await timeline.getAttribute('data-to'));
    // A moment before the recording's start would be a click beside the chart, which travels nowhere:
    // say so here rather than as a later wait for the travel banner.
    expect(
      time,
      `scrub to ${new Date(time).toISOString()}: the timeline starts at ${new Date(from).toISOString()}`,
    ).toBeGreaterThanOrEqual(from);
    const box = (await chart.boundingBox())!;
    await page.mouse.click(box.x + ((time - from) / (to - from)) * box.width, box.y + box.height / 2);
    // Two pixels of the scale clicked on: the click's own rounding.
    const tolerance = (2 * (to - from)) / box.width;
    const reached = expect
      .poll(async () => Math.abs(Number(await chart.getAttribute('aria-valuenow')) - time), {
        timeout: 2_000,
      })
      .toBeLessThanOrEqual(tolerance);
    if (attempt === 3) return await reached;
    if (
      await reached.then(
        () => true,
        () => false,
      )
    )
      return;
  }
}
