// An exec credential plugin that waits for the user, as kubelogin's device code flow does: it prints
// `message` on stderr, then waits until the file `loggedIn` exists and prints an ExecCredential with
// `token`. Run as `node <file>`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes the plugin into `directory`; returns the kubeconfig user that runs it. */
export function waitingLoginUser(
  directory: string,
  options: { message: string; token: string; loggedIn: string },
): Record<string, unknown> {
  const plugin = join(directory, 'login-plugin.mjs');
  const credential = {
    apiVersion: 'client.authentication.k8s.io/v1',
    kind: 'ExecCredential',
    status: { token: options.token },
  };
  writeFileSync(
    plugin,
    `import { existsSync } from 'node:fs';
process.stderr.write(${JSON.stringify(options.message)});
const wait = () =>
  existsSync(${JSON.stringify(options.loggedIn)})
    ? process.stdout.write(${JSON.stringify(JSON.stringify(credential))})
    : setTimeout(wait, 50);
wait();
`,
  );
  return {
    exec: {
      apiVersion: 'client.authentication.k8s.io/v1',
      command: process.execPath,
      args: [plugin],
      interactiveMode: 'Never',
    },
  };
}
