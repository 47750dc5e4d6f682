// How a browser-mode page proves to main that main launched it, without the proof ever appearing on a
// command line or in page script.
//
// Main keeps a random session secret per launch. It never leaves main except in one cookie: an
// HttpOnly, SameSite=Strict cookie named after the port (two instances on one machine keep separate
// sessions), which page script cannot read and other sites cannot make the browser send. The browser
// obtains it by opening a one-time launch code, http://127.0.0.1:PORT/launch?code=CODE: the code is
// single-use and expires within seconds, so the copy visible on the browser opener's command line
// (xdg-open, open, explorer) is worthless by the time anyone could read it. The WebSocket upgrade then
// carries the cookie like any same-origin request, and the server checks it with the Origin.

/** The path the bridge's WebSocket endpoint listens on. */
export const bridgeWebSocketPath = '/bridge';
/** The subprotocol the server selects; bump with protocolVersion. */
export const bridgeSubprotocol = 'kubetide.bridge.v1';
/** The path that exchanges a one-time launch code for the session cookie. */
export const launchPath = '/launch';
/** The query parameter of launchPath that carries the code. */
export const launchCodeParameter = 'code';

/** The session cookie's name on `port`: cookies are shared across a host's ports, names are not. */
export function sessionCookieName(port: number): string {
  return `kubetide-session-${port}`;
}

/** The value of cookie `name` in a Cookie header, or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const separator = pair.indexOf('=');
    if (separator < 0) continue;
    if (pair.slice(0, separator).trim() === name) return pair.slice(separator + 1).trim();
  }
  return undefined;
}
