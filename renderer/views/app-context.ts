// The bridge and the view store, handed to every view through React context (one of each per window).
import { createContext, useContext } from 'react';
import type { ViewBridge } from '../ui-state/view-bridge';
import type { ViewState, ViewStore } from '../ui-state/view-store';
import type { MirrorState } from '../store/mirror-state';
import { useStoreSlice } from './use-store-slice';

export interface AppServices {
  readonly bridge: ViewBridge;
  readonly view: ViewStore;
}

export const AppContext = createContext<AppServices | null>(null);

export function useServices(): AppServices {
  const services = useContext(AppContext);
  if (!services) throw new Error('Kubetide views must be rendered inside <AppContext.Provider>');
  return services;
}

/** Selects from the view state; the selector should return a primitive or a stable reference. */
export function useView<T>(selector: (state: ViewState) => T): T {
  return useStoreSlice(useServices().view, selector);
}

/** Selects from the mirror's small state (revisions, sync states, kinds, contexts, connection). */
export function useMirrorState<T>(selector: (state: MirrorState) => T): T {
  return useStoreSlice(useServices().bridge.store.state, selector);
}
