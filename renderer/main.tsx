// The renderer's entry: connect to main (a MessagePort under Electron, a WebSocket in browser mode),
// mirror what main sends into the store, and render the app. No Node APIs, no credentials: everything
// arrives over the bridge protocol.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { preloadGlobalName, type KubetidePreloadApi } from '../shared/preload-api';
import { BridgeClient } from './transport/bridge-client';
import type { LinkOpener } from './transport/bridge-link';
import { webSocketLinkOpener, webSocketLinkOptionsFrom } from './transport/websocket-link';
import { messagePortLinkOpener } from './transport/message-port-link';
import { animationFrameScheduler } from './store/frame-scheduler';
import { createViewStore } from './ui-state/view-store';
import { applyTheme, loadThemeChoice, resolveTheme, systemPrefersDark } from './ui-state/theme';
import { AppContext } from './views/app-context';
import { App } from './views/app';
import './styles/theme.css';
import './styles/layout.css';
import './styles/components.css';
import './styles/logs.css';
import './styles/metrics.css';

/** Electron's preload API when running in the desktop app; a WebSocket to main in browser mode. */
function linkOpener(): LinkOpener {
  const preload = (window as unknown as Record<string, KubetidePreloadApi | undefined>)[preloadGlobalName];
  if (preload?.requestPort) {
    return messagePortLinkOpener({
      requestPort: (nonce) => preload.requestPort(nonce),
      target: window,
      origin: window.location.origin,
    });
  }
  return webSocketLinkOpener(webSocketLinkOptionsFrom(window.location));
}

// Before the first render, so the window never flashes the other theme.
applyTheme(resolveTheme(loadThemeChoice(), systemPrefersDark()));
const client = new BridgeClient({ open: linkOpener(), scheduler: animationFrameScheduler() });
client.start();
let offlineSince: number | undefined;
window.addEventListener('offline', () => (offlineSince = Date.now()));
window.addEventListener('online', () => {
  client.networkRestored(offlineSince);
  offlineSince = undefined;
});
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppContext.Provider value={{ bridge: client, view: createViewStore() }}>
      <App />
    </AppContext.Provider>
  </StrictMode>,
);
