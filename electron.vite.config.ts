// Bundles the desktop app: main process, sandboxed preload (one CommonJS file, as a sandboxed preload
// cannot be ESM or require anything but electron) and the renderer, into out/. main's worker
// threads are entries of their own beside index.js: history-worker.ts starts them by file name.
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { contentSecurityPolicyMetaPlugin } from './shared/security/content-security-policy';
import { resolve } from 'node:path';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      lib: {
        entry: {
          index: resolve('main/app/electron-main.ts'),
          'recording-worker': resolve('main/history/recording-worker.ts'),
          'export-worker': resolve('main/history/export-worker.ts'),
          'query-worker': resolve('main/history/query-worker.ts'),
          'metrics-worker': resolve('main/bridge/metrics-worker.ts'),
          'kubeconfig-worker': resolve('main/kube/kubeconfig-worker.ts'),
        },
        formats: ['es'],
      },
      externalizeDeps: true,
      rollupOptions: { output: { entryFileNames: '[name].js' } },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      lib: { entry: resolve('main/app/preload/preload.ts'), formats: ['cjs'] },
      rollupOptions: { output: { entryFileNames: 'index.cjs' } },
    },
  },
  renderer: {
    root: resolve('renderer'),
    plugins: [react(), contentSecurityPolicyMetaPlugin()],
    build: {
      outDir: resolve('out/renderer'),
      rollupOptions: { input: resolve('renderer/index.html') },
    },
  },
});
