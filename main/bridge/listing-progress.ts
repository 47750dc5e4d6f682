// A feed's LIST as it goes: its pages counted as they arrive, so the top bar shows progress before the
// informer has the whole list, and, for a feed that shows nothing yet, each item previewed as it is
// decoded (list-preview.ts).
import type { ListerWatcher } from '../cache/lister-watcher';
import type { KubeObject } from '../../shared/kube/object';
import { objectKey } from '../../shared/protocol/row';
import type { ListPreview } from './list-preview';

/** Objects received by the LIST under way, and the total its first page announced. */
export interface ListProgress {
  listed: number;
  total?: number;
}

export interface ListingHooks {
  /** The preview of the LIST under way, if this feed previews it (read when each LIST starts). */
  preview(): ListPreview | undefined;
  /** The progress so far (a continuation page adds to it). */
  progress(): ListProgress;
  /** A page has arrived. */
  pageListed(progress: ListProgress): void;
}

/**
 * `inner` with its LIST pages counted: the total is the first page's item count plus its
 * remainingItemCount, when the server sends one (it does not for selector-filtered lists).
 */
export function trackListing(
  inner: ListerWatcher<KubeObject>,
  hooks: ListingHooks,
): ListerWatcher<KubeObject> {
  return {
    supportsWatchList: inner.supportsWatchList,
    watch: (options, signal, hints) => inner.watch(options, signal, hints),
    list: async (options, signal, transformItem, hints) => {
      // Items are previewed as the inner ListerWatcher decodes them, or with their page when it
      // decodes a reply whole (transformItem is optional to it).
      const preview = hooks.preview();
      const show = (item: KubeObject) =>
        preview?.show(objectKey(item.metadata.namespace, item.metadata.name ?? ''), item);
      let streamed = false;
      const previewItem = (item: KubeObject) => {
        streamed = true;
        const transformed = transformItem ? transformItem(item) : item;
        show(transformed);
        return transformed;
      };
      const page = await inner.list(options, signal, preview ? previewItem : transformItem, hints);
      if (preview && !streamed) for (const item of page.items ?? []) show(item);
      const first = !options.continue;
      const earlier = hooks.progress();
      const listed = (first ? 0 : earlier.listed) + page.items.length;
      const remaining = page.metadata.remainingItemCount;
      const total = typeof remaining === 'number' ? listed + remaining : first ? undefined : earlier.total;
      hooks.pageListed(total === undefined ? { listed } : { listed, total });
      return page;
    },
  };
}
