// One random change to a recorded set of live pods (app-N in namespace ns-N%3), for the tests of
// what a travel reads: creations where a pod is gone, deletions, names re-created under another
// uid, and updates, so that every identity case a moment can hold comes up.
import type { KubeObject } from '../../../shared/kube/object';
import type { seededRandom } from './fixtures';
import { realisticPod } from './fixtures';

export type ChangeType = 'Added' | 'Updated' | 'Deleted';

/**
 * Changes one of `live` at random and writes it: a pod created where none is; else one in `oneIn`
 * deleted, one in `oneIn` created again under its name, the rest updated to `resourceVersion`.
 */
export function changeOnePod(
  live: (KubeObject | undefined)[],
  random: ReturnType<typeof seededRandom>,
  write: (object: KubeObject, type: ChangeType) => void,
  resourceVersion: string,
  oneIn = 10,
): void {
  const which = random.integer(live.length);
  const pod = live[which];
  const roll = random.integer(oneIn);
  if (pod === undefined) write((live[which] = realisticPod(`app-${which}`, `ns-${which % 3}`)), 'Added');
  else if (roll === 0) {
    write(pod, 'Deleted');
    live[which] = undefined;
  } else if (roll === 1)
    write((live[which] = realisticPod(pod.metadata.name!, pod.metadata.namespace)), 'Added');
  else write((live[which] = { ...pod, metadata: { ...pod.metadata, resourceVersion } }), 'Updated');
}
