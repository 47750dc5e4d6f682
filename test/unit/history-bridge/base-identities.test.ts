// The live rows' versions as main lists them for the query worker (a travel from live): read back
// exactly, and never misread when a field holds a tab or a line break.
import { describe, expect, it } from 'vitest';
import { IdentityLines, isIdentity, listIdentities } from '../../../main/bridge/base-identities';
import { SentRows } from '../../../main/bridge/sent-rows';
import type { Row } from '../../../shared/protocol/row';

function row(key: string, uid: string, resourceVersion: string): Row {
  return {
    key,
    uid,
    name: key,
    namespace: '',
    resourceVersion,
    labels: {},
    owners: [],
    createdAt: 0,
    cells: [],
  };
}

const never = () => Promise.resolve();

/** The listing read back as the worker reads it: key -> identity, or undefined if unreadable. */
function parseIdentities(text: string): Map<string, string> | undefined {
  const lines = new IdentityLines(text);
  const identities = new Map<string, string>();
  for (let line = lines.next(); line !== false; line = lines.next()) {
    if (line === undefined) return undefined;
    identities.set(lines.key, lines.identity());
  }
  expect(identities.size).toBe(lines.count());
  return identities;
}

describe('base identities', () => {
  it('list every row as of the base batch, sliced, and read back as they were', async () => {
    const sent = new SentRows();
    const rows = Array.from({ length: 25 }, (_, index) => row(`ns/pod-${index}`, `uid-${index}`, `${index}`));
    sent.sent({ upserts: rows, deletes: [], replace: true, snapshotEnd: true });
    const base = sent.base(1)!;
    let tasks = 0;
    const listing = listIdentities(
      base,
      () => {
        tasks += 1;
        // A batch sent meanwhile changes what the renderer holds now, not the base's rows.
        sent.sent({ upserts: [row('ns/pod-24', 'uid-24', '99')], deletes: ['ns/pod-0'] });
        return never();
      },
      () => true,
      10,
    );
    const { keys, text } = (await listing)!;
    expect(tasks).toBe(2);
    expect(keys).toHaveLength(25);
    const identities = parseIdentities(text)!;
    expect(identities.size).toBe(25);
    expect(isIdentity(identities.get('ns/pod-0'), 'uid-0', '0')).toBe(true);
    expect(isIdentity(identities.get('ns/pod-24'), 'uid-24', '24')).toBe(true);
    expect(isIdentity(identities.get('ns/pod-24'), 'uid-24', '99')).toBe(false);
    expect(isIdentity(identities.get('ns/pod-24'), 'uid-2', '424')).toBe(false);
    expect(isIdentity(identities.get('ns/absent'), 'uid-24', '24')).toBe(false);
    // Compared where it lies, as the worker compares it.
    const lines = new IdentityLines(text);
    lines.next();
    expect(lines.key).toBe('ns/pod-0');
    expect(lines.is('uid-0', '0')).toBe(true);
    expect(lines.is('uid-0', '00')).toBe(false);
    expect(lines.is('uid-', '00')).toBe(false);
  });

  it('stop when the travel is superseded', async () => {
    const sent = new SentRows();
    sent.sent({
      upserts: [row('a', 'u', '1'), row('b', 'u', '1')],
      deletes: [],
      replace: true,
      snapshotEnd: true,
    });
    expect(await listIdentities(sent.base(1)!, never, () => false, 1)).toBeUndefined();
  });

  it('are not read when a field holds a tab or a line break', async () => {
    for (const broken of [row('ns/a\tb', 'u', '1'), row('ns/a', 'u\nv', '1'), row('ns/a', 'u', '1\t\n')]) {
      const sent = new SentRows();
      sent.sent({ upserts: [row('ns/ok', 'u', '1'), broken], deletes: [], replace: true, snapshotEnd: true });
      const { text } = (await listIdentities(sent.base(1)!, never, () => true))!;
      expect(parseIdentities(text)).toBeUndefined();
      // The worker then sends the moment whole.
    }
  });
});
