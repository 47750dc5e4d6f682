// Reading a resource as it was at a resourceVersion: the current sorted keys merged with an overlay
// that rewinds the objects changed since (ObjectStore.rewind). This is what makes continue pages a
// consistent snapshot and resourceVersionMatch=Exact answerable within the event window.
import type { ObjectStore, StoredObject } from './object-store';

export interface SnapshotRange {
  /** Only keys of this namespace ("ns/..."). */
  namespace?: string;
  /** Only keys >= this one (a continue token's start key). */
  startKey?: string;
}

export interface SnapshotEntry {
  key: string;
  stored: StoredObject;
}

/** Keys in order within `range`, with the object each had at the snapshot. */
export function* snapshotEntries(
  store: ObjectStore,
  resource: string,
  overlay: Map<string, StoredObject | undefined> | undefined,
  range: SnapshotRange,
): Generator<SnapshotEntry> {
  const prefix = range.namespace ? `${range.namespace}/` : '';
  const from = range.startKey && range.startKey > prefix ? range.startKey : prefix;
  const inRange = (key: string) => key >= from && key.startsWith(prefix);
  const keys = store.sortedKeys(resource);
  const extra: string[] = [];
  if (overlay) {
    for (const [key, stored] of overlay)
      if (stored && !store.get(resource, key) && inRange(key)) extra.push(key);
    extra.sort();
  }
  let index = keys.lowerBound(from);
  let extraIndex = 0;
  for (;;) {
    const current = index < keys.size ? (keys.at(index) as string) : undefined;
    const live = current !== undefined && current.startsWith(prefix) ? current : undefined;
    const rewound = extraIndex < extra.length ? extra[extraIndex] : undefined;
    if (live === undefined && rewound === undefined) return;
    if (rewound !== undefined && (live === undefined || rewound < live)) {
      extraIndex++;
      yield { key: rewound, stored: overlay?.get(rewound) as StoredObject };
      continue;
    }
    index++;
    const key = live as string;
    const stored = overlay?.has(key) ? overlay.get(key) : store.get(resource, key);
    if (stored) yield { key, stored };
  }
}
