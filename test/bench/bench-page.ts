// What the ui benches ask of a browser page, whichever driver opens it: playwright-core
// (playwright-page.ts, the default, as every figure before) or the bare DevTools driver (cdp-page.ts,
// `--driver cdp`: it enables no Network domain, so the page pays no copy of its WebSocket frames, as
// a user's browser or Electron window with no devtools open). Its half-rate frames under load were
// the browser sharing the bench's CPU group (fixed in cdp-browser.ts, session 17); it is still not the
// default: at 150,000 pods its scroll frames read p95 33-50 ms on the floor page too, against 16.8
// under playwright the same hour, a difference of the drivers' input, not of the page. Input is real
// input either way: key and mouse events dispatched through the browser, seen as a person's.
import type { CdpSession } from './cdp-connection';

export const benchDrivers = ['cdp', 'playwright'] as const;
export type BenchDriver = (typeof benchDrivers)[number];

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WaitOptions {
  /** Milliseconds before the wait fails (30 s unless given, as playwright's default). */
  timeout?: number;
  /** Milliseconds between checks, or every animation frame (the default). */
  polling?: number | 'raf';
}

export interface BenchPage {
  /** The page target's DevTools session: Performance, Profiler, Tracing, HeapProfiler, Runtime. */
  readonly cdp: CdpSession;
  /** Navigates and waits for the load event. */
  goto(url: string): Promise<void>;
  /**
   * An expression's value, or a function's called with `argument` (both serialisable); a promise is
   * awaited. The function is sent as its source text: it may name nothing outside itself.
   */
  evaluate<R>(expression: string): Promise<R>;
  evaluate<R, A>(fn: (argument: A) => R | Promise<R>, argument?: A): Promise<R>;
  /** The function's first truthy value, checked in the page until then. */
  waitForFunction<R, A>(fn: (argument: A) => R, argument?: A, options?: WaitOptions): Promise<R>;
  waitForTimeout(ms: number): Promise<void>;
  readonly keyboard: {
    /** Each character pressed (down, `delay` ms, up), as a person types. */
    type(text: string, options?: { delay?: number }): Promise<void>;
    /** A key or chord: 'Enter', 'Backspace', ' ', 'ControlOrMeta+A'. */
    press(key: string): Promise<void>;
  };
  readonly mouse: {
    move(x: number, y: number): Promise<void>;
    /** A wheel notch at the mouse's position. */
    wheel(deltaX: number, deltaY: number): Promise<void>;
    click(x: number, y: number): Promise<void>;
  };
  /** The `nth` (0 unless given) element matching `selector`, once visible, clicked at its centre. */
  click(selector: string, options?: { nth?: number; timeout?: number }): Promise<void>;
  /** The first matching element's box in the viewport, or null when none is shown. */
  boundingBox(selector: string): Promise<Box | null>;
  /** Chooses `value` in a select element, as a person picking it (input and change events). */
  selectOption(selector: string, value: string): Promise<void>;
  close(): Promise<void>;
}

/** How every page of a bench browser is set up before its first navigation. */
export interface PageSetup {
  width: number;
  height: number;
  colorScheme: 'dark' | 'light';
  /** A script run in every page before its own (ui-page-probe.js). */
  initScriptPath?: string;
  /** Chromium switches of the browser the pages open in (ui-churn.ts --js-flags), beside the driver's. */
  browserArguments?: readonly string[];
}

/** A browser the benches open pages in, at their window size and with the probe installed. */
export interface BenchBrowser {
  readonly driver: BenchDriver;
  newPage(): Promise<BenchPage>;
  close(): Promise<void>;
}

/** `[data-testid="id"]`: what playwright's getByTestId matches. */
export const byTestId = (id: string) => `[data-testid="${id}"]`;
