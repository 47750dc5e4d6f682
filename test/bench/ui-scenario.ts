// What the ui bench does in the page, as a person would: real key presses into the filter bar, mouse
// wheel over the table, clicks in the sidebar, Enter on a row, the timeline. Every figure comes from
// the page's clocks (ui-page-probe.js); this side only acts and collects, through either driver
// (bench-page.ts). Page-side functions name no inner function: tsx would wrap it in a helper the page lacks.
import type { BenchPage as Page } from './bench-page';
import { byTestId } from './bench-page';

/** Pause between key presses: a fast typist (~150 words a minute). */
const keyDelayMs = 60;
/** Wheel notches of a fast flick down (and back up), and the pause between them. */
export const wheelNotches = 60;
const wheelDeltaPx = 240;
const wheelPauseMs = 16;
/** How long a typed text may take to be answered before its keystrokes count as unanswered. */
const answerTimeoutMs = 30_000;

export interface TypingResult {
  /** Keydown to the painted table for every keystroke (clearing included). */
  latencies: number[];
  /** The same latencies by typed text (its clearing included), to tell which selector form is slow. */
  byText: { text: string; latencies: number[] }[];
  /** Characters the input lost or garbled, by edit distance to what was typed. */
  droppedKeys: number;
  /** Keystrokes whose text no painted table answered within the timeout. */
  unanswered: number;
}

interface ProbeWindow {
  kubetideProbe: {
    startup(withSync: boolean): Promise<{ firstRows: number; synced: number }>;
    startKeystrokes(): void;
    stopKeystrokes(timeoutMs: number): Promise<{ latencies: number[]; unanswered: number }>;
    arm(condition: string, argument: string, eventType: string, timeoutMs: number): void;
    measured(): Promise<number>;
    measuredParts(): Record<string, number>;
    startFrames(): void;
    stopFrames(): number[];
    longTasksBetween(from: number, to: number): number[];
    longTaskEntriesBetween(from: number, to: number): { start: number; duration: number }[];
    markClock(label: string): number;
    now(): number;
  };
}

const probe = (page: Page) => ({
  startup: (withSync: boolean) =>
    page.evaluate((sync) => (window as unknown as ProbeWindow).kubetideProbe.startup(sync), withSync),
  now: () => page.evaluate(() => (window as unknown as ProbeWindow).kubetideProbe.now()),
  arm: (condition: string, argument: string, eventType: string, timeoutMs = 60_000) =>
    page.evaluate(
      (armed) =>
        (window as unknown as ProbeWindow).kubetideProbe.arm(
          armed.condition,
          armed.argument,
          armed.eventType,
          armed.timeoutMs,
        ),
      { condition, argument, eventType, timeoutMs },
    ),
  measured: () => page.evaluate(() => (window as unknown as ProbeWindow).kubetideProbe.measured()),
});

/** Navigation start to the first painted rows, and to "synced" when the page has a sync state. */
export const startupTimes = (page: Page, withSync = true) => probe(page).startup(withSync);
export const pageNow = (page: Page) => probe(page).now();

/** Levenshtein distance: the keys lost (or doubled) between what was typed and what the input holds. */
export function editDistance(left: string, right: string): number {
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row++) {
    const current = [row];
    for (let column = 1; column <= right.length; column++) {
      const substitution = previous[column - 1] + (left[row - 1] === right[column - 1] ? 0 : 1);
      current.push(Math.min(previous[column] + 1, current[column - 1] + 1, substitution));
    }
    previous = current;
  }
  return previous[right.length];
}

/**
 * Types each text into the filter bar key by key, then clears it with select-all and Backspace,
 * recording every keystroke's latency to the painted table.
 */
