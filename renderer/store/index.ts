// The renderer's mirror of main's caches: rows and indexes outside React, small state in zustand.
export { MirrorStore } from './mirror-store';
export type { MirrorStoreOptions } from './mirror-store';
export { createMirrorState } from './mirror-state';
export type { ConnectionPhase, ConnectionState, MirrorState, MirrorStateStore } from './mirror-state';
export { SubscriptionMirror } from './subscription-mirror';
export type { ApplyOutcome } from './subscription-mirror';
export { RowIndexes } from './row-indexes';
export type { ValueIndex } from './row-indexes';
export { compareCells, countRows, matchesFilter, queryRows } from './row-query';
export type { RowFilter, RowSort, SortColumn } from './row-query';
export { ManualFrameScheduler, animationFrameScheduler } from './frame-scheduler';
export type { FrameScheduler } from './frame-scheduler';
