// A batch's entries read from its bytes: each change's object kept as the very text captured, and
// only the metadata the writer files it by read out of it (at its own place, whatever the object
// nests elsewhere), marks and crash logs parsed, and any malformed batch refused.
import { describe, expect, it } from 'vitest';
import type { CapturedChange, CapturedEntry } from '../../../main/history/captured-batch';
import { isCapturedChange, readCapturedBatch } from '../../../main/history/captured-batch';
import type { TakenBatch } from '../../../main/history/capture-queue';
import { CaptureQueue } from '../../../main/history/capture-queue';
import type { KubeObject } from '../../../shared/kube/object';
import { seededRandom } from './fixtures';

/** `entries` (changes as arrays, marks as objects) queued as the Recorder queues them, and taken. */
function batchOf(entries: readonly unknown[], space?: number): TakenBatch {
  const queue = new CaptureQueue(Number.MAX_SAFE_INTEGER);
  for (const entry of entries) {
    const text = JSON.stringify(entry, null, space);
    if (Array.isArray(entry)) queue.appendChange(text);
    else queue.appendMark(text);
  }
  return queue.take(1) ?? { entries: Buffer.from('[]'), entryEnds: new Uint32Array(0) };
}

function read(entries: readonly unknown[], space?: number): CapturedEntry[] {
  const batch = batchOf(entries, space);
  return readCapturedBatch(Buffer.from(batch.entries), batch.entryEnds);
}

/** `text` as a batch of one entry that ends where the text's last byte but one does. */
function readOne(text: string): CapturedEntry[] {
  return readCapturedBatch(Buffer.from(text), new Uint32Array([Buffer.byteLength(text) - 1]));
}

function changesOf(entries: readonly CapturedEntry[]): CapturedChange[] {
  return entries.filter(isCapturedChange);
}

/** What the writer needs of a change, with its object's text as a string. */
function summary(change: CapturedChange) {
  const { object } = change;
  return {
    time: change.time,
    stream: change.stream,
    code: change.code,
    key: change.key,
    object: object && {
      text: object.text.toString(),
      uid: object.uid,
      namespace: object.namespace,
      name: object.name,
      resourceVersion: object.resourceVersion,
      template: object.template,
    },
  };
}

const deployment: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'web',
    namespace: 'shop',
    uid: 'd-1',
    resourceVersion: '77',
    generateName: 'web-',
    labels: { uid: 'a label', name: 'not the name' },
    annotations: { metadata: '{"uid":"x"}', note: 'a "quoted" }] \\ brace' },
    ownerReferences: [
      { apiVersion: 'v1', kind: 'Thing', name: 'first', uid: 'not-controller', controller: false },
      { apiVersion: 'v1', kind: 'Owner', name: 'second', uid: 'owner-2', controller: true },
    ],
  },
  spec: { template: { metadata: { name: 'template', uid: 'nested', namespace: 'elsewhere' } } },
  status: { message: 'élan ✓ 😀', uid: 'status-uid' },
};

