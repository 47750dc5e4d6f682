// Download: the lines the view shows (all, or only the matching ones), as plain text without colour
// escapes, saved through a Blob in the renderer; nothing goes through main.
import type { LogSession } from '../../store/log-session';
import { stripAnsi } from './ansi';

export function logText(
  session: LogSession,
  indexes: Iterable<number>,
  withTimestamps: boolean,
  withSources: boolean,
): string {
  const { buffer } = session;
  const lines: string[] = [];
  for (const index of indexes) {
    let line = '';
    if (withTimestamps) line += `${new Date(buffer.time(index)).toISOString()} `;
    if (withSources) {
      const source = session.sources.get(buffer.source(index));
      if (source) line += `${source.pod} ${source.container} `;
    }
    lines.push(line + stripAnsi(buffer.text(index)));
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

export function downloadText(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
