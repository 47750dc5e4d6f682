// What the views need from the connection to main, as one interface: the mirror to read rows from, and
// one method per request. renderer/transport's BridgeClient satisfies it as it is; tests can hand the
// views a fake, so no view knows whether it runs in Electron or in a browser.
import type { GroupVersionResource, KubeObject } from '../../shared/kube/object';
import type { InvolvedObject } from '../../shared/protocol';
import type { MirrorStore } from '../store/mirror-store';

export interface ViewBridge {
  /** Rows per subscription, and the small state (revisions, sync states, kinds, contexts) React reads. */
  readonly store: MirrorStore;
  /** Starts mirroring a kind; resolves with the subscription id whose revision and rows the view reads. */
  subscribe(gvr: GroupVersionResource, namespace?: string): Promise<string>;
  unsubscribe(subscriptionId: string): void;
  /** Relists the subscription's informer (the manual resync button). */
  resync(subscriptionId: string): Promise<void>;
  getObject(gvr: GroupVersionResource, namespace: string | undefined, name: string): Promise<KubeObject>;
  listEvents(involvedObject: InvolvedObject): Promise<KubeObject[]>;
  switchContext(context: string): Promise<void>;
}
