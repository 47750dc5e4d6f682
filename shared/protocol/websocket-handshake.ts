// How a browser-mode renderer proves to main's WebSocket server that main launched it.
//
// Main makes a random secret per launch and opens the app at http://127.0.0.1:PORT/#secret=SECRET.
// A fragment is never sent in HTTP requests, Referer headers or server logs, so only the page main
// opened (and the user, who can see it) learns the secret. The page offers it as a WebSocket
// subprotocol ("kubetide.secret.SECRET") beside bridgeSubprotocol: it stays out of the URL, and the
// server answers with bridgeSubprotocol alone, never echoing the secret.

/** The path the bridge's WebSocket endpoint listens on. */
export const bridgeWebSocketPath = '/bridge';
/** The subprotocol the server selects; bump with protocolVersion. */
export const bridgeSubprotocol = 'kubetide.bridge.v1';
/** Prefix of the subprotocol that carries the launch secret. */
export const secretSubprotocolPrefix = 'kubetide.secret.';
/** The URL fragment parameter main puts the secret in. */
export const secretFragmentParameter = 'secret';

/** The secret in a location hash such as "#secret=abc" (other parameters allowed), or undefined. */
export function secretFromHash(hash: string): string | undefined {
  for (const parameter of hash.replace(/^#/, '').split('&')) {
    const separator = parameter.indexOf('=');
    if (separator <= 0 || parameter.slice(0, separator) !== secretFragmentParameter) continue;
    try {
      const secret = decodeURIComponent(parameter.slice(separator + 1));
      return secret === '' ? undefined : secret;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The subprotocols a client offers: the bridge's, then the one carrying the secret. */
export function clientSubprotocols(secret: string): string[] {
  return [bridgeSubprotocol, `${secretSubprotocolPrefix}${secret}`];
}
