// The SGR parser: named, bright, 256 and true colours, styles and their resets; other escapes dropped.
import { describe, expect, it } from 'vitest';
import { parseAnsi, stripAnsi } from '../../../renderer/views/logs/ansi';

const esc = '\u001b';

describe('parseAnsi', () => {
  it('leaves text without escapes as one unstyled segment', () => {
    expect(parseAnsi('plain line')).toEqual([{ text: 'plain line', style: {} }]);
  });

  it('splits where the style changes, and resets', () => {
    expect(parseAnsi(`a ${esc}[32mINFO${esc}[0m b`)).toEqual([
      { text: 'a ', style: {} },
      { text: 'INFO', style: { foreground: 'ansi-2' } },
      { text: ' b', style: {} },
    ]);
    expect(parseAnsi(`${esc}[1;91;44mX${esc}[22;39mY${esc}[mZ`)).toEqual([
      { text: 'X', style: { bold: true, foreground: 'ansi-9', background: 'ansi-4' } },
      { text: 'Y', style: { background: 'ansi-4' } },
      { text: 'Z', style: {} },
    ]);
  });

  it('reads the 256-colour palette and true colour', () => {
    expect(parseAnsi(`${esc}[38;5;196mred${esc}[48;2;10;20;30mbg`)).toEqual([
      { text: 'red', style: { foreground: 'rgb(255,0,0)' } },
      { text: 'bg', style: { foreground: 'rgb(255,0,0)', background: 'rgb(10,20,30)' } },
    ]);
    expect(parseAnsi(`${esc}[38;5;244mgrey`)[0].style.foreground).toBe('rgb(128,128,128)');
    expect(parseAnsi(`${esc}[38;5;3mnamed`)[0].style.foreground).toBe('ansi-3');
  });

  it('drops other escape sequences (erase line, cursor moves, OSC titles)', () => {
    expect(stripAnsi(`${esc}[2K${esc}[1Gprogress ${esc}]0;title\u0007done${esc}[31m!`)).toBe(
      'progress done!',
    );
    expect(parseAnsi(`${esc}[2Kx`)).toEqual([{ text: 'x', style: {} }]);
  });
});
