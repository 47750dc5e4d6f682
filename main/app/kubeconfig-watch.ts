// Follows the kubeconfig files while the app runs, as Lens and Freelens do: `kind create cluster`,
// `aws eks update-kubeconfig` or an edit adds a context, and the context picker shows it without a
// restart. The folders are watched, not the files: kubectl and editors replace a file by renaming
// another over it, which ends a watch on the file itself, and a kubeconfig that does not exist yet
// (the app started on its embedded cluster) appears in its folder. A change is read once the
// writes settle; a file caught half-written or malformed keeps the last good reading (and says so
// once). Every good reading becomes `kubeconfig` (a context opened later takes its credentials as
// they are now) and is handed to `onReading` (the open context is compared with it); one whose
// contexts differ is also reported to `onChange` (the pickers are told).
import { existsSync, watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import path from 'node:path';
import type { Clock, Timer } from '../cache/clock';
import type { ContextDescription, Kubeconfig } from '../kube/kubeconfig';
import { messageOf } from '../kube/errors';

export interface KubeconfigWatchOptions {
  /** The files to follow (kubeconfigPaths' candidates, existing or not). */
  files: readonly string[];
  /** Reads them again, off main's thread (kubeconfig-reading.ts); rejects when they do not parse. */
  load: () => Promise<Kubeconfig>;
  /** Told each new reading whose contexts differ from the last. */
  onChange: (kubeconfig: Kubeconfig) => void;
  /** Told every good reading after a change, its contexts the same or not. */
  onReading?: (kubeconfig: Kubeconfig) => void;
  clock: Clock;
  log: (message: string) => void;
}

/** Writes closer together than this are one change (an editor's save is several events). */
export const settleMs = 300;

export class KubeconfigWatch {
  private readonly watchers: FSWatcher[] = [];
  private timer: Timer | undefined;
  private lastContexts: string;
  private lastFailure: string | undefined;
  private current: Kubeconfig | undefined;
  /** The reading under way, and whether another change came during it (read again after it). */
  private reading: Promise<void> | undefined;
  private readAgain = false;
  private closed = false;

  constructor(
    private readonly options: KubeconfigWatchOptions,
    current: Kubeconfig | undefined,
  ) {
    this.current = current;
    this.lastContexts = contextsText(current);
    const names = new Set(options.files.map((file) => path.basename(file)));
    for (const folder of new Set(options.files.map((file) => path.dirname(path.resolve(file)))))
      this.follow(folder, names);
  }

  /** The last good reading (undefined while there has been none). */
  get kubeconfig(): Kubeconfig | undefined {
    return this.current;
  }

  close(): void {
    this.closed = true;
    this.timer?.stop();
    for (const watcher of this.watchers) watcher.close();
    this.watchers.length = 0;
  }

  /** Resolves once no reading is under way (tests wait on it after letting the writes settle). */
  async settled(): Promise<void> {
    while (this.reading) await this.reading;
  }

  /** Reads the files now (a change seen, its writes settled); one reading at a time. */
  reload(): Promise<void> {
    if (this.reading) {
      this.readAgain = true;
      return this.reading;
    }
    this.reading = (async () => {
      do {
        this.readAgain = false;
        await this.readOnce();
      } while (this.readAgain && !this.closed);
    })().finally(() => {
      this.reading = undefined;
    });
    return this.reading;
  }

  private async readOnce(): Promise<void> {
    let kubeconfig: Kubeconfig;
    try {
      kubeconfig = await this.options.load();
    } catch (error) {
      const failure = messageOf(error);
      if (failure !== this.lastFailure && !this.closed)
        this.options.log(`kubetide: kubeconfig changed but ${failure}; keeping the last reading`);
      this.lastFailure = failure;
      return;
    }
    if (this.closed) return;
    this.lastFailure = undefined;
    this.current = kubeconfig;
    this.options.onReading?.(kubeconfig);
    const contexts = contextsText(kubeconfig);
    if (contexts === this.lastContexts) return;
    this.lastContexts = contexts;
    this.options.onChange(kubeconfig);
  }

  /**
   * Watches `folder` for the files named `names`; a folder not there yet (no ~/.kube before the first
   * `kind create cluster`) is waited for in its parent, then followed, and read at once.
   */
  private follow(folder: string, names: ReadonlySet<string>): void {
    if (existsSync(folder)) {
      this.watchFolder(folder, (name) => name === null || names.has(name));
      return;
    }
    const parent = path.dirname(folder);
    if (parent === folder || !existsSync(parent)) return;
    // Whatever changed in the parent, the folder's being there now is what counts.
    const waiting = this.watchFolder(parent, () => {
      if (!existsSync(folder)) return false;
      waiting?.close();
      this.follow(folder, names);
      return true;
    });
  }

  /** A watch on `folder` that schedules a reading when `matters` says an entry's change does. */
  private watchFolder(folder: string, matters: (name: string | null) => boolean): FSWatcher | undefined {
    try {
      const watcher = watch(folder, { persistent: false }, (_event, name) => {
        // Some platforms give no name: any change in the folder is then a candidate.
        if (matters(name === null ? null : String(name))) this.schedule();
      });
      watcher.on('error', () => watcher.close());
      this.watchers.push(watcher);
      return watcher;
    } catch (error) {
      this.options.log(`kubetide: not following kubeconfig changes in ${folder}: ${messageOf(error)}`);
      return undefined;
    }
  }

  private schedule(): void {
    this.timer?.stop();
    this.timer = this.options.clock.setTimeout(() => void this.reload(), settleMs);
  }
}

/** What the picker shows of a reading, to tell a change that matters from a rewrite of the same. */
function contextsText(kubeconfig: Kubeconfig | undefined): string {
  const contexts: ContextDescription[] = kubeconfig?.listContexts() ?? [];
  return JSON.stringify(contexts);
}
