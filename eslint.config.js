// Import direction is a build failure, not a convention (see ../shared/design/ARCHITECTURE.md):
// app -> bridge/history -> kube -> cache -> shared; renderer -> shared; sim -> shared; never renderer -> main.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

/** Paths (as import strings) a folder may not reach, each with the reason shown on violation. */
function forbid(files, groups, extraPaths = []) {
  return {
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: extraPaths,
          patterns: groups.map(([folders, message]) => ({ regex: siblingOf(folders), message })),
        },
      ],
    },
  };
}

const noElectron = { name: 'electron', message: 'Only main/app may import electron.' };
const noReact = [
  { name: 'react', message: 'React belongs to the renderer.' },
  { name: 'react-dom', message: 'React belongs to the renderer.' },
];
/** Matches relative imports that land in one of `folders` (top-level or under main/), e.g. ../kube/x. */
const siblingOf = (folders) => `^(\\.\\./)+(main/)?(${folders.join('|')})(/|$)`;
/**
 * The main thread never reads SQLite (a big recording's open alone reads for seconds): main/app and
 * main/bridge ask history's workers (HistoryQueries, exportInWorker, the recording worker) instead.
 * test/unit/history-bridge/main-thread-sqlite.test.ts checks what they reach through other modules.
 */
const sqliteInWorkers =
  'SQLite runs in history workers only: ask HistoryQueries or a worker, never open it on main.';
const noSqlite = { name: 'better-sqlite3', message: sqliteInWorkers };
const mainThreadSqlite = [
  'history/recording-reader',
  'history/recording-writer',
  'history/schema',
  'history/replay',
  'history/playback-reads',
];
const nodeOnly = nodeBuiltins.map((name) => ({ name, message: 'This layer runs without Node APIs.' }));

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', '.tsbuild/', 'test-artifacts/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['build/**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        process: 'readonly',
        console: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  forbid(
    ['shared/**'],
    [[['main', 'renderer'], 'shared/ is pure: it imports neither main nor renderer.']],
    [noElectron, ...noReact, ...nodeOnly],
  ),
  forbid(
    ['renderer/**'],
    [[['main'], 'The renderer talks to main only through the bridge protocol in shared/.']],
    [noElectron, ...nodeOnly],
  ),
  forbid(
    ['main/cache/**'],
    [
      [
        ['kube', 'sim', 'bridge', 'history', 'app', 'renderer'],
        'main/cache knows nothing of HTTP, the simulator, the bridge, history, the app or the UI.',
      ],
    ],
    [noElectron, ...noReact],
  ),
  forbid(
    ['main/kube/**'],
    [[['sim', 'bridge', 'history', 'app', 'renderer'], 'main/kube depends only on main/cache and shared/.']],
    [noElectron, ...noReact],
  ),
  forbid(
    ['main/sim/**'],
    [
      [
        ['cache', 'kube', 'bridge', 'history', 'app', 'renderer'],
        'The embedded cluster is a server of its own: it shares only shared/.',
      ],
    ],
    [noElectron, ...noReact],
  ),
  forbid(
    ['main/history/**'],
    [[['app', 'renderer'], 'bridge and history sit below main/app.']],
    [noElectron, ...noReact],
  ),
  forbid(
    ['main/bridge/**'],
    [
      [['app', 'renderer'], 'bridge and history sit below main/app.'],
      [mainThreadSqlite, sqliteInWorkers],
    ],
    [noElectron, ...noReact, noSqlite],
  ),
  forbid(['main/app/**'], [[mainThreadSqlite, sqliteInWorkers]], [noSqlite]),
);
