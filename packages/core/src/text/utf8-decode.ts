/** A UTF-8 decoder in plain ECMAScript: what `decodeUtf8` uses where the runtime has no `TextDecoder`. */

/** Bytes of a UTF-8 sequence led by `byte` (0 for a byte that cannot lead one). */
function sequenceLength(byte: number): number {
  if (byte < 0x80) return 1;
  if (byte >= 0xc2 && byte <= 0xdf) return 2;
  if (byte >= 0xe0 && byte <= 0xef) return 3;
  if (byte >= 0xf0 && byte <= 0xf4) return 4;
  return 0;
}

/** Lowest allowed byte after a lead byte (the rest are 0x80–0xBF): no overlongs, surrogates, > U+10FFFF. */
const secondLow = (lead: number) => (lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80);
/** Highest allowed byte after a lead byte. */
const secondHigh = (lead: number) => (lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf);

const REPLACEMENT = 0xfffd;
const CHUNK = 16_384;

/**
 * UTF-8 bytes as text, each invalid or cut-short sequence replaced by one U+FFFD: the WHATWG decoder's
 * rule, for a runtime without `TextDecoder` (every browser and Node have one, 20-50 times faster).
 */
export function decodeUtf8Portable(bytes: Uint8Array): string {
  const parts: string[] = [];
  const units = new Uint16Array(CHUNK + 2);
  let count = 0;
  let i = 0;
  const length = bytes.length;
  while (i < length) {
    if (count >= CHUNK) {
      parts.push(String.fromCharCode.apply(null, units.subarray(0, count) as unknown as number[]));
      count = 0;
    }
    const lead = bytes[i] as number;
    if (lead < 0x80) {
      units[count++] = lead;
      i++;
      continue;
    }
    const size = sequenceLength(lead);
    let codePoint = REPLACEMENT;
    let taken = 1;
    if (size > 1) {
      let value = lead & (0xff >> (size + 1));
      let low = secondLow(lead);
      let high = secondHigh(lead);
      while (taken < size) {
        const next = bytes[i + taken];
        if (next === undefined || next < low || next > high) break;
        value = (value << 6) | (next & 0x3f);
        taken++;
        low = 0x80;
        high = 0xbf;
      }
      // A sequence cut short is one replacement; the byte that cut it starts afresh.
      if (taken === size) codePoint = value;
    }
    i += taken;
    if (codePoint > 0xffff) {
      const offset = codePoint - 0x10000;
      units[count++] = 0xd800 + (offset >> 10);
      units[count++] = 0xdc00 + (offset & 0x3ff);
    } else units[count++] = codePoint;
  }
  parts.push(String.fromCharCode.apply(null, units.subarray(0, count) as unknown as number[]));
  return parts.join("");
}
