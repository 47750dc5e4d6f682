// SGR ("Select Graphic Rendition", ESC [ ... m) colours and styles in log text, as a terminal shows
// them: the 16 named colours (30-37, 90-97 and their backgrounds), the 256-colour palette (38;5;n) and
// true colour (38;2;r;g;b), bold, dim, italic, underline and inverse, each with its reset. Every other
// escape sequence (cursor moves, erase line, OSC titles) is dropped, so the text is what would stay on
// screen. Colours come out as CSS values; the view maps named ones to the theme's palette classes.

export interface AnsiStyle {
  /** A named colour 0-15 as "ansi-N", or a CSS colour for palette and true colours. */
  foreground?: string;
  background?: string;
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
  inverse?: boolean;
}

export interface AnsiSegment {
  text: string;
  style: AnsiStyle;
}

const escape = '\u001b';
/** CSI (ESC [ params final), OSC (ESC ] ... BEL or ESC \), or any other two-byte escape. */
// eslint-disable-next-line no-control-regex -- matching control characters is this regex's job
const sequence = /\u001b(?:\[([0-9;:]*)([\x40-\x7e])|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[\x40-\x5f]?)/g;

/** The xterm 256-colour palette entry n as a CSS colour (0-15 stay named). */
function paletteColour(n: number): string {
  if (n < 16) return `ansi-${n}`;
  if (n >= 232) {
    const level = 8 + (n - 232) * 10;
    return `rgb(${level},${level},${level})`;
  }
  const index = n - 16;
  const level = (value: number) => (value === 0 ? 0 : 55 + value * 40);
  return `rgb(${level(Math.floor(index / 36))},${level(Math.floor(index / 6) % 6)},${level(index % 6)})`;
}

/** Applies one SGR parameter list to `style` (a fresh object: segments keep their own). */
function applySgr(style: AnsiStyle, parameters: string): AnsiStyle {
  const next: AnsiStyle = { ...style };
  const codes = parameters === '' ? [0] : parameters.split(/[;:]/).map((code) => Number(code || 0));
  for (let index = 0; index < codes.length; index++) {
    const code = codes[index];
    if (code === 0) for (const key of Object.keys(next)) delete next[key as keyof AnsiStyle];
    else if (code === 1) next.bold = true;
    else if (code === 2) next.dim = true;
    else if (code === 3) next.italic = true;
    else if (code === 4) next.underline = true;
    else if (code === 7) next.inverse = true;
    else if (code === 22) {
      delete next.bold;
      delete next.dim;
    } else if (code === 23) delete next.italic;
    else if (code === 24) delete next.underline;
    else if (code === 27) delete next.inverse;
    else if (code >= 30 && code <= 37) next.foreground = `ansi-${code - 30}`;
    else if (code >= 90 && code <= 97) next.foreground = `ansi-${code - 90 + 8}`;
    else if (code >= 40 && code <= 47) next.background = `ansi-${code - 40}`;
    else if (code >= 100 && code <= 107) next.background = `ansi-${code - 100 + 8}`;
    else if (code === 39) delete next.foreground;
    else if (code === 49) delete next.background;
    else if (code === 38 || code === 48) {
      const target = code === 38 ? 'foreground' : 'background';
      if (codes[index + 1] === 5 && index + 2 < codes.length) {
        next[target] = paletteColour(Math.min(255, codes[index + 2]));
        index += 2;
      } else if (codes[index + 1] === 2 && index + 4 < codes.length) {
        const [red, green, blue] = codes.slice(index + 2, index + 5).map((value) => Math.min(255, value));
        next[target] = `rgb(${red},${green},${blue})`;
        index += 4;
      }
    }
  }
  return next;
}

/** The text split where its style changes; a line without escapes is one unstyled segment. */
export function parseAnsi(text: string): AnsiSegment[] {
  if (!text.includes(escape)) return [{ text, style: {} }];
  const segments: AnsiSegment[] = [];
  let style: AnsiStyle = {};
  let last = 0;
  for (const match of text.matchAll(sequence)) {
    if (match.index > last) segments.push({ text: text.slice(last, match.index), style });
    last = match.index + match[0].length;
    if (match[2] === 'm') style = applySgr(style, match[1] ?? '');
  }
  if (last < text.length) segments.push({ text: text.slice(last), style });
  return segments;
}

/** The text without any escape sequence: what search matches and a download without colours holds. */
export function stripAnsi(text: string): string {
  return text.includes(escape) ? text.replace(sequence, '') : text;
}
