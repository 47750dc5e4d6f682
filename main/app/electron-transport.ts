// The Electron Transport: one MessagePortMain per renderer connection. Messages cross as a single
// structured clone; the port's `close` event (the renderer reloaded, navigated or its window closed)
// ends the connection, so the bridge drops that renderer's subscriptions.
//
// What a history query worker serialized (a travel's rows, a moment's usage: EncodedRows,
// EncodedValue) crosses as the message's JSON text, which the renderer parses (message-port-link.ts),
// as the WebSocket's page does. Parsed here into values and cloned again, a 150,000-row moment held
// main for a JSON.parse of its 57 MB, the rows made from their tuples and a structured clone of them:
// seconds of the process that runs every window. A string crosses as one copy.
import type { MessagePortMain } from 'electron';
import type { OutgoingMessage } from '../bridge/outgoing-message';
import { carriesText, messageText } from '../bridge/outgoing-message';
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
    if (this.closed) return;
    this.port.postMessage(carriesText(message) ? messageText(message) : message);
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
