// Runs after `npm install` / `npm ci`. Electron's own postinstall (which downloads the binary from
// GitHub) is denied in package.json#allowScripts so that an install never fails where that download
// is impossible; this script tries the download itself and explains the outcome instead of failing.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const electronDir = path.join(__dirname, '..', '..', 'node_modules', 'electron');
const installed = () => fs.existsSync(path.join(electronDir, 'path.txt'));
const fallback =
  '`npm start` will run Kubetide in browser mode (same engine, UI in your browser); `npm run serve` does so directly.';

if (!fs.existsSync(electronDir)) process.exit(0);
if (installed()) process.exit(0);
if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
  console.log(`kubetide: Electron binary not downloaded (ELECTRON_SKIP_BINARY_DOWNLOAD is set). ${fallback}`);
  process.exit(0);
}
const result = spawnSync(process.execPath, [path.join(electronDir, 'install.js')], {
  stdio: ['ignore', 'inherit', 'pipe'],
  timeout: 180_000,
  encoding: 'utf8',
});
if (result.status === 0 && installed()) process.exit(0);
const reason =
  (result.stderr || '').split('\n').find((line) => line.trim()) || result.error?.message || 'unknown error';
console.log(`kubetide: the Electron binary could not be downloaded (${reason.trim()}).`);
console.log(`kubetide: ${fallback} Retry later with: node node_modules/electron/install.js`);
process.exit(0);
