import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../../main/cache/fake-clock';
import { WatchDecodeError } from '../../../main/kube/errors';
import { WatchStream } from '../../../main/kube/watch-stream';
import type { WatchEvent } from '../../../shared/kube/object';

const request = 'watching pods in namespace payments';

function modified(name: string, resourceVersion: string): WatchEvent {
  return {
    type: 'MODIFIED',
    object: { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'payments', resourceVersion } },
  };
}

function open() {
  const source = new PassThrough();
  const stream = new WatchStream(source, { request, clock: new FakeClock() });
  return { source, stream };
}

const line = (event: WatchEvent) => JSON.stringify(event) + '\n';

describe('WatchStream.takeBuffered', () => {
  it('hands out every event of a chunk in order without a promise, then undefined', () => {
    const { source, stream } = open();
    const events = [modified('a', '1'), modified('b', '2'), modified('c', '3')];
    source.write(events.map(line).join(''));
    expect([stream.takeBuffered(), stream.takeBuffered(), stream.takeBuffered()]).toEqual(events);
    expect(stream.takeBuffered()).toBeUndefined();
    stream.stop();
  });

  it('shares one queue with next(): an event is delivered once, by whichever asks first', async () => {
    const { source, stream } = open();
    source.write(line(modified('a', '1')) + line(modified('b', '2')));
    expect(stream.takeBuffered()).toEqual(modified('a', '1'));
    await expect(stream.next()).resolves.toEqual({ done: false, value: modified('b', '2') });
    expect(stream.takeBuffered()).toBeUndefined();
    stream.stop();
  });

  it('leaves a decode failure to next(), after the events before it', async () => {
    const { source, stream } = open();
    source.write(line(modified('a', '1')) + 'not json\n');
    expect(stream.takeBuffered()).toEqual(modified('a', '1'));
    expect(stream.takeBuffered()).toBeUndefined();
    await expect(stream.next()).rejects.toBeInstanceOf(WatchDecodeError);
  });

  it('gives nothing after stop()', () => {
    const { source, stream } = open();
    source.write(line(modified('a', '1')));
    stream.stop();
    expect(stream.takeBuffered()).toBeUndefined();
  });
});
