// One log view's state, apart from React: the LogBuffer its lines go into, the sources (pod and
// container, each with a stable colour, as stern gives them), the recent notes, and pause. Paused, the
// view holds still: lines wait aside and go in on resume; once more wait than the buffer could show,
// the oldest waiting batches go in at once (the buffer drops and counts what falls past its cap), so
// a pause never holds more than the buffer's capacity twice. Views subscribe to it as to a tiny
// external store.
import type { LogNoteKind, LogServerMessage, LogSource } from '../../shared/protocol/log-messages';
import type { BufferedLine } from './log-buffer';
import { LogBuffer } from './log-buffer';

export interface LogSessionNote {
  kind: LogNoteKind;
  message: string;
  time: number;
  source?: number;
}

export interface ColouredSource extends LogSource {
  /** 0-11: index into the view's source palette. */
  colour: number;
  /** False once its pod is gone (its lines stay). */
  live: boolean;
}

/** The notes kept for display; older ones scroll away. */
const keptNotes = 20;
const paletteSize = 12;

export class LogSession {
  readonly buffer: LogBuffer;
  readonly sources = new Map<number, ColouredSource>();
  notes: LogSessionNote[] = [];
  private held: BufferedLine[][] = [];
  private heldCount = 0;
  private pausedState = false;
  private version = 0;
  private readonly listeners = new Set<() => void>();

  constructor(capacity: number) {
    this.buffer = new LogBuffer(capacity);
  }

  get paused(): boolean {
    return this.pausedState;
  }

  /** Lines waiting for resume. */
  get waiting(): number {
    return this.heldCount;
  }

  /** Changes on every change a view shows. */
  get revision(): number {
    return this.version;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  receive(message: LogServerMessage): void {
    switch (message.type) {
      case 'logLines':
        if (this.pausedState) this.hold(message.lines);
        else this.buffer.append(message.lines);
        break;
      case 'logSources':
        for (const source of message.added)
          this.sources.set(source.id, { ...source, colour: this.colourOf(source), live: true });
        for (const id of message.removed) {
          const source = this.sources.get(id);
          if (source) this.sources.set(id, { ...source, live: false });
        }
        break;
      case 'logNote': {
        const { kind, message: text, time, source } = message;
        this.notes = [
          ...this.notes,
          { kind, message: text, time, ...(source !== undefined ? { source } : {}) },
        ].slice(-keptNotes);
        break;
      }
    }
    this.changed();
  }

  /** The stream starts over (main lost it with the link): held lines and sources are forgotten. */
  restart(note: LogSessionNote): void {
    this.buffer.clear();
    this.sources.clear();
    this.held = [];
    this.heldCount = 0;
    this.notes = [...this.notes, note].slice(-keptNotes);
    this.changed();
  }

  /** A note of the view's own (a refused stream). */
  addNote(note: LogSessionNote): void {
    this.notes = [...this.notes, note].slice(-keptNotes);
    this.changed();
  }

  pause(): void {
    if (this.pausedState) return;
    this.pausedState = true;
    this.changed();
  }

  resume(): void {
    if (!this.pausedState) return;
    this.pausedState = false;
    for (const lines of this.held) this.buffer.append(lines);
    this.held = [];
    this.heldCount = 0;
    this.changed();
  }

  private hold(lines: BufferedLine[]): void {
    this.held.push(lines);
    this.heldCount += lines.length;
    // More than the buffer can show: the oldest held batches could never be seen.
    while (this.heldCount - this.held[0].length >= this.buffer.capacity) {
      const dropped = this.held.shift()!;
      this.heldCount -= dropped.length;
      this.buffer.append(dropped);
    }
  }

  /** Colours by pod, so a pod's containers share one; stable for the session. */
  private colourOf(source: LogSource): number {
    for (const other of this.sources.values())
      if (other.namespace === source.namespace && other.pod === source.pod) return other.colour;
    let hash = 0;
    for (const character of `${source.namespace}/${source.pod}`)
      hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
    return hash % paletteSize;
  }

  private changed(): void {
    this.version++;
    for (const listener of this.listeners) listener();
  }
}
