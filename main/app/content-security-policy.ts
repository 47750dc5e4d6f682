// The one Content-Security-Policy for the renderer, in Electron and in browser mode alike. Scripts and
// styles only from the app itself; no eval, no remote content, no framing, no plugins. `connect-src`
// allows the bridge: Electron uses a MessagePort (no network), browser mode a WebSocket to its own
// loopback origin, which 'self' covers for ws: in current Chromium.
export function contentSecurityPolicy(options: { connectSources?: string[] } = {}): string {
  const connect = ["'self'", ...(options.connectSources ?? [])].join(' ');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src ${connect}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}
