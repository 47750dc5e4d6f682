import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import { keepObjectTexts, objectText } from '../../../main/cache/object-text';
import { WatchStream } from '../../../main/kube/watch-stream';
import type { KubeObject, WatchEvent } from '../../../shared/kube/object';

const pod = (name: string, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'payments', resourceVersion: '7', ...extra },
  spec: { containers: [{ name: 'app', args: ['{"a":[1,2]}', 'quote " and \\\\ backslash }]'] }] },
});

/** Every event decoded from `lines`, as the informer's reflector takes them. */
async function decode(lines: string[], options: { keep?: boolean; omitManagedFields?: boolean } = {}) {
  const source = new PassThrough();
  const stream = new WatchStream(source, {
    request: 'watching pods',
    clock: new FakeClock(),
    keepObjectTexts: options.keep ?? true,
    omitManagedFields: options.omitManagedFields,
  });
  source.end(Buffer.from(lines.map((line) => `${line}\n`).join('')));
  const events: WatchEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

let release: (() => void) | undefined;
afterEach(() => release?.());

describe('the text a watched object was parsed from', () => {
  it('is kept, exactly the object as JSON, for events as API servers write them', async () => {
    release = keepObjectTexts();
    const objects = [pod('web-0'), pod('日本-1', { labels: { 'a}b': '"]' } })];
    const events = await decode([
      JSON.stringify({ type: 'ADDED', object: objects[0] }),
      JSON.stringify({ type: 'DELETED', object: objects[1] }),
    ]);
    expect(events.map((event) => objectText(event.object))).toEqual(
      objects.map((object) => JSON.stringify(object)),
    );
  });

  it('is kept with managedFields cut out of it, as the object was parsed without them', async () => {
    release = keepObjectTexts();
    const managed = pod('web-0', { managedFields: [{ manager: 'kubelet', fieldsV1: { 'f:status': {} } }] });
    const [event] = await decode([JSON.stringify({ type: 'MODIFIED', object: managed })], {
      omitManagedFields: true,
    });
    expect(event!.object.metadata.managedFields).toBeUndefined();
    expect(JSON.parse(objectText(event!.object)!)).toEqual(event!.object);
  });

  it('is not kept when it could differ from the object, nor when nothing will read it', async () => {
    const object = pod('web-0');
    const text = JSON.stringify(object);
    const unread = await decode([JSON.stringify({ type: 'ADDED', object })]);
    expect(objectText(unread[0]!.object)).toBeUndefined();
    release = keepObjectTexts();
    const kept = await decode([
      // managedFields left in the object (the consumer does not drop them): a transform would.
      JSON.stringify({ type: 'ADDED', object: pod('a', { managedFields: [] }) }),
      // Another member after the object, or a second "object" (JSON.parse keeps the last).
      `{"type":"ADDED","object":${text},"extra":{}}`,
      `{"type":"ADDED","object":${JSON.stringify(pod('first'))},"object":${text}}`,
      // Members in another order.
      `{"object":${text},"type":"ADDED"}`,
      JSON.stringify({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '9' } } }),
    ]);
    expect(kept.map((event) => objectText(event.object))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(kept[2]!.object.metadata.name).toBe('web-0');
    const projected = await decode([JSON.stringify({ type: 'ADDED', object })], { keep: false });
    expect(objectText(projected[0]!.object)).toBeUndefined();
  });

  it('is kept when whitespace follows the event', async () => {
    release = keepObjectTexts();
    const object = pod('web-0');
    const [event] = await decode([`${JSON.stringify({ type: 'MODIFIED', object })} \r`]);
    expect(objectText(event!.object)).toBe(JSON.stringify(object));
  });
});
