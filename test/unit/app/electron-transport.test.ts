import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import type { MessagePortMain } from 'electron';
import { ElectronTransport } from '../../../main/app/electron-transport';
import type { EncodedRows } from '../../../main/bridge/encoded-rows';
import { EncodedValue, jsonBytes } from '../../../main/bridge/encoded-value';
import { messageText } from '../../../main/bridge/outgoing-message';
import type { RowLayout } from '../../../shared/protocol/row-tuples';

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

  it("posts a worker's encoded rows and reply values as their JSON text, never parsing them here; the rest as values", () => {
    const { port, transport: subject } = transport();
    const rows: EncodedRows = { json: '[["ns/a"]]', layout: ['key'] as unknown as RowLayout, keys: ['ns/a'] };
    const batch = { type: 'batch' as const, subscriptionId: 's', seq: 3, upserts: rows, deletes: [] };
    const reply = {
      type: 'reply' as const,
      requestId: 2,
      ok: true as const,
      value: new EncodedValue(jsonBytes({ keys: [] })),
    };
    subject.send(batch);
    subject.send(reply);
    subject.send({ type: 'rejected', reason: 'r' });
    expect(port.posted).toEqual([messageText(batch), messageText(reply), { type: 'rejected', reason: 'r' }]);
    expect(typeof port.posted[0]).toBe('string');
    expect(port.posted[1]).toBe('{"type":"reply","requestId":2,"ok":true,"value":{"keys":[]}}');
  });
});
