// The Electron Transport: one MessagePortMain per renderer connection. Messages cross as a single
// structured clone; the port's `close` event (the renderer reloaded, navigated or its window closed)
// ends the connection, so the bridge drops that renderer's subscriptions.
import type { MessagePortMain } from 'electron';
import type { OutgoingMessage } from '../bridge/outgoing-message';
import { messageValue } from '../bridge/outgoing-message';
import type { Transport } from '../bridge/transport';

export class ElectronTransport implements Transport {
  private messageListener: (message: unknown) => void = () => undefined;
  private closeListener: (reason: string) => void = () => undefined;
  private closed = false;

  constructor(
    private readonly port: MessagePortMain,
    readonly description: string,
  ) {
    port.on('message', (event) => this.messageListener(event.data));
    port.on('close', () => this.finish('the window closed its bridge port'));
    port.start();
  }

  send(message: OutgoingMessage): void {
    // A port carries values: encoded rows are parsed into the batch they stand for.
    if (!this.closed) this.port.postMessage(messageValue(message));
  }

  onMessage(listener: (message: unknown) => void): void {
    this.messageListener = listener;
  }

  onClose(listener: (reason: string) => void): void {
    this.closeListener = listener;
  }

  close(reason = 'closed by main'): void {
    if (this.closed) return;
    this.port.close();
    this.finish(reason);
  }

  private finish(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.closeListener(reason);
  }
}
