// Debian's Chromium driven by playwright-core: never `playwright install`, no sandbox (containers),
// no background traffic. Screenshots go to test-artifacts/screenshots (git-ignored).
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

export const screenshotFolder = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'test-artifacts',
  'screenshots',
);

/** The system Chromium, as `which chromium` finds it. */
export function chromiumExecutable(): string {
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim() || '/usr/bin/chromium';
  } catch {
    return '/usr/bin/chromium';
  }
}

/** `extraArguments`: switches beside these (a bench's experiment, e.g. --js-flags). */
export async function launchChromium(extraArguments: readonly string[] = []): Promise<Browser> {
  mkdirSync(screenshotFolder, { recursive: true });
  return chromium.launch({
    executablePath: chromiumExecutable(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...extraArguments,
    ],
  });
}

export function screenshotPath(name: string): string {
  return join(screenshotFolder, `${name}.png`);
}

/**
 * Types `text` into the filter bar and waits until the table answers it. The table follows the typed
 * text a render behind (useDeferredValue), so rows read right after typing may still answer the text
 * before; the content's data-filter names the text its rows answer.
 */
export async function fillFilter(page: Page, text: string): Promise<void> {
  await page.getByTestId('filter-input').fill(text);
  await page.waitForFunction(
    (typed) => document.querySelector('main.content')?.getAttribute('data-filter') === typed,
    text,
  );
}