export async function typeFilters(page: Page, texts: readonly string[]): Promise<TypingResult> {
  const input = byTestId('filter-input');
  const inputValue = () =>
    page.evaluate(
      (selector) => (document.querySelector(selector) as HTMLInputElement | null)?.value ?? '',
      input,
    );
  const result: TypingResult = { latencies: [], byText: [], droppedKeys: 0, unanswered: 0 };
  for (const text of texts) {
    await page.click(input);
    await page.evaluate(() => (window as unknown as ProbeWindow).kubetideProbe.startKeystrokes());
    await page.keyboard.type(text, { delay: keyDelayMs });
    const typed = await page.evaluate(
      (timeoutMs) => (window as unknown as ProbeWindow).kubetideProbe.stopKeystrokes(timeoutMs),
      answerTimeoutMs,
    );
    result.droppedKeys += editDistance(text, await inputValue());
    await page.evaluate(() => (window as unknown as ProbeWindow).kubetideProbe.startKeystrokes());
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
    const cleared = await page.evaluate(
      (timeoutMs) => (window as unknown as ProbeWindow).kubetideProbe.stopKeystrokes(timeoutMs),
      answerTimeoutMs,
    );
    result.droppedKeys += editDistance('', await inputValue());
    const latencies = [...typed.latencies, ...cleared.latencies];
    result.latencies.push(...latencies);
    result.byText.push({ text, latencies });
    result.unanswered += typed.unanswered + cleared.unanswered;
  }
  await page.evaluate((selector) => (document.querySelector(selector) as HTMLElement | null)?.blur(), input);
  return result;
}

/** Frame intervals while the mouse wheel flicks down the table and back up. */
export async function scrollTable(
  page: Page,
  bodySelector: string,
  notches = wheelNotches,
): Promise<number[]> {
  const box = await page.boundingBox(bodySelector);
  if (!box) throw new Error(`no ${bodySelector} to scroll`);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.evaluate(() => (window as unknown as ProbeWindow).kubetideProbe.startFrames());
  for (const direction of [1, -1]) {
    for (let notch = 0; notch < notches; notch++) {
      await page.mouse.wheel(0, direction * wheelDeltaPx);
      await page.waitForTimeout(wheelPauseMs);
    }
  }
  return page.evaluate(() => (window as unknown as ProbeWindow).kubetideProbe.stopFrames());
}

/** Click in the sidebar to the painted table of that kind (its title shown, its rows listed). */
export async function switchKind(page: Page, resource: string, title: string): Promise<number> {
  await probe(page).arm('kind', title, 'click');
  // A switch that relists may block the page for long: the bound is the armed measurement's, not the click's.
  await page.click(`[data-testid="sidebar"] [data-kind="${resource}"]`, { timeout: 120_000 });
  return probe(page).measured();
}

/**
 * The last switch's parts: ms from the click to the first frame showing the kind's title, a row under
 * it, and the table not busy; and the page's long tasks from the click to now (start ms after the
 * click: duration ms), to tell which of them a slow switch waited for.
 */
export async function lastSwitchParts(page: Page, clickedAt: number): Promise<string> {
  const parts = await page.evaluate(() => (window as unknown as ProbeWindow).kubetideProbe.measuredParts());
  const tasks = await longTaskEntriesBetween(page, clickedAt, await pageNow(page));
  const shown = Object.entries(parts)
    .map(([part, ms]) => `${part} ${Math.round(ms)}`)
    .join(', ');
  const long = tasks.map((task) => `${Math.round(task.start - clickedAt)}:${Math.round(task.duration)}`);
  return `${shown} ms; long tasks ${long.length ? long.join(' ') : 'none'}`;
}

/** One of the bench's kind switches: the kind switched to, its round (0-based), ms to the painted table. */
export interface KindSwitch {
  kind: string;
  round: number;
  ms: number;
}

/**
 * The bench's kind switches: Deployments, then Pods, `rounds` times, each timed (switchKind). `after`
 * hears of each with its parts (lastSwitchParts), before the next switch, so what it reads of the page
 * is that switch's.
 */
export async function switchKindsInRounds(
  page: Page,
  rounds: number,
  after: (made: KindSwitch, parts: string) => void | Promise<void>,
): Promise<KindSwitch[]> {
  const switches: KindSwitch[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const [resource, title] of [
      ['deployments', 'Deployments'],
      ['pods', 'Pods'],
    ] as const) {
      const before = await pageNow(page);
      const made = { kind: title, round, ms: await switchKind(page, resource, title) };
      switches.push(made);
      await after(made, await lastSwitchParts(page, before));
    }
  }
  return switches;
}

/** Enter on a selected row to the painted detail pane naming it; closes the pane after. */
export async function openDetail(page: Page, rowIndex: number): Promise<number> {
  await page.click('[role="row"][data-key]', { nth: rowIndex });
  // Under churn the row at an index may hold another object by the time the click lands: the key is
  // read from the row the click selected (selection is by key), not from the row before the click.
  const key = await page.evaluate(
    () =>
      document.querySelector('[role="row"][data-key][aria-selected="true"]')?.getAttribute('data-key') ?? '',
  );
  await probe(page).arm('detail', key.split('/').pop() ?? key, 'keydown');
  await page.keyboard.press('Enter');
  const measured = await probe(page).measured();
  await page.keyboard.press('Escape');
  return measured;
}

