// The bridge: informer events -> rows -> coalesced, numbered batches -> a Transport to each renderer.
export { BridgeHost } from './bridge-host';
export type { BridgeHostOptions } from './bridge-host';
export { BridgeConnection, replyErrorOf } from './bridge-connection';
export { ClusterSession } from './cluster-session';
export type { ClusterSessionOptions } from './cluster-session';
export { SessionConnection } from './session-connection';
export type { SessionPeer } from './session-connection';
export { Feed, stripManagedFields } from './feed';
export type { FeedOptions, FeedSubscriber } from './feed-options';
export { FeedRegistry, feedKey } from './feed-registry';
export { BatchStream, batchStreamDefaults } from './batch-stream';
export type { BatchStreamOptions } from './batch-stream';
export { PendingChanges, squash, changeKey } from './squash';
export type { PendingChange, RowChange } from './squash';
export { RowProjector, defaultPrinter } from './row-projection';
export type { PrinterLookup } from './row-projection';
export { sanitizeObject, maskedValue, isSecretResource } from './object-sanitizer';
export { servedKinds } from './served-kinds';
export type { DiscoveredResource, KindSource } from './served-kinds';
export type { Transport } from './transport';
export { createInMemoryTransportPair } from './in-memory-transport';
export type { InMemoryClientEnd, InMemoryTransportPair } from './in-memory-transport';
export {
  attachWebSocketBridge,
  createLaunchSecret,
  isLoopbackAddress,
  listenWebSocketBridge,
} from './websocket-server';
export type { ListeningWebSocketBridge, WebSocketBridge, WebSocketBridgeOptions } from './websocket-server';
