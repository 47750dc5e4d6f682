// The bridge protocol: the one set of messages both transports (Electron MessagePort, WebSocket) carry.
export * from './row';
export * from './sync-state';
export * from './client-messages';
export * from './server-messages';
export * from './history-messages';
export * from './log-messages';
export * from './validate-client-message';
export * from './websocket-handshake';
export * from './metrics-messages';
