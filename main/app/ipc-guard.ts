// Every IPC message from a renderer is checked before main acts on it (Electron checklist item 17,
// VS Code's ValidatedIpcMain): it must come from the main frame of a window showing the app itself.
// The payload's shape is checked separately, by the bridge protocol's validator.
import type { IpcMainEvent } from 'electron';
import { isAppUrl } from './window-security';

export type SenderVerdict = { ok: true } | { ok: false; reason: string };

export function checkSender(
  event: Pick<IpcMainEvent, 'senderFrame'>,
  devServerOrigin?: string,
): SenderVerdict {
  const frame = event.senderFrame;
  if (!frame) return { ok: false, reason: 'the sending frame is gone' };
  if (frame.parent !== null) return { ok: false, reason: `a subframe (${frame.url}) may not use the bridge` };
  if (!isAppUrl(frame.url, devServerOrigin))
    return { ok: false, reason: `${frame.url} is not the Kubetide UI` };
  return { ok: true };
}