describe('readCapturedBatch', () => {
  it('reads each change with its object as the text captured and its metadata from its own place', () => {
    const entries = read([
      [1700000000123, 3, 2, 'shop/web', deployment],
      { mark: 'gap-close', gap: 4, end: 12 },
      [1700000000124, 3, 11, 'shop/gone', null],
    ]);
    expect(entries[1]).toEqual({ mark: 'gap-close', gap: 4, end: 12 });
    expect(changesOf(entries).map(summary)).toEqual([
      {
        time: 1700000000123,
        stream: 3,
        code: 2,
        key: 'shop/web',
        object: {
          text: JSON.stringify(deployment),
          uid: 'd-1',
          namespace: 'shop',
          name: 'web',
          resourceVersion: '77',
          template: 'owner-2',
        },
      },
      { time: 1700000000124, stream: 3, code: 11, key: 'shop/gone', object: undefined },
    ]);
  });

  it("files an object without a controller under its generateName, and one with neither under ''", () => {
    const generated = { metadata: { name: 'job-x1', generateName: 'job-', uid: 'u1' } };
    const plain = { metadata: { name: 'cm', uid: 'u2' } };
    const [first, second] = changesOf(
      read([
        [1, 1, 1, 'job-x1', generated],
        [1, 1, 1, 'cm', plain],
      ]),
    );
    expect([first.object?.template, second.object?.template]).toEqual(['job-', '']);
    expect(second.object?.namespace).toBe('');
  });

  it('strips managedFields an object still carries, keeping the rest of its text as it was', () => {
    const withFields = {
      kind: 'Pod',
      metadata: { name: 'p', uid: 'u', managedFields: [{ manager: 'kubelet' }], labels: { a: 'b' } },
      spec: {},
    };
    const [change] = changesOf(read([[1, 1, 1, 'p', withFields]]));
    expect(change.object?.text.toString()).toBe(
      JSON.stringify({ kind: 'Pod', metadata: { name: 'p', uid: 'u', labels: { a: 'b' } }, spec: {} }),
    );
  });

  it('reads entries with whitespace between tokens, and a batch with no entries', () => {
    const entries = read(
      [[5, 1, 2, 'ns/a', { metadata: { uid: 'u', name: 'a' } }], { mark: 'list-start', stream: 1 }],
      2,
    );
    expect(changesOf(entries)[0].object?.uid).toBe('u');
    expect(JSON.parse(changesOf(entries)[0].object!.text.toString())).toEqual({
      metadata: { uid: 'u', name: 'a' },
    });
    expect(entries[1]).toEqual({ mark: 'list-start', stream: 1 });
    expect(read([])).toEqual([]);
  });

  it('refuses a batch cut short, ends that do not fit it, or something other than entries', () => {
    const { entries, entryEnds } = batchOf([
      [1, 1, 2, 'shop/web', deployment],
      { mark: 'list-start', stream: 1 },
    ]);
    const whole = Buffer.from(entries);
    for (const cut of [1, 10, 40, entryEnds[0] - 1, entryEnds[0], whole.length - 2, whole.length - 1])
      expect(() => readCapturedBatch(whole.subarray(0, cut), entryEnds), `cut at ${cut}`).toThrow();
    // An end inside the object, past the batch, an entry the ends leave out, one more than it holds.
    for (const ends of [
      [entryEnds[0] - 3, entryEnds[1]],
      [entryEnds[0], whole.length + 5],
      [entryEnds[0]],
      [...entryEnds, whole.length - 1],
    ])
      expect(() => readCapturedBatch(whole, new Uint32Array(ends)), `ends ${ends.join()}`).toThrow();
    expect(() => readOne('[[1,1,2,"k",7]]')).toThrow(/neither an object nor null/);
    expect(() => readOne('[[1,1,2,3,{}]]')).toThrow(/key is not a string/);
    expect(() => readOne('["x"]')).toThrow();
    // An object whose metadata never closes (the text ends inside it).
    expect(() => readOne('[[1,1,2,"k",{"metadata":{"a":[{}}]]')).toThrow(/ends early/);
  });

  it('reads the metadata of an object whose text is cut past it, and files it under its own fields', () => {
    // The reader stops at metadata's end: what the text holds after it is kept as it is, unread.
    const text = '[[1,1,2,"ns/a",{"metadata":{"uid":"u","name":"a","namespace":"ns"},"status":{"x":"}"}}]]';
    const [change] = changesOf(readOne(text));
    expect([change.object?.uid, change.object?.name, change.object?.namespace]).toEqual(['u', 'a', 'ns']);
    expect(change.object?.text.toString()).toBe(
      '{"metadata":{"uid":"u","name":"a","namespace":"ns"},"status":{"x":"}"}}',
    );
  });

  it('agrees with JSON.parse on random objects and keys', () => {
    const random = seededRandom(7);
    const pieces = [
      'a',
      'é',
      '"',
      '\\',
      '}',
      ']',
      '{',
      '[',
      ':',
      ',',
      ' ',
      '\n',
      '😀',
      'uid',
      'metadata',
      '\u0001',
    ];
    const text = () =>
      Array.from(
        { length: Math.floor(random() * 8) },
        () => pieces[Math.floor(random() * pieces.length)],
      ).join('');
    const value = (depth: number): unknown => {
      const kind = Math.floor(random() * (depth > 3 ? 4 : 6));
      if (kind === 0) return text();
      if (kind === 1) return Math.floor(random() * 1e6) / 8 - 1000;
      if (kind === 2) return random() < 0.5 ? null : random() < 0.5;
      if (kind === 3) return -0.5e-7;
      if (kind === 4) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      return Object.fromEntries(
        Array.from({ length: Math.floor(random() * 4) }, () => [text(), value(depth + 1)]),
      );
    };
    for (let round = 0; round < 60; round++) {
      const objects = Array.from({ length: 5 }, () => ({
        [text()]: value(1),
        metadata: {
          name: text(),
          uid: text(),
          [`${text()}-x`]: value(2),
          namespace: text(),
          resourceVersion: text(),
        },
        [text() + '.']: value(1),
      }));
      const keys = objects.map(() => text());
      const entries = read(objects.map((object, index) => [index, 2, 1, keys[index], object]));
      changesOf(entries).forEach((change, index) => {
        const object = objects[index];
        expect(change.key).toBe(keys[index]);
        expect(change.object?.text.toString()).toBe(JSON.stringify(object));
        expect([
          change.object?.uid,
          change.object?.name,
          change.object?.namespace,
          change.object?.resourceVersion,
        ]).toEqual([
          object.metadata.uid,
          object.metadata.name,
          object.metadata.namespace,
          object.metadata.resourceVersion,
        ]);
      });
    }
  });
});
