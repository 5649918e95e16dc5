import { deflateSync } from "node:zlib";

/**
 * The Open Graph card of a public page as a PNG (issue 32 item 18: the big networks do not render SVG
 * previews), drawn without a browser or an image library: a flat background, a white disc with the name's
 * initial and the name below it, in a 5×7 bitmap font scaled up, then encoded with node:zlib.
 */

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

type Rgb = readonly [number, number, number];
const BACKGROUND: Rgb = [0x18, 0x64, 0xab];
const WHITE: Rgb = [0xff, 0xff, 0xff];

/** 5×7 glyphs, one string of five 0/1 per row. Letters are drawn in capitals. */
const GLYPHS: Record<string, string> = {
  A: "01110 10001 10001 11111 10001 10001 10001",
  B: "11110 10001 10001 11110 10001 10001 11110",
  C: "01110 10001 10000 10000 10000 10001 01110",
  D: "11100 10010 10001 10001 10001 10010 11100",
  E: "11111 10000 10000 11110 10000 10000 11111",
  F: "11111 10000 10000 11110 10000 10000 10000",
  G: "01110 10001 10000 10111 10001 10001 01111",
  H: "10001 10001 10001 11111 10001 10001 10001",
  I: "01110 00100 00100 00100 00100 00100 01110",
  J: "00111 00010 00010 00010 00010 10010 01100",
  K: "10001 10010 10100 11000 10100 10010 10001",
  L: "10000 10000 10000 10000 10000 10000 11111",
  M: "10001 11011 10101 10101 10001 10001 10001",
  N: "10001 10001 11001 10101 10011 10001 10001",
  O: "01110 10001 10001 10001 10001 10001 01110",
  P: "11110 10001 10001 11110 10000 10000 10000",
  Q: "01110 10001 10001 10001 10101 10010 01101",
  R: "11110 10001 10001 11110 10100 10010 10001",
  S: "01111 10000 10000 01110 00001 00001 11110",
  T: "11111 00100 00100 00100 00100 00100 00100",
  U: "10001 10001 10001 10001 10001 10001 01110",
  V: "10001 10001 10001 10001 10001 01010 00100",
  W: "10001 10001 10001 10101 10101 10101 01010",
  X: "10001 10001 01010 00100 01010 10001 10001",
  Y: "10001 10001 01010 00100 00100 00100 00100",
  Z: "11111 00001 00010 00100 01000 10000 11111",
  "0": "01110 10001 10011 10101 11001 10001 01110",
  "1": "00100 01100 00100 00100 00100 00100 01110",
  "2": "01110 10001 00001 00010 00100 01000 11111",
  "3": "11111 00010 00100 00010 00001 10001 01110",
  "4": "00010 00110 01010 10010 11111 00010 00010",
  "5": "11111 10000 11110 00001 00001 10001 01110",
  "6": "00110 01000 10000 11110 10001 10001 01110",
  "7": "11111 00001 00010 00100 01000 01000 01000",
  "8": "01110 10001 10001 01110 10001 10001 01110",
  "9": "01110 10001 10001 01111 00001 00010 01100",
  " ": "00000 00000 00000 00000 00000 00000 00000",
  "-": "00000 00000 00000 11111 00000 00000 00000",
  ".": "00000 00000 00000 00000 00000 01100 01100",
  ",": "00000 00000 00000 00000 01100 00100 01000",
  "&": "01100 10010 10100 01000 10101 10010 01101",
  "'": "01100 00100 01000 00000 00000 00000 00000",
  "!": "00100 00100 00100 00100 00100 00000 00100",
  "?": "01110 10001 00001 00010 00100 00000 00100",
  ":": "00000 01100 01100 00000 01100 01100 00000",
  "/": "00000 00001 00010 00100 01000 10000 00000",
  "(": "00010 00100 01000 01000 01000 00100 00010",
  ")": "01000 00100 00010 00010 00010 00100 01000",
  "+": "00000 00100 00100 11111 00100 00100 00000",
  "@": "01110 10001 00001 01101 10101 10101 01110",
  "#": "01010 01010 11111 01010 11111 01010 01010",
};

/** The characters the font draws: capitals, accents dropped, anything else a space. */
export function cardText(name: string): string {
  return name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toUpperCase()
    .split("")
    .map((char) => (GLYPHS[char] ? char : " "))
    .join("")
    .replace(/\s+/g, " ")
    .trim();
}

