// The one Content-Security-Policy for the renderer, in Electron and in browser mode alike. Scripts and
// styles only from the app itself; no eval, no remote content, no framing, no plugins. `connect-src`
// allows the bridge: Electron uses a MessagePort (no network), browser mode a WebSocket to its own
// loopback origin, which 'self' covers for ws: in current Chromium.
//
// It is delivered twice, so that no path leaves the renderer without one: as a response header (by
// browser mode's server and by Electron's kubetide: protocol handler) and as a <meta> tag the build
// writes into index.html (for any load that bypasses both). Pure: the renderer's build config uses it.

export interface ContentSecurityPolicyOptions {
  /** Extra connect-src sources (a development server's origin). */
  connectSources?: readonly string[];
  /**
   * For a <meta> tag: without frame-ancestors, which browsers ignore there (and warn about); the
   * response header, which carries it, is what stops framing.
   */
  forMetaTag?: boolean;
}

export function contentSecurityPolicy(options: ContentSecurityPolicyOptions = {}): string {
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
    ...(options.forMetaTag ? [] : ["frame-ancestors 'none'"]),
    "object-src 'none'",
  ].join('; ');
}

/** The <meta> element that carries the policy inside index.html. */
export function contentSecurityPolicyMetaTag(): string {
  return `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy({ forMetaTag: true })}" />`;
}

/**
 * A Vite plugin writing the policy's meta tag first into <head> of the built index.html. Build only:
 * the development server injects inline scripts (React refresh) that the policy rightly refuses.
 */
export function contentSecurityPolicyMetaPlugin(): {
  name: string;
  apply: 'build';
  transformIndexHtml: (html: string) => string;
} {
  return {
    name: 'kubetide-content-security-policy',
    apply: 'build',
    transformIndexHtml: (html) => html.replace('<head>', `<head>\n    ${contentSecurityPolicyMetaTag()}`),
  };
}