async function timelineSpan(page: Page): Promise<{ from: number; to: number }> {
  await page.waitForFunction(
    () => Number(document.querySelector('[data-testid="timeline"]')?.getAttribute('data-to') ?? 0) > 1,
  );
  return page.evaluate(() => {
    const timeline = document.querySelector('[data-testid="timeline"]');
    return {
      from: Number(timeline?.getAttribute('data-from')),
      to: Number(timeline?.getAttribute('data-to')),
    };
  });
}

/**
 * From live, a click on the timeline at `time` to the painted table of that moment, complete (no
 * longer busy). Between two moments the table stays filled, so only a travel from live is timed.
 */
export async function travelTo(page: Page, time: number): Promise<number> {
  const { from, to } = await timelineSpan(page);
  const box = (await page.boundingBox(byTestId('timeline-chart')))!;
  const fraction = Math.min(1, Math.max(0, (time - from) / (to - from)));
  await probe(page).arm('travel', '', 'pointerup', 120_000);
  await page.mouse.click(box.x + fraction * (box.width - 1), box.y + box.height / 2);
  return probe(page).measured();
}

export async function goLive(page: Page): Promise<void> {
  await page.click(byTestId('timeline-live'));
  await page.waitForFunction(() => !document.querySelector('[data-testid="travel-banner"]'));
}

/** The recording's first and last moments, as the timeline shows them. */
export const recordingSpan = timelineSpan;

/** A gap the timeline draws for one kind: its reason, start and end (undefined while open). */
export interface TimelineGap {
  readonly reason: string;
  readonly start: number;
  readonly end: number | undefined;
}

/** The gaps the timeline draws for kind `gvr` (a gvr key such as "pods.v1"), as the page has them. */
export function timelineGaps(page: Page, gvr: string): Promise<TimelineGap[]> {
  return page.evaluate(
    (kind) =>
      [...document.querySelectorAll('[data-testid="timeline-gap"]')]
        .filter((mark) => mark.getAttribute('data-kind') === kind)
        .map((mark) => ({
          reason: mark.getAttribute('data-reason') ?? '',
          start: Number(mark.getAttribute('data-start')),
          end: mark.getAttribute('data-end') ? Number(mark.getAttribute('data-end')) : undefined,
        })),
    gvr,
  );
}

/** The gaps as a note says them: "listing -17-46 s, ..." in s from `from` ("open" while open), or "none". */
export function describeGaps(gaps: readonly TimelineGap[], from: number): string {
  const seconds = (time: number) => Math.round((time - from) / 100) / 10;
  const each = gaps.map(
    (gap) => `${gap.reason} ${seconds(gap.start)}-${gap.end === undefined ? 'open' : seconds(gap.end)} s`,
  );
  return each.join(', ') || 'none';
}

/** Where `time` falls among `gaps`: "recorded", or "in a <reason> gap" (" still open" while it is). */
export function placeIn(gaps: readonly TimelineGap[], time: number): string {
  const gap = gaps.find((each) => each.start <= time && (each.end === undefined || time < each.end));
  if (!gap) return 'recorded';
  return `in a ${gap.reason} gap${gap.end === undefined ? ' still open' : ''}`;
}

/** The kind's last listing gap: its initial list's record (or a later session's), if any. */
function lastListing(gaps: readonly TimelineGap[]): TimelineGap | undefined {
  return gaps.filter((gap) => gap.reason === 'listing').at(-1);
}

/** How long the kind's last listing gap lasted, in s: to `now` while it is still open; 0 without one. */
export function listingGapSeconds(gaps: readonly TimelineGap[], now: number): number {
  const listed = lastListing(gaps);
  return listed ? ((listed.end ?? now) - listed.start) / 1000 : 0;
}

/** How a measured playback ended, for a note: " (ended catching up)", " (reached the end after N ms)". */
export function playbackEnd(measure: PlaybackMeasure): string {
  if (measure.endedMs !== undefined)
    return ` (reached the recording's end ${Math.round(measure.endedMs)} ms after its first move)`;
  return measure.catchingUp ? ' (ended catching up)' : '';
}

