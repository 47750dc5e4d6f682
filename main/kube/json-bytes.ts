// The bytes of JSON's structure, for the decoders that walk a reply's bytes without parsing them
// (list-reply-decoder.ts, managed-fields-cut.ts), and the same char codes in a decoded line's text
// (event-object-text.ts).
export const quote = 0x22;
export const backslash = 0x5c;
export const openBrace = 0x7b;
export const closeBrace = 0x7d;
export const openBracket = 0x5b;
export const closeBracket = 0x5d;
export const comma = 0x2c;
export const colon = 0x3a;
