// The renderer's side of the bridge: links to main (WebSocket, MessagePort) and the client over them.
export { BridgeClient, BridgeRequestError } from './bridge-client';
export type { BridgeClientOptions, ClientTimers } from './bridge-client';
export type { BridgeLink, LinkOpener } from './bridge-link';
export { openWebSocketLink, webSocketLinkOpener, webSocketLinkOptionsFrom } from './websocket-link';
export type { WebSocketConstructor, WebSocketLike, WebSocketLinkOptions } from './websocket-link';
export { linkOverPort, messagePortLinkOpener, openMessagePortLink } from './message-port-link';
export type { MessagePortLinkOptions, PortAnnouncement, PortTarget } from './message-port-link';
