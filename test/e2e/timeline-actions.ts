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

/** Clicks the timeline where `time` is, once the timeline covers it. */
export async function scrubTo(page: Page, time: number): Promise<void> {
  const timeline = page.getByTestId('timeline');
  await expect
    .poll(async () => Number(await timeline.getAttribute('data-to')), { timeout: 15_000 })
    .toBeGreaterThan(time);
  const from = Number(await timeline.getAttribute('data-from'));
  const to = Number(await timeline.getAttribute('data-to'));
  const box = (await page.getByTestId('timeline-chart').boundingBox())!;
  await page.mouse.click(box.x + ((time - from) / (to - from)) * box.width, box.y + box.height / 2);
}
