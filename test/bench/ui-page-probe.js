// The ui bench's clocks inside the page (installed before the page's own scripts, in Kubetide and in
// the floor page alike). Every figure is on the page's performance.now() timeline: from an input
// event's timeStamp to the end of the first frame whose DOM shows the answer. A rAF callback runs
// just before its frame is painted, so a condition seen there is on screen once that frame ends; a
// message posted from it is delivered after the paint, which is the moment taken.
// Plain JavaScript on purpose: Playwright ships this file to the page as it is, untranspiled.
/* global window, document, console, performance, requestAnimationFrame, MessageChannel, MutationObserver, PerformanceObserver */
(() => {
  const longTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // No long-task timing in this browser: the count stays empty rather than failing the page.
  }

  /** Resolves with the time the frame now being produced has been painted. */
  const afterPaint = () =>
    new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve(performance.now());
      channel.port2.postMessage(0);
    });

  /** Checks `condition` in every frame; resolves with the paint time of the first frame it holds in. */
  const paintedWhen = (condition, timeoutMs) =>
    new Promise((resolve) => {
      const deadline = performance.now() + timeoutMs;
      const frame = () => {
        if (condition()) return void afterPaint().then(resolve);
        if (performance.now() > deadline) return resolve(Number.NaN);
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    });

  const query = (selector) => document.querySelector(selector);
  const text = (selector) => query(selector)?.textContent ?? undefined;
  const anyRow = () => query('[role="row"][data-key]') !== null;
  const tableIdle = () => query('[data-filter]')?.getAttribute('aria-busy') !== 'true';

  // Page open to first rows and to "synced", timed from navigation start (time 0).
  const startup = {
    firstRows: paintedWhen(anyRow, 600_000),
    // "synced" as a person reads it: the badge says so and the table holds every row (not busy). The
    // badge alone once read "synced" over a snapshot stuck at 16,000 of 150,000 rows (acks dropped
    // before hello's answer), which made such runs look faster, not broken.
    synced: paintedWhen(() => text('[data-testid="sync-state"]') === 'synced' && tableIdle(), 600_000),
  };

  // Keystrokes into the filter: each input event's text waits for the first painted frame whose table
  // answers that text or a later one (a filter may skip a text the user has already typed past).
  const keystrokes = { pending: [], done: [], recording: false };
  let lastKeyDown = 0;
  window.addEventListener('keydown', (event) => (lastKeyDown = event.timeStamp), true);
  window.addEventListener(
    'input',
    (event) => {
      if (!keystrokes.recording || event.target?.dataset?.testid !== 'filter-input') return;
      keystrokes.pending.push({ start: lastKeyDown, text: event.target.value });
    },
    true,
  );
  const settleKeystrokes = () => {
    if (keystrokes.pending.length === 0) return;
    const shown = query('[data-filter]')?.dataset.filter;
    let answered = -1;
    keystrokes.pending.forEach((entry, index) => {
      if (entry.text === shown) answered = index;
    });
    if (answered < 0) return;
    const settled = keystrokes.pending.splice(0, answered + 1);
    void afterPaint().then((end) => {
      for (const entry of settled) keystrokes.done.push(end - entry.start);
    });
  };
  // Runs only while keystrokes are recorded: a rAF loop makes Chromium run a frame (its animation,
  // style, layout and paint steps) at every vsync, which the page alone asks for only when a batch
  // arrives. Left running, a 30 s churn window at 50,000 pods (ui-churn.ts) held 1,288 frames, 1,231
  // of them with nothing to draw, and 2.1 s of the page thread's time in frames; without it 85 frames
  // and 0.8 s: the bench's load on the page, not the page's own.
  let keystrokeLoop = false;
  const keystrokeFrame = () => {
    settleKeystrokes();
    if (keystrokes.recording || keystrokes.pending.length > 0) requestAnimationFrame(keystrokeFrame);
    else keystrokeLoop = false;
  };

  // One armed measurement at a time: from the first `eventType` event after arming to the first
  // painted frame where the named condition holds.
  let armed;
  /** Notes in `current.parts` the first frame (ms after its event) at which `part` held; returns `holds`. */
  const noted = (current, part, holds) => {
    if (holds && current.parts[part] === undefined) current.parts[part] = performance.now() - current.start;
    return holds;
  };
  /** The parts of the last measurement answered (see measuredParts). */
  let lastParts = {};
  const conditions = {
    // Each part's first frame is noted too (parts), to tell a slow title from slow rows or a busy table.
    // Rows and idle count only under the kind's title (the kind before's rows are not this kind's).
    kind: (current) => {
      const titled = noted(current, 'title', text('[data-testid="kind-title"]') === current.argument);
      const rows = noted(current, 'rows', titled && anyRow());
      const idle = noted(current, 'idle', titled && tableIdle());
      return rows && idle;
    },
    detail: ({ argument }) => text('[data-testid="detail-name"]') === argument,
    travel: ({ sawBusy }) => sawBusy && query('[data-testid="travel-banner"]') !== null && tableIdle(),
  };
  for (const type of ['pointerup', 'click', 'keydown']) {
    window.addEventListener(
      type,
      (event) => {
        const current = armed;
        if (!current || current.start !== undefined || current.eventType !== type) return;
        const start = event.timeStamp;
        current.start = start;
        current.result = paintedWhen(() => conditions[current.condition](current), current.timeoutMs).then(
          (end) => end - start,
        );
      },
      true,
    );
  }
  // Travel's table goes busy (no snapshot yet) before it is complete: a record of the attribute
  // turning "true" counts even when it has turned back by the time this callback runs.
  new MutationObserver((records) => {
    if (!armed || armed.start === undefined) return;
    if (
      records.some(
        (record) => record.target.getAttribute('aria-busy') === 'true' || record.oldValue === 'true',
      )
    )
      armed.sawBusy = true;
  }).observe(document, {
    subtree: true,
    attributes: true,
    attributeOldValue: true,
    attributeFilter: ['aria-busy'],
  });

  // Frame intervals while something (a wheel scroll) runs.
  const frames = { times: [], running: false };
  const frameTick = (time) => {
    if (!frames.running) return;
    frames.times.push(time);
    requestAnimationFrame(frameTick);
  };

  window.kubetideProbe = {
    /** Page open to first rows, and to "synced" when `withSync` (the floor has no sync state). */
    startup: async (withSync) => ({
      firstRows: await startup.firstRows,
      synced: withSync ? await startup.synced : Number.NaN,
    }),
    startKeystrokes() {
      keystrokes.pending = [];
      keystrokes.done = [];
      keystrokes.recording = true;
      if (!keystrokeLoop) {
        keystrokeLoop = true;
        requestAnimationFrame(keystrokeFrame);
      }
    },
    /** Waits (up to `timeoutMs`) for every recorded keystroke to be answered; returns the latencies. */
    async stopKeystrokes(timeoutMs) {
      const deadline = performance.now() + timeoutMs;
      while (keystrokes.pending.length > 0 && performance.now() < deadline)
        await new Promise((resolve) => requestAnimationFrame(resolve));
      await afterPaint();
      keystrokes.recording = false;
      return { latencies: keystrokes.done.slice(), unanswered: keystrokes.pending.length };
    },
    arm(condition, argument, eventType, timeoutMs) {
      armed = {
        condition,
        argument,
        eventType,
        timeoutMs,
        start: undefined,
        result: undefined,
        sawBusy: false,
        parts: {},
      };
    },
    /** The armed measurement's result in ms, NaN when its event never came or its condition timed out. */
    async measured() {
      // Disarmed only once answered: the busy-watcher below still needs the measurement until then.
      const current = armed;
      const result = current?.result ? await current.result : Number.NaN;
      if (armed === current) armed = undefined;
      lastParts = current?.parts ?? {};
      return result;
    },
    /** The last measurement's parts: ms from its event to the first frame each part held in. */
    measuredParts: () => lastParts,
    startFrames() {
      frames.times = [];
      frames.running = true;
      requestAnimationFrame(frameTick);
    },
    stopFrames() {
      frames.running = false;
      const intervals = [];
      for (let index = 1; index < frames.times.length; index++)
        intervals.push(frames.times[index] - frames.times[index - 1]);
      return intervals;
    },
    /** The durations (ms) of the long tasks that started between two of the page's moments. */
    longTasksBetween: (from, to) =>
      longTasks.filter((task) => task.start >= from && task.start < to).map((task) => task.duration),
    /** The same entries with their start times (ms, page clock), to find each in a trace. */
    longTaskEntriesBetween: (from, to) => longTasks.filter((task) => task.start >= from && task.start < to),
    /**
     * Now on the page's clock, marked in a trace being recorded (a TimeStamp event named by `label`):
     * the offset between the page's clock and the trace's.
     */
    markClock(label) {
      console.timeStamp(label);
      return performance.now();
    },
    now: () => performance.now(),
  };
})();
