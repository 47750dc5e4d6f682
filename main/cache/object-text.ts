// The JSON text a watched object was decoded from, kept beside the object (never in it) from the watch
// event's decoding until the informer has handled its delta. The history recorder writes each change's
// object into its batch as JSON: serialized again from the tree, a 2 KB pod cost 11-15 us of the
// informers' thread (json-bytes' writeJson), against well under 1 us to copy the text the watch
// stream had just parsed it from (test/bench/README.md, sessions 35-36).
//
// A text stands for its object only while they agree: it is kept for an object parsed from exactly
// that text, with no managedFields in it (transforms drop them, nothing else), carried to the object a
// transform returns in its place when that object is equal as JSON (the compactor's sibling sharing),
// and dropped as soon as the informer has handled the delta, so no cached object keeps one: memory
// holds texts only for the deltas queued between the watch and the informer. Texts are kept only while
// something will read them (keepObjectTexts: a recorder attached); otherwise each step is a no-op.
const texts = new WeakMap<object, string>();
let keepers = 0;

/** Texts are kept from now until the returned release is called (idempotent). */
export function keepObjectTexts(): () => void {
  keepers++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    keepers--;
  };
}

/** Whether a decoder should keep the texts it parses objects from. */
export function objectTextsKept(): boolean {
  return keepers > 0;
}

/** `text` is the JSON `object` was just parsed from (managedFields absent from both). */
export function rememberObjectText(object: object, text: string): void {
  if (keepers > 0) texts.set(object, text);
}

/** The text `object` was parsed from, if kept. */
export function objectText(object: object): string | undefined {
  return texts.get(object);
}

/** A transform returned `to` in place of `from`, equal to it as JSON: the text goes with it. */
export function carryObjectText(from: object, to: object): void {
  if (from === to) return;
  const text = texts.get(from);
  if (text === undefined) return;
  texts.delete(from);
  texts.set(to, text);
}

/** The object's delta is handled (or it changed): its text is no longer needed. */
export function forgetObjectText(object: object): void {
  texts.delete(object);
}
