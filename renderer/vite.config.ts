// Builds the renderer (React UI) into out/renderer. Browser mode (main/app/serve.ts) serves that
// folder; the Electron shell loads it from disk. Relative asset paths (base './') make the same build
// work from a custom scheme, from file:// and from http://127.0.0.1:<port>/. This file runs in Node
// (vite) but lives with the renderer, so it resolves paths with URL rather than Node's path module.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { contentSecurityPolicyMetaPlugin } from '../shared/security/content-security-policy';

const folder = (relative: string) => decodeURIComponent(new URL(relative, import.meta.url).pathname);

export default defineConfig({
  root: folder('.'),
  base: './',
  plugins: [react(), contentSecurityPolicyMetaPlugin()],
  logLevel: 'warn',
  build: {
    outDir: folder('../out/renderer'),
    emptyOutDir: true,
    target: 'es2023',
    sourcemap: true,
    chunkSizeWarningLimit: 2048,
  },
});
