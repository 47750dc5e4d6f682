// A malformed kubeconfig is reported by file, reason and position, never by quoting it: the YAML
// parser's own message shows the lines around the fault, which in a kubeconfig hold tokens,
// passwords and keys, and start-up errors are printed and logged.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startBackend } from '../../main/app/backend';
import { Kubeconfig } from '../../main/kube/kubeconfig';

const token = 'token-5e6f7a8b-must-not-be-echoed';
const password = 'password-must-not-be-echoed';
const broken = [
  'apiVersion: v1',
  'kind: Config',
  'users:',
  '- name: admin',
  '  user:',
  `    token: ${token}`,
  `    password: ${password}`,
  '    client-key-data: [unterminated',
  '',
].join('\n');

function errorOf(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

describe('kubeconfig errors', () => {
  it('name the source, reason and line, and echo no line of the file', () => {
    const error = errorOf(() => Kubeconfig.fromString(broken, 'my-kubeconfig'));
    expect(error.message).toMatch(/^kubeconfig my-kubeconfig is malformed: .+ \(line \d+, column \d+\)$/);
    const everything = JSON.stringify({ message: error.message, stack: error.stack, cause: error.cause });
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(password);
    expect(everything).not.toContain('unterminated');
  });

  it('do not echo it at start-up either: in the reason the embedded cluster is opened for, or a failure', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'kubetide-kubeconfig-'));
    const logged: string[] = [];
    try {
      const file = join(directory, 'config');
      writeFileSync(file, broken);
      const backend = await startBackend({
        kubeconfig: file,
        record: false,
        pods: 10,
        log: (line) => logged.push(line),
      });
      try {
        const contexts = await backend.host.listContexts();
        const instead = contexts.contexts.find((context) => context.name === contexts.current)?.openedInstead;
        expect(instead?.cause).toBe('unreadable');
        expect(instead?.reason).toContain(file);
        const everything = JSON.stringify({ instead, logged });
        expect(everything).not.toContain(token);
        expect(everything).not.toContain(password);
      } finally {
        await backend.close();
      }
      // A context named with --context cannot be opened from it: start-up fails, without echoing it.
      const failure = (await startBackend({ kubeconfig: file, context: 'admin', record: false }).catch(
        (error: unknown) => error,
      )) as Error;
      expect(failure.message).toContain(file);
      expect(failure.message).not.toContain(token);
      expect(failure.message).not.toContain(password);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
