// main/cache is the client-go port and nothing else: it may import its own files and shared/ only,
// so it runs (and is tested) without HTTP, the simulator, the bridge, history, Electron or React.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as cache from '../../../main/cache/index';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const cacheFolder = join(root, 'main', 'cache');
const sharedFolder = join(root, 'shared');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|mts|cts)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Every module specifier a file names: static imports and re-exports (type-only too), and dynamic imports. */
function importedSpecifiers(file: string): string[] {
  return ts
    .preProcessFile(readFileSync(file, 'utf8'), true, true)
    .importedFiles.map((entry) => entry.fileName);
}

function isInside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder + sep);
}

/** Why `specifier`, imported by `file`, is not allowed; undefined when it is. */
function violation(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return `imports the package or built-in "${specifier}"`;
  const target = resolve(dirname(file), specifier);
  if (isInside(target, cacheFolder) || isInside(target, sharedFolder)) return undefined;
  return `imports ${relative(root, target)}, outside main/cache and shared/`;
}

describe('main/cache imports', () => {
  const files = sourceFiles(cacheFolder);

  it('finds the cache sources', () => {
    expect(files.map((file) => relative(cacheFolder, file))).toEqual(
      expect.arrayContaining(['shared-informer.ts', 'reflector.ts', 'delta-fifo.ts', 'index.ts']),
    );
  });

  it('imports nothing outside main/cache except shared/', () => {
    const problems = files.flatMap((file) =>
      importedSpecifiers(file).flatMap((specifier) => {
        const reason = violation(file, specifier);
        return reason ? [`${relative(root, file)} ${reason}`] : [];
      }),
    );
    expect(problems).toEqual([]);
  });

  it('would catch the imports it forbids', () => {
    const file = join(cacheFolder, 'example.ts');
    for (const specifier of [
      'node:http',
      'electron',
      'react',
      '../kube/rest-client',
      '../sim/server',
      '../bridge/x',
      '../history/recorder',
      '../app/launch',
      '../../renderer/store',
    ]) {
      expect(violation(file, specifier), specifier).toBeDefined();
    }
    expect(violation(file, './clock')).toBeUndefined();
    expect(violation(file, '../../shared/kube/object')).toBeUndefined();
  });
});

describe('main/cache barrel', () => {
  it('exports the client-go API under its camelCase names', () => {
    const names = [
      'DeltaFIFO',
      'FIFO',
      'Reflector',
      'SharedIndexInformer',
      'SharedInformerFactory',
      'GenericLister',
      'FilteringResourceEventHandler',
      'DeletedFinalStateUnknown',
      'metaNamespaceKeyFunc',
      'deletionHandlingMetaNamespaceKeyFunc',
      'splitMetaNamespaceKey',
      'metaNamespaceIndexFunc',
      'newIndexer',
      'newStore',
      'listAll',
      'listAllByNamespace',
      'waitForCacheSync',
      'FakeClock',
      'RealClock',
    ];
    for (const name of names) expect(typeof (cache as Record<string, unknown>)[name], name).toBe('function');
    expect(cache.namespaceIndex).toBe('namespace');
  });
});
