// A page opened over a bare DevTools connection (cdp-browser.ts): the BenchPage surface on a flattened
// session to its target. Enabled here: Page (navigation's load event, the probe installed before the
// page's scripts) and Emulation (the benches' viewport, colour scheme and focus, as playwright-core
// sets them). Never Network: with it enabled Chromium copies every WebSocket message into a protocol
// event on the page's main thread (~23 us a row, test/bench/ws-frame-cost.ts), a cost no user pays.
// Values come back from the page as JSON text whose non-finite numbers are tagged, so a NaN (a probe's
// "not seen in time") arrives as NaN, not as the protocol's null.
import { readFileSync } from 'node:fs';
import type { CdpConnection, CdpSession } from './cdp-connection';
import { CdpKeyboard, CdpMouse } from './cdp-input';
import type { BenchPage, Box, PageSetup, WaitOptions } from './bench-page';

const defaultTimeoutMs = 30_000;
const nonFinite = '__kubetideNonFinite';

/** Page-side text: `value` as JSON, NaN and the infinities tagged (JSON has no spelling for them). */
const serialised = (value: string) =>
  `JSON.stringify(${value}, (key, item) => typeof item === 'number' && !Number.isFinite(item) ? { ${nonFinite}: String(item) } : item)`;

function parsed<R>(text: string | undefined): R {
  if (text === undefined) return undefined as R;
  return JSON.parse(text, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && nonFinite in item
      ? Number((item as Record<string, string>)[nonFinite])
      : item,
  ) as R;
}

/** A call of `fn` (its source text) with the argument, as page-side text. */
const call = (fn: string | ((argument: never) => unknown), argument: unknown) =>
  typeof fn === 'string'
    ? `(${fn})`
    : `(${fn.toString()})(${argument === undefined ? '' : JSON.stringify(argument)})`;

export class CdpPage implements BenchPage {
  readonly keyboard: CdpKeyboard;
  readonly mouse: CdpMouse;

  private constructor(
    readonly cdp: CdpSession,
    private readonly browser: CdpSession,
    private readonly targetId: string,
  ) {
    this.keyboard = new CdpKeyboard(cdp);
    this.mouse = new CdpMouse(cdp);
  }

