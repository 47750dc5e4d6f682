// Keyboard and mouse input through the DevTools protocol's Input domain, dispatched as playwright-core
// dispatches it (crInput.ts): the browser turns each into the events a real device makes (keydown,
// keypress, input, keyup; pointer and mouse events, wheel and the scroll it causes), delivered through
// the renderer's input pipeline, so the page's event timing entries and listeners see them as a
// person's. Each command is answered once the renderer has taken the event in.
import type { CdpSession } from './cdp-connection';
import { describeKey, modifierBits, splitChord } from './cdp-keys';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class CdpKeyboard {
  /** Modifiers held down now (a chord's, while its key is pressed). */
  private readonly held = new Set<string>();

  constructor(private readonly cdp: CdpSession) {}

  /** Each character pressed and released `delay` ms later; one the layout lacks is inserted as text. */
  async type(text: string, options: { delay?: number } = {}): Promise<void> {
    for (const character of text) {
      try {
        describeKey(character);
      } catch {
        if (options.delay) await sleep(options.delay);
        await this.cdp.send('Input.insertText', { text: character });
        continue;
      }
      await this.press(character, options.delay);
    }
  }

  /** 'Enter', 'ControlOrMeta+A': the modifiers down, the key down and up, the modifiers up. */
  async press(chord: string, delay?: number): Promise<void> {
    const keys = splitChord(chord);
    for (const key of keys) await this.down(key);
    if (delay) await sleep(delay);
    for (const key of keys.reverse()) await this.up(key);
  }

  private modifiers(): number {
    let bits = 0;
    for (const name of this.held) bits |= modifierBits[name] ?? 0;
    return bits;
  }

  private async down(name: string): Promise<void> {
    const description = describeKey(name);
    if (modifierBits[description.key] !== undefined) this.held.add(description.key);
    // A chord with Control, Alt or Meta types nothing (Control+A selects, it does not type "a").
    const typesText = this.held.size === 0 || (this.held.size === 1 && this.held.has('Shift'));
    const text = typesText ? description.text : '';
    await this.cdp.send('Input.dispatchKeyEvent', {
      type: text ? 'keyDown' : 'rawKeyDown',
      modifiers: this.modifiers(),
      windowsVirtualKeyCode: description.keyCode,
      code: description.code,
      key: description.key,
      text,
      unmodifiedText: text,
      autoRepeat: false,
      location: description.location,
      isKeypad: false,
    });
  }

  private async up(name: string): Promise<void> {
    const description = describeKey(name);
    this.held.delete(description.key);
    await this.cdp.send('Input.dispatchKeyEvent', {
      type: 'keyUp',
      modifiers: this.modifiers(),
      key: description.key,
      windowsVirtualKeyCode: description.keyCode,
      code: description.code,
      location: description.location,
      isKeypad: false,
    });
  }
}

export class CdpMouse {
  private x = 0;
  private y = 0;

  constructor(private readonly cdp: CdpSession) {}

  async move(x: number, y: number): Promise<void> {
    this.x = x;
    this.y = y;
    await this.cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y, button: 'none', buttons: 0 });
  }

  /** A wheel notch where the mouse is (the page scrolls what is under it). */
  async wheel(deltaX: number, deltaY: number): Promise<void> {
    await this.cdp.send('Input.dispatchMouseEvent', {
      type: 'mouseWheel',
      x: this.x,
      y: this.y,
      deltaX,
      deltaY,
    });
  }

  /** Moves there, then presses and releases the left button. */
  async click(x: number, y: number): Promise<void> {
    await this.move(x, y);
    const at = { x, y, button: 'left', clickCount: 1 };
    await this.cdp.send('Input.dispatchMouseEvent', { type: 'mousePressed', buttons: 1, ...at });
    await this.cdp.send('Input.dispatchMouseEvent', { type: 'mouseReleased', buttons: 0, ...at });
  }
}