/**
 * Where to play from "the middle, under churn": the middle of what was recorded after the kind's last
 * listing gap closed (its initial list written whole), where the cluster only churned; the middle of
 * the whole span while that gap is still open (at 150,000 pods its record can outlast the churn
 * window on a loaded machine, and a playback there starts with a jump to the list's end).
 */
export function churnMiddle(span: { from: number; to: number }, gaps: readonly TimelineGap[]): number {
  const listed = lastListing(gaps);
  const from = listed?.end === undefined ? span.from : Math.max(span.from, listed.end);
  return from + (span.to - from) / 2;
}

/** The shortest stretch of playing, from its first move to its end, whose speed is measured. */
const leastMeasuredMs = 200;

/** The longest window a playback is measured over, in wall ms. */
const playbackWindowMs = 5_000;

/**
 * How long to play from `from` at `speed`, in wall ms: half of what is recorded after it, at most
 * playbackWindowMs. Bounded by the recording as it runs to now (moments are wall times), not by the
 * span the timeline drew, which may be older: on a loaded machine it read 4.6 s after 30 s of churn,
 * and windows of half of that were one or two frames, where one frame's step alone is 50-100% off.
 */
export function playbackWindow(span: { from: number; to: number }, from: number, speed: number): number {
  const recorded = Math.max(span.to, Date.now());
  return Math.min(playbackWindowMs, ((recorded - from) / speed) * 0.5);
}

/** How the timeline's moment moved while playing, as a person watching it sees it. */
export interface PlaybackMeasure {
  /**
   * |moved / (speed * elapsed) - 1| in percent, from its first move to the end of the window (or of
   * the playback); NaN when the playback was over less than leastMeasuredMs after its first move.
   */
  readonly errorPct: number;
  /**
   * Space to the moment's first move, in wall ms: the player holds its clock at the moment played
   * from until the changes of its first stretch are read (as a video player buffers before its first
   * frame), so the error above starts there and this says how long starting took.
   */
  readonly startMs: number;
  /** The travel banner said the playback was catching up when the window ended. */
  readonly catchingUp: boolean;
  /**
   * Wall ms from the first move to the playback's end, when it reached the end of the recording (as
   * the recording stood when it started) inside the window: the window was measured only to there,
   * since a moment standing at the end is the playback over, not a stall.
   */
  readonly endedMs: number | undefined;
  /** Wall ms from the first move to the last sample measured: the window, or up to the end. */
  readonly measuredMs: number;
  /** The longest the moment stood still, in wall ms (a frame's sampling apart at best). */
  readonly stillMaxMs: number;
  /** How far the moment was ever ahead of, and behind, speed × elapsed since its first move, in wall ms. */
  readonly aheadMaxMs: number;
  readonly behindMaxMs: number;
  /**
   * Where the moment was, sample by sample, while it moved or the banner changed: `wall ms since the
   * first move: recorded s since the first move [banner]`, to tell a still's cause (a jump
   * rebuilding, catching up) from the figures above.
   */
  readonly trace: string[];
}

/**
 * Plays from the travel moment at `speed` for `durationMs` and compares how far the shown moment moved
 * with how far it should have: |moved / (speed * elapsed) - 1| in percent; and whether the travel
 * banner said the playback was catching up when it ended (the moment then honestly waits at the last
 * change applied, behind the view clock). The moment is also sampled every animation frame in
 * between, since the two ends alone cannot tell a steady 10x from a moment that waited and then leapt:
 * how long it stood still, and how far it strayed either side of the steady line. A playback that
 * reaches the end of the recording inside the window (its first step a jump far ahead: out of a
 * listing gap to the list's end) is measured up to its end, where the play button says it stopped.
 */
