import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import type { MessagePortMain } from 'electron';
import { ElectronTransport } from '../../../main/app/electron-transport';

class FakePort extends EventEmitter {
  posted: unknown[] = [];
  started = false;
  closed = false;
  postMessage(message: unknown): void {
    this.posted.push(message);
  }
  start(): void {
    this.started = true;
  }
  close(): void {
    this.closed = true;
  }
}

function transport() {
  const port = new FakePort();
  return { port, transport: new ElectronTransport(port as unknown as MessagePortMain, 'window 1') };
}

describe('ElectronTransport', () => {
  it('starts the port and hands incoming data, unvalidated, to the listener', () => {
    const { port, transport: subject } = transport();
    const received: unknown[] = [];
    subject.onMessage((message) => received.push(message));
    port.emit('message', { data: { type: 'hello', requestId: 1 }, ports: [] });
    expect(port.started).toBe(true);
    expect(received).toEqual([{ type: 'hello', requestId: 1 }]);
  });

  it('reports the renderer going away once, and sends nothing after', () => {
    const { port, transport: subject } = transport();
    const closed = vi.fn();
    subject.onClose(closed);
    port.emit('close');
    port.emit('close');
    subject.send({ type: 'rejected', reason: 'late' });
    expect(closed).toHaveBeenCalledTimes(1);
    expect(port.posted).toEqual([]);
  });

  it('closes its port when main closes the connection', () => {
    const { port, transport: subject } = transport();
    const closed = vi.fn();
    subject.onClose(closed);
    subject.send({ type: 'rejected', reason: 'x' });
    subject.close('context switched');
    expect(port.posted).toHaveLength(1);
    expect(port.closed).toBe(true);
    expect(closed).toHaveBeenCalledWith('context switched');
  });
});
