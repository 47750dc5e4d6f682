// What the user is looking at: the kind, the filter as typed, the namespaces picked, the sort, the
// selected row and which pane or overlay is open. Small and immutable (a zustand store); rows and
// revisions live in the mirror (renderer/store), never here.
import { createStore } from 'zustand/vanilla';
import { gvrKey } from '../../shared/kube/object';

export type DetailTab = 'yaml' | 'events' | 'logs' | 'owners' | 'children' | 'history';

/** Time travel: the moment the table, filters and detail show instead of the live cluster. */
export interface TravelState {
  /** ms since the epoch. */
  readonly time: number;
  readonly playing: boolean;
}

/** Playback speeds offered (times real time); main accepts 1..100. */
export const playbackSpeeds = [1, 2, 5, 10, 25, 50, 100] as const;
/** `logs`: the full-height log view of the selected object, or of the pods a label selector matches. */
export type Overlay =
  | { type: 'none' }
  | { type: 'help' }
  | { type: 'palette'; query: string }
  | { type: 'logs'; selector?: { labelSelector: string; namespace?: string } };

export interface ViewSort {
  /**
   * A column id of the table ('name', 'namespace', or a printer column's index as text); '' for the
   * kind's default order (see renderer/views/kind-sort.ts).
   */
  readonly column: string;
  readonly descending: boolean;
}

export interface ViewState {
  readonly kindId: string;
  readonly filterText: string;
  readonly namespaces: readonly string[];
  readonly sort: ViewSort;
  readonly selectedKey?: string;
  readonly detailOpen: boolean;
  readonly detailTab: DetailTab;
  readonly overlay: Overlay;
  /** A short confirmation ("Copied web-7c9d8-abcde"), cleared by the view after a moment. */
  readonly notice?: string;
  /** Set while travelling back in time; undefined when the view is live. */
  readonly travel?: TravelState;
  readonly playbackSpeed: number;
  /** The recording file opened by import, while it (not the cluster's recording) is shown. */
  readonly importedRecording?: string;
}

export const defaultKindId = gvrKey({ group: '', version: 'v1', resource: 'pods' });

export function initialViewState(): ViewState {
  return {
    kindId: defaultKindId,
    filterText: '',
    namespaces: [],
    sort: { column: '', descending: false },
    detailOpen: false,
    detailTab: 'yaml',
    overlay: { type: 'none' },
    playbackSpeed: 10,
  };
}

export function createViewStore(initial: ViewState = initialViewState()) {
  return createStore<ViewState>()(() => initial);
}

export type ViewStore = ReturnType<typeof createViewStore>;

/**
 * Clicking a sorted column flips its direction; another column sorts ascending (for an age, ascending
 * is the youngest first: see renderer/views/kind-sort.ts).
 */
export function nextSort(current: ViewSort, column: string): ViewSort {
  if (current.column === column) return { column, descending: !current.descending };
  return { column, descending: false };
}
