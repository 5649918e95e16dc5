/** The image types a profile picture may have, recognised by their first bytes (never by name or header). */
export type ImageType = { extension: "png" | "jpg" | "webp" | "gif"; contentType: string };

const startsWith = (data: Uint8Array, bytes: readonly number[], at = 0) =>
  data.length >= at + bytes.length && bytes.every((byte, i) => data[at + i] === byte);

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

export function detectImageType(data: Uint8Array): ImageType | null {
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { extension: "png", contentType: "image/png" };
  if (startsWith(data, [0xff, 0xd8, 0xff])) return { extension: "jpg", contentType: "image/jpeg" };
  if (startsWith(data, ascii("GIF87a")) || startsWith(data, ascii("GIF89a")))
    return { extension: "gif", contentType: "image/gif" };
  if (startsWith(data, ascii("RIFF")) && startsWith(data, ascii("WEBP"), 8))
    return { extension: "webp", contentType: "image/webp" };
  return null;
}
