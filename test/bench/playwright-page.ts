// The BenchPage surface over playwright-core (`--driver playwright`): the ui benches as they ran
// before session 16, kept so their figures can be reproduced and compared. playwright-core enables
// the Network domain on every page, so Chromium copies each WebSocket message into a protocol event on
// the page's main thread (test/bench/ws-frame-cost.ts): its page figures include that copy.
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { launchChromium } from '../e2e/chromium';
import type { BenchBrowser, BenchPage, Box, PageSetup, WaitOptions } from './bench-page';
import type { CdpSession } from './cdp-connection';

export class PlaywrightBrowser implements BenchBrowser {
  readonly driver = 'playwright';

  private constructor(
    private readonly browser: Browser,
    private readonly context: BrowserContext,
  ) {}

  static async launch(setup: PageSetup): Promise<PlaywrightBrowser> {
    const browser = await launchChromium(setup.browserArguments);
    const context = await browser.newContext({
      viewport: { width: setup.width, height: setup.height },
      colorScheme: setup.colorScheme,
    });
    if (setup.initScriptPath !== undefined) await context.addInitScript({ path: setup.initScriptPath });
    return new PlaywrightBrowser(browser, context);
  }

  async newPage(): Promise<BenchPage> {
    return new PlaywrightPage(await this.context.newPage(), this.context);
  }

  close(): Promise<void> {
    return this.browser.close();
  }
}

class PlaywrightPage implements BenchPage {
  readonly cdp: CdpSession;

  constructor(
    private readonly page: Page,
    context: BrowserContext,
  ) {
    // Opened on first use, as the benches opened theirs: a page nothing measures gets none.
    let session: Promise<CDPSession> | undefined;
    const opened = () => (session ??= context.newCDPSession(page));
    type Loose = { send(method: string, params?: object): Promise<unknown> } & {
      on(event: string, listener: (params: unknown) => void): void;
      once(event: string, listener: (params: unknown) => void): void;
      off(event: string, listener: (params: unknown) => void): void;
    };
    const loose = async () => (await opened()) as unknown as Loose;
    this.cdp = {
      send: async (method: string, params?: object) => (await loose()).send(method, params) as never,
      on: (event, listener) => void loose().then((cdp) => cdp.on(event, listener)),
      once: (event, listener) => void loose().then((cdp) => cdp.once(event, listener)),
      off: (event, listener) => void loose().then((cdp) => cdp.off(event, listener)),
    };
  }

  get keyboard() {
    return this.page.keyboard;
  }

  get mouse() {
    return this.page.mouse;
  }

  async goto(url: string): Promise<void> {
    await this.page.goto(url);
  }

  evaluate<R>(expression: string): Promise<R>;
  evaluate<R, A>(fn: (argument: A) => R | Promise<R>, argument?: A): Promise<R>;
  evaluate<R, A>(fn: string | ((argument: A) => R | Promise<R>), argument?: A): Promise<R> {
    return this.page.evaluate(fn as never, argument) as Promise<R>;
  }

  async waitForFunction<R, A>(fn: (argument: A) => R, argument?: A, options: WaitOptions = {}): Promise<R> {
    const handle = await this.page.waitForFunction(fn as never, argument, options);
    return (await handle.jsonValue()) as R;
  }

  waitForTimeout(ms: number): Promise<void> {
    return this.page.waitForTimeout(ms);
  }

  click(selector: string, options: { nth?: number; timeout?: number } = {}): Promise<void> {
    return this.page
      .locator(selector)
      .nth(options.nth ?? 0)
      .click(options.timeout === undefined ? {} : { timeout: options.timeout });
  }

  boundingBox(selector: string): Promise<Box | null> {
    return this.page.locator(selector).first().boundingBox();
  }

  async selectOption(selector: string, value: string): Promise<void> {
    await this.page.locator(selector).selectOption(value);
  }

  close(): Promise<void> {
    return this.page.close();
  }
}
