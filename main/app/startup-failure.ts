// What the user sees when the desktop app cannot start (a malformed kubeconfig, an unreachable data
// directory): a dialog with the reason, rather than a window that never appears. The reason is the
// error's message only, which main/kube keeps free of credentials and kubeconfig text.
import type { Dialog } from 'electron';

export function showStartupFailure(dialog: Pick<Dialog, 'showErrorBox'>, error: unknown): void {
  const reason = error instanceof Error ? error.message : String(error);
  dialog.showErrorBox('Kubetide could not start', `${reason}\n\nStart Kubetide from a terminal to see more.`);
}