  /** A new tab, attached and set up before anything loads in it. */
  static async open(connection: CdpConnection, setup: PageSetup): Promise<CdpPage> {
    const browser = connection.session();
    // A browser context of its own, whose tab opens in a window of its own, as playwright-core opens
    // each page.
    const { browserContextId } = await browser.send<{ browserContextId: string }>(
      'Target.createBrowserContext',
      {
        disposeOnDetach: true,
      },
    );
    const { targetId } = await browser.send<{ targetId: string }>('Target.createTarget', {
      url: 'about:blank',
      browserContextId,
    });
    const { sessionId } = await browser.send<{ sessionId: string }>('Target.attachToTarget', {
      targetId,
      flatten: true,
    });
    const cdp = connection.session(sessionId);
    // The window at the viewport's size too (a headless window is 800x600 otherwise, and the page
    // then paints an emulated 1440x900 view into it: frames at half rate in the ui bench's scroll).
    const { windowId } = await browser.send<{ windowId: number }>('Browser.getWindowForTarget', { targetId });
    await browser.send('Browser.setWindowBounds', {
      windowId,
      bounds: { width: setup.width, height: setup.height },
    });
    await cdp.send('Page.enable');
    await cdp.send('Emulation.setDeviceMetricsOverride', {
      width: setup.width,
      height: setup.height,
      deviceScaleFactor: 1,
      mobile: false,
      screenWidth: setup.width,
      screenHeight: setup.height,
    });
    await cdp.send('Emulation.setEmulatedMedia', {
      features: [{ name: 'prefers-color-scheme', value: setup.colorScheme }],
    });
    // The page reads as focused (document.hasFocus, focus events), as a window in front does.
    await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: true });
    // An experiment's switch: the devtools copy of every WebSocket frame back on, with nothing else of
    // playwright-core's, to tell which of a difference between the drivers is the copy's.
    if (process.env.KUBETIDE_BENCH_CDP_NETWORK === '1') await cdp.send('Network.enable');
    if (setup.initScriptPath !== undefined)
      await cdp.send('Page.addScriptToEvaluateOnNewDocument', {
        source: `${readFileSync(setup.initScriptPath, 'utf8')}\n//# sourceURL=${setup.initScriptPath}`,
      });
    return new CdpPage(cdp, browser, targetId);
  }

  async goto(url: string): Promise<void> {
    const loaded = new Promise<void>((resolve) => this.cdp.once('Page.loadEventFired', () => resolve()));
    const { errorText } = await this.cdp.send<{ errorText?: string }>('Page.navigate', { url });
    if (errorText) throw new Error(`navigating to ${url}: ${errorText}`);
    await loaded;
  }

  evaluate<R>(expression: string): Promise<R>;
  evaluate<R, A>(fn: (argument: A) => R | Promise<R>, argument?: A): Promise<R>;
  evaluate<R, A>(fn: string | ((argument: A) => R | Promise<R>), argument?: A): Promise<R> {
    return this.run<R>(
      `(async () => ${serialised(`await ${call(fn as (argument: never) => unknown, argument)}`)})()`,
    );
  }

  waitForFunction<R, A>(fn: (argument: A) => R, argument?: A, options: WaitOptions = {}): Promise<R> {
    const polling = options.polling ?? 'raf';
    const timeout = options.timeout ?? defaultTimeoutMs;
    const pause =
      polling === 'raf'
        ? 'new Promise((resolve) => requestAnimationFrame(resolve))'
        : `new Promise((resolve) => setTimeout(resolve, ${polling}))`;
    const predicate = call(fn as (argument: never) => unknown, argument);
    return this.run<R>(`(async () => {
      const deadline = performance.now() + ${timeout};
      for (;;) {
        const value = await ${predicate};
        if (value) return ${serialised('value')};
        if (performance.now() > deadline) throw new Error('waitForFunction: not true within ${timeout} ms');
        await ${pause};
      }
    })()`);
  }

  waitForTimeout(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  /**
   * Waits (every frame) until the element is there with a box that held still for a frame, scrolled
   * into view when outside it, then clicks its centre: playwright's actionability checks, in short.
   */
  async click(selector: string, options: { nth?: number; timeout?: number } = {}): Promise<void> {
    const timeout = options.timeout ?? defaultTimeoutMs;
    const centre = await this.run<{ x: number; y: number }>(`(async () => {
      const deadline = performance.now() + ${timeout};
      let last = '';
      for (;;) {
        const element = document.querySelectorAll(${JSON.stringify(selector)})[${options.nth ?? 0}];
        if (element) {
          let box = element.getBoundingClientRect();
          if (box.bottom < 0 || box.top > innerHeight || box.right < 0 || box.left > innerWidth) {
            element.scrollIntoView({ block: 'center', inline: 'center' });
            box = element.getBoundingClientRect();
          }
          const seen = [box.x, box.y, box.width, box.height].join(',');
          if (box.width > 0 && box.height > 0 && seen === last)
            return JSON.stringify({ x: box.x + box.width / 2, y: box.y + box.height / 2 });
          last = seen;
        }
        if (performance.now() > deadline) throw new Error('no visible ' + ${JSON.stringify(selector)} + ' within ${timeout} ms');
        await new Promise((resolve) => requestAnimationFrame(resolve));
      }
    })()`);
    await this.mouse.click(centre.x, centre.y);
  }

  boundingBox(selector: string): Promise<Box | null> {
    return this.evaluate((chosen) => {
      const element = document.querySelector(chosen);
      if (!element) return null;
      const box = element.getBoundingClientRect();
      return box.width > 0 || box.height > 0
        ? { x: box.x, y: box.y, width: box.width, height: box.height }
        : null;
    }, selector);
  }

  async selectOption(selector: string, value: string): Promise<void> {
    await this.evaluate(
      (chosen) => {
        const select = document.querySelector(chosen.selector);
        if (!(select instanceof HTMLSelectElement)) throw new Error(`${chosen.selector} is not a select`);
        select.value = chosen.value;
        select.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
        select.dispatchEvent(new Event('change', { bubbles: true }));
      },
      { selector, value },
    );
  }

  async close(): Promise<void> {
    await this.browser.send('Target.closeTarget', { targetId: this.targetId });
  }

  /** An expression whose value is serialised() text, awaited in the page; its exception rethrown here. */
  private async run<R>(expression: string): Promise<R> {
    const reply = await this.cdp.send<{
      result: { value?: string };
      exceptionDetails?: { text: string; exception?: { description?: string } };
    }>('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true, userGesture: true });
    if (reply.exceptionDetails)
      throw new Error(reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text);
    return parsed<R>(reply.result.value);
  }
}
