// Runs before `npm start` and `npm test` (prestart/pretest), so that a fresh clone needs only those two
// commands: it installs the dependencies when node_modules is missing or older than package-lock.json,
// and, for the tests, makes sure a system Chromium exists for the browser tests (never a downloaded one).
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..', '..');
const forTests = process.argv.includes('--tests');

function run(command, args, extraEnv = {}) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...extraEnv },
  });
  return result.status === 0;
}

function installedIsCurrent() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  if (!fs.existsSync(marker)) return false;
  return fs.statSync(marker).mtimeMs >= fs.statSync(path.join(root, 'package-lock.json')).mtimeMs;
}

function which(name) {
  return spawnSync('which', [name], { encoding: 'utf8' }).stdout?.trim() || '';
}

if (!installedIsCurrent()) {
  console.log('kubetide: installing dependencies (npm ci) first...');
  if (!run('npm', ['ci', '--no-audit', '--no-fund'])) {
    console.error('kubetide: npm ci failed; see the output above.');
    process.exit(1);
  }
}

if (forTests && !which('chromium') && !which('chromium-browser')) {
  const canInstall = process.getuid?.() === 0 && which('apt-get');
  if (canInstall) {
    console.log(
      "kubetide: the browser tests need Debian's Chromium; installing it (apt-get install chromium)...",
    );
    const ok =
      run('apt-get', ['update', '-qq']) &&
      run('apt-get', ['install', '-y', '-qq', 'chromium'], { DEBIAN_FRONTEND: 'noninteractive' });
    if (!ok) process.exit(1);
  } else {
    console.error(
      'kubetide: the browser tests need Chromium on PATH: install it (e.g. `sudo apt-get install chromium`).',
    );
    process.exit(1);
  }
}