export async function playbackError(page: Page, speed: number, durationMs: number): Promise<PlaybackMeasure> {
  await page.selectOption(byTestId('timeline-speed'), String(speed));
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const pressedAt = await page.evaluate(() => performance.now());
  await page.keyboard.press(' ');
  // The first move starts the measure: main's playback clock runs from then (see startMs).
  const start = await page.waitForFunction(
    (initial) => {
      const value = Number(
        document.querySelector('[data-testid="timeline-chart"]')?.getAttribute('aria-valuenow'),
      );
      return value !== initial ? { value, at: performance.now() } : false;
    },
    await page.evaluate(() =>
      Number(document.querySelector('[data-testid="timeline-chart"]')?.getAttribute('aria-valuenow')),
    ),
    // A loaded machine (load average 20-30) took over Playwright's default 30 s to start playing.
    { timeout: 120_000 },
  );
  const first = start as { value: number; at: number };
  // No function is named inside the page's code: tsx would wrap it in a helper the page lacks.
  const sampled = await page.evaluate(async (until) => {
    const taken: { value: number; at: number; banner: string; playing: boolean }[] = [];
    for (;;) {
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const at = performance.now();
      const value = Number(
        document.querySelector('[data-testid="timeline-chart"]')?.getAttribute('aria-valuenow'),
      );
      // The travel banner (catching up) and the top bar's replay badge (rebuilding n of N).
      const banner =
        (document.querySelector('[data-testid="travel-banner"]')?.textContent ?? '') +
        (document.querySelector('.top-bar')?.textContent ?? '');
      // The play button reads "Play" again once the playback has reached the recording's end.
      const playing =
        document.querySelector('[data-testid="timeline-play"]')?.getAttribute('aria-label') === 'Pause';
      taken.push({ value, at, banner, playing });
      if (at >= until || !playing) return taken;
    }
  }, first.at + durationMs);
  const ended = sampled.at(-1)!.playing ? undefined : sampled.at(-1)!;
  // Up to the last sample still playing (the first one at least: the first move was playing).
  const samples = ended && sampled.length > 1 ? sampled.slice(0, -1) : sampled;
  const last = samples.at(-1)!;
  const banner = await page.evaluate(
    () => document.querySelector('[data-testid="travel-banner"]')?.textContent ?? '',
  );
  if (!ended) await page.keyboard.press(' ');
  const expected = speed * (last.at - first.at);
  let stillMaxMs = 0;
  let stillSince = first;
  let aheadMaxMs = 0;
  let behindMaxMs = 0;
  const trace: string[] = [];
  let traced: { value: number; banner: string } = { value: first.value, banner: '' };
  for (const sample of samples) {
    const status =
      /catching up|rebuilding [\d,]+ of [\d,]+|reading the recording/.exec(sample.banner)?.[0] ?? '';
    if (sample.value !== traced.value || status !== traced.banner) {
      const seconds = ((sample.value - first.value) / 1000).toFixed(1);
      trace.push(`${Math.round(sample.at - first.at)}: ${seconds}${status ? ` ${status}` : ''}`);
      traced = { value: sample.value, banner: status };
    }
    if (sample.value !== stillSince.value) stillSince = sample;
    stillMaxMs = Math.max(stillMaxMs, sample.at - stillSince.at);
    const off = (sample.value - first.value) / speed - (sample.at - first.at);
    aheadMaxMs = Math.max(aheadMaxMs, off);
    behindMaxMs = Math.max(behindMaxMs, -off);
  }
  // A playback over within a few frames of its first move (its first step to the recording's end)
  // has no speed to measure.
  const measured = !ended || last.at - first.at >= leastMeasuredMs;
  return {
    errorPct: measured ? (Math.abs(last.value - first.value - expected) / expected) * 100 : Number.NaN,
    startMs: first.at - pressedAt,
    catchingUp: !ended && banner.includes('catching up'),
    endedMs: ended && ended.at - first.at,
    measuredMs: last.at - first.at,
    stillMaxMs,
    aheadMaxMs,
    behindMaxMs,
    trace,
  };
}

/** The durations of the long tasks the page saw between two of its own moments. */
export function longTasksBetween(page: Page, from: number, to: number): Promise<number[]> {
  return page.evaluate(
    (span) => (window as unknown as ProbeWindow).kubetideProbe.longTasksBetween(span.from, span.to),
    { from, to },
  );
}

/** The long-task entries the page saw between two of its own moments, with their start times. */
export function longTaskEntriesBetween(
  page: Page,
  from: number,
  to: number,
): Promise<{ start: number; duration: number }[]> {
  return page.evaluate(
    (span) => (window as unknown as ProbeWindow).kubetideProbe.longTaskEntriesBetween(span.from, span.to),
    { from, to },
  );
}

/** The page's clock now, marked in the trace being recorded as a TimeStamp event named `label`. */
export function markPageClock(page: Page, label: string): Promise<number> {
  return page.evaluate((name) => (window as unknown as ProbeWindow).kubetideProbe.markClock(name), label);
}
