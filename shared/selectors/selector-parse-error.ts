/**
 * A label or field selector that cannot be parsed or validated. `position` and `length` locate the
 * offending text in the input (UTF-16 offsets, as String.prototype.slice takes them) so a filter bar can
 * underline it; at the end of the input `position` is the input's length and `length` is 0.
 */
export class SelectorParseError extends Error {
  override readonly name = 'SelectorParseError';
  constructor(
    message: string,
    readonly position: number,
    readonly length: number,
  ) {
    super(message);
  }
}
