// One object as the view's moment shows it: from the live cluster (getObject) while live, else the
// version the recording held at the travel moment, so no pane mixes the present into the past.
import type { GroupVersionResource, KubeObject } from '../../shared/kube/object';
import type { ViewBridge } from '../ui-state/view-bridge';

export function objectAt(
  bridge: ViewBridge,
  gvr: GroupVersionResource,
  namespace: string | undefined,
  name: string,
  travelTime: number | undefined,
): Promise<KubeObject> {
  if (travelTime === undefined) return bridge.getObject(gvr, namespace, name);
  return bridge
    .history<KubeObject | null>({
      type: 'historyObject',
      object: { gvr, name, ...(namespace ? { namespace } : {}) },
      time: travelTime,
    })
    .then((found) => {
      if (!found) throw new Error('not recorded at this moment');
      return found;
    });
}
