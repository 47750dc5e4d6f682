// A US keyboard's keys as the DevTools protocol's Input.dispatchKeyEvent takes them: the key value,
// the physical code, the Windows virtual key code and the text a press types. Chromium builds the
// page's keydown, keypress and input events from these, so the page sees what a real keyboard sends
// (playwright-core's usKeyboardLayout, reduced to what typing filter texts and the benches' chords need).

export interface KeyDescription {
  key: string;
  code: string;
  keyCode: number;
  /** What the press types ('' for a key that types nothing, or under Control, Alt or Meta). */
  text: string;
  /** 1 for a left modifier, as the DOM's KeyboardEvent.location. */
  location: number;
}

/** Modifier bits of Input.dispatchKeyEvent and Input.dispatchMouseEvent. */
export const modifierBits: Record<string, number> = { Alt: 1, Control: 2, Meta: 4, Shift: 8 };

const layout = new Map<string, KeyDescription>();

function add(key: string, code: string, keyCode: number, text = '', location = 0): void {
  layout.set(key, { key, code, keyCode, text, location });
}

for (let index = 0; index < 26; index++) {
  const lower = String.fromCharCode(97 + index);
  const upper = lower.toUpperCase();
  add(lower, `Key${upper}`, 65 + index, lower);
  add(upper, `Key${upper}`, 65 + index, upper);
}
const shiftedDigits = ')!@#$%^&*(';
for (let digit = 0; digit < 10; digit++) {
  add(String(digit), `Digit${digit}`, 48 + digit, String(digit));
  add(shiftedDigits[digit]!, `Digit${digit}`, 48 + digit, shiftedDigits[digit]);
}
for (const [plain, shifted, code, keyCode] of [
  ['-', '_', 'Minus', 189],
  ['=', '+', 'Equal', 187],
  ['[', '{', 'BracketLeft', 219],
  [']', '}', 'BracketRight', 221],
  ['\\', '|', 'Backslash', 220],
  [';', ':', 'Semicolon', 186],
  ["'", '"', 'Quote', 222],
  [',', '<', 'Comma', 188],
  ['.', '>', 'Period', 190],
  ['/', '?', 'Slash', 191],
  ['`', '~', 'Backquote', 192],
] as const) {
  add(plain, code, keyCode, plain);
  add(shifted, code, keyCode, shifted);
}
add(' ', 'Space', 32, ' ');
add('Enter', 'Enter', 13, '\r');
add('Tab', 'Tab', 9);
add('Backspace', 'Backspace', 8);
add('Delete', 'Delete', 46);
add('Escape', 'Escape', 27);
add('Home', 'Home', 36);
add('End', 'End', 35);
add('PageUp', 'PageUp', 33);
add('PageDown', 'PageDown', 34);
add('ArrowLeft', 'ArrowLeft', 37);
add('ArrowUp', 'ArrowUp', 38);
add('ArrowRight', 'ArrowRight', 39);
add('ArrowDown', 'ArrowDown', 40);
add('Shift', 'ShiftLeft', 16, '', 1);
add('Control', 'ControlLeft', 17, '', 1);
add('Alt', 'AltLeft', 18, '', 1);
add('Meta', 'MetaLeft', 91, '', 1);

/** The key's description; 'ControlOrMeta' is Control (the benches run on Linux). */
export function describeKey(name: string): KeyDescription {
  const description = layout.get(name === 'ControlOrMeta' ? 'Control' : name);
  if (!description) throw new Error(`unknown key "${name}"`);
  return description;
}

/** 'ControlOrMeta+A' -> ['ControlOrMeta', 'A']; a lone '+' is the key itself. */
export function splitChord(chord: string): string[] {
  if (chord === '+') return ['+'];
  const parts = chord.split('+');
  // 'Control++': the last key is '+'.
  if (chord.endsWith('++')) return [...parts.slice(0, -2), '+'];
  return parts;
}
