// Electron's file dialogs for history export and import: the user picks where a recording goes and
// which one to open, in the OS's own dialog, so the renderer never names a path it was not given.
import type { BrowserWindow, Dialog } from 'electron';
import type { FilePicker } from '../bridge/history-service';

const recordingFilter = { name: 'Kubetide recording', extensions: ['kubetide'] };

/** A FilePicker over Electron's `dialog`, attached to the focused window (or `fallback`). */
export function electronFilePicker(
  dialog: Dialog,
  focusedWindow: () => BrowserWindow | undefined,
): FilePicker {
  return async (purpose, suggestedPath) => {
    const window = focusedWindow();
    if (purpose === 'export') {
      const options = {
        title: 'Export recording',
        filters: [recordingFilter],
        ...(suggestedPath ? { defaultPath: suggestedPath } : {}),
      };
      const result = window
        ? await dialog.showSaveDialog(window, options)
        : await dialog.showSaveDialog(options);
      if (result.canceled || !result.filePath) return undefined;
      return result.filePath.endsWith('.kubetide') ? result.filePath : `${result.filePath}.kubetide`;
    }
    const options = {
      title: 'Open recording',
      filters: [recordingFilter],
      properties: ['openFile' as const],
      ...(suggestedPath ? { defaultPath: suggestedPath } : {}),
    };
    const result = window
      ? await dialog.showOpenDialog(window, options)
      : await dialog.showOpenDialog(options);
    return result.canceled ? undefined : result.filePaths[0];
  };
}
