/**
 * Encodes a string as UTF-8 bytes, like `TextEncoder` but written out so the kernel does not depend on a global
 * that the workflow sandbox may or may not provide. Lone surrogates become U+FFFD, as `TextEncoder` does, so the
 * bytes (and any hash over them) match what Node would compute.
 */
export function utf8Bytes(text: string): Uint8Array {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const point = codePointAt(text, i);
    if (point > 0xffff) i++; // the low surrogate was consumed with the high one
    pushUtf8(bytes, point);
  }
  return Uint8Array.from(bytes);
}

const REPLACEMENT = 0xfffd;

/** The code point starting at `i`, pairing surrogates and replacing lone ones. */
function codePointAt(text: string, i: number): number {
  const unit = text.charCodeAt(i);
  if (unit < 0xd800 || unit > 0xdfff) return unit;
  if (unit >= 0xdc00) return REPLACEMENT; // a low surrogate with no high one before it
  const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
  if (next < 0xdc00 || next > 0xdfff) return REPLACEMENT;
  return 0x10000 + ((unit - 0xd800) << 10) + (next - 0xdc00);
}

function pushUtf8(bytes: number[], point: number): void {
  if (point < 0x80) {
    bytes.push(point);
  } else if (point < 0x800) {
    bytes.push(0xc0 | (point >> 6), 0x80 | (point & 0x3f));
  } else if (point < 0x10000) {
    bytes.push(0xe0 | (point >> 12), 0x80 | ((point >> 6) & 0x3f), 0x80 | (point & 0x3f));
  } else {
    bytes.push(
      0xf0 | (point >> 18),
      0x80 | ((point >> 12) & 0x3f),
      0x80 | ((point >> 6) & 0x3f),
      0x80 | (point & 0x3f),
    );
  }
}