class Canvas {
  readonly pixels: Uint8Array;
  constructor(
    readonly width: number,
    readonly height: number,
    fill: Rgb,
  ) {
    this.pixels = new Uint8Array(width * height * 3);
    for (let i = 0; i < width * height; i++) this.pixels.set(fill, i * 3);
  }

  rect(x: number, y: number, w: number, h: number, color: Rgb) {
    const x0 = Math.max(0, Math.floor(x));
    const y0 = Math.max(0, Math.floor(y));
    const x1 = Math.min(this.width, Math.floor(x + w));
    const y1 = Math.min(this.height, Math.floor(y + h));
    for (let row = y0; row < y1; row++)
      for (let col = x0; col < x1; col++) this.pixels.set(color, (row * this.width + col) * 3);
  }

  disc(cx: number, cy: number, r: number, color: Rgb) {
    for (let row = Math.max(0, cy - r); row <= Math.min(this.height - 1, cy + r); row++) {
      const half = Math.floor(Math.sqrt(r * r - (row - cy) * (row - cy)));
      this.rect(cx - half, row, half * 2 + 1, 1, color);
    }
  }

  /** Text centred on `cx`, its top at `y`, each font pixel `scale` pixels square. */
  text(text: string, cx: number, y: number, scale: number, color: Rgb) {
    const advance = 6 * scale;
    let x = Math.round(cx - (text.length * advance - scale) / 2);
    for (const char of text) {
      const rows = (GLYPHS[char] ?? GLYPHS[" "] ?? "").split(" ");
      rows.forEach((bits, row) => {
        for (let col = 0; col < 5; col++)
          if (bits[col] === "1") this.rect(x + col * scale, y + row * scale, scale, scale, color);
      });
      x += advance;
    }
  }
}

/** Splits the name into at most two lines of at most `perLine` characters (a longer name is cut with …). */
function lines(text: string, perLine: number): string[] {
  const words = text.split(" ");
  const out: string[] = [];
  let line = "";
  for (const word of words) {
    const next = line ? `${line} ${word}` : word;
    if (next.length <= perLine) line = next;
    else {
      if (line) out.push(line);
      line = word.length <= perLine ? word : word.slice(0, perLine);
    }
  }
  if (line) out.push(line);
  if (out.length <= 2) return out;
  const second = `${out[1]} ${out.slice(2).join(" ")}`;
  return [out[0] as string, `${second.slice(0, perLine - 3).trimEnd()}...`];
}

/** The card's pixels (RGB, row by row). */
export function drawCard(name: string): Canvas {
  const canvas = new Canvas(CARD_WIDTH, CARD_HEIGHT, BACKGROUND);
  const text = cardText(name) || "?";
  canvas.disc(600, 220, 120, WHITE);
  const initial = text.charAt(0) === " " ? "?" : text.charAt(0);
  canvas.text(initial, 600, 220 - 70, 20, BACKGROUND);
  // The largest scale at which the name fits in two lines across the card, less a margin.
  const usable = CARD_WIDTH - 160;
  let scale = 11;
  let wrapped = lines(text, Math.floor(usable / (6 * scale)));
  while (scale > 5 && (wrapped.length > 2 || text.length > Math.floor(usable / (6 * scale)) * 2)) {
    scale -= 1;
    wrapped = lines(text, Math.floor(usable / (6 * scale)));
  }
  const lineHeight = 10 * scale;
  const top = 390 + (wrapped.length === 1 ? lineHeight / 2 : 0);
  wrapped.forEach((line, index) => {
    canvas.text(line, 600, Math.round(top + index * lineHeight), scale, WHITE);
  });
  return canvas;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "latin1");
  Buffer.from(data.buffer, data.byteOffset, data.byteLength).copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A truecolour 8-bit PNG of RGB pixels (filter 0 on every row). */
export function encodePng(width: number, height: number, rgb: Uint8Array): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: truecolour
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let row = 0; row < height; row++) {
    raw[row * (width * 3 + 1)] = 0;
    Buffer.from(rgb.buffer, rgb.byteOffset + row * width * 3, width * 3).copy(raw, row * (width * 3 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", new Uint8Array(0)),
  ]);
}

/** The PNG card of a page named `name` (1200×630, as Open Graph and X summary_large_image want). */
export function renderCardPng(name: string): Buffer {
  const canvas = drawCard(name);
  return encodePng(canvas.width, canvas.height, canvas.pixels);
}
