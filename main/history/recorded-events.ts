// The Events tab at a past moment: the core/v1 Events the recording held at that moment about one
// object, read from the recorded events stream (recorded by default, see history-recording.ts) the way
// listEvents asks the API server with involvedObject field selectors today.
import type { KubeObject } from '../../shared/kube/object';
import type { InvolvedObject } from '../../shared/protocol/client-messages';
import { stateAt } from './replay';
import type { RecordingReader } from './recording-reader';

const eventsKind = 'events.v1';

interface InvolvedFields {
  involvedObject?: { kind?: string; name?: string; namespace?: string; uid?: string };
}

/** The Events about `involved` in the recording's state at `time`, in recorded (key) order. */
export function recordedEventsAbout(
  reader: RecordingReader,
  involved: InvolvedObject,
  time: number,
): KubeObject[] {
  const state = stateAt(reader, {
    gvr: eventsKind,
    time,
    ...(involved.namespace ? { namespace: involved.namespace } : {}),
  });
  return state.objects.filter((event) => {
    const about = (event as KubeObject & InvolvedFields).involvedObject;
    if (!about || about.kind !== involved.kind || about.name !== involved.name) return false;
    if (involved.uid && about.uid && about.uid !== involved.uid) return false;
    return (about.namespace ?? '') === (involved.namespace ?? '');
  });
}
