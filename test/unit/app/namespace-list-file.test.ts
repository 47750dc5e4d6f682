// The namespaces a user added, kept per context across runs in the data directory's namespaces.json.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NamespaceListFile } from '../../../main/app/namespace-list-file';

let directory: string;
const logged: string[] = [];

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'kubetide-namespaces-'));
  logged.length = 0;
});

afterEach(() => rmSync(directory, { recursive: true, force: true }));

describe('NamespaceListFile', () => {
  it('keeps each context its own list, across instances', async () => {
    const first = new NamespaceListFile(directory, (line) => logged.push(line));
    first.forContext('prod').save(['payments', 'shop']);
    first.forContext('arn:aws:eks:eu-west-1:1:cluster/dev').save(['sandbox']);
    await first.flushed();
    const second = new NamespaceListFile(directory, (line) => logged.push(line));
    expect(second.forContext('prod').load()).toEqual(['payments', 'shop']);
    expect(second.forContext('arn:aws:eks:eu-west-1:1:cluster/dev').load()).toEqual(['sandbox']);
    expect(second.forContext('other').load()).toEqual([]);
    second.forContext('prod').save([]);
    await second.flushed();
    expect(JSON.parse(readFileSync(join(directory, 'namespaces.json'), 'utf8'))).toEqual({
      'arn:aws:eks:eu-west-1:1:cluster/dev': ['sandbox'],
    });
    expect(logged).toEqual([]);
  });

  it('ignores a damaged file, says so, and replaces it on the next save', async () => {
    writeFileSync(join(directory, 'namespaces.json'), '{"prod": [');
    const lists = new NamespaceListFile(directory, (line) => logged.push(line));
    expect(lists.forContext('prod').load()).toEqual([]);
    expect(logged[0]).toMatch(/ignoring .*namespaces\.json/);
    lists.forContext('prod').save(['payments']);
    await lists.flushed();
    expect(lists.forContext('prod').load()).toEqual(['payments']);
  });
});
