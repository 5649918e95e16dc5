import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, unlink, writeFile } from "node:fs/promises";
import path from "node:path";

/** A stored file: its key (`avatars/12-9f3c....png`) and the URL it is served at. */
export type StoredFile = { key: string; url: string };

/**
 * Where uploaded files live (avatars now; media, recordings, documents later). The default keeps them in a
 * local folder served read-only at /files/...; an S3-compatible implementation can replace it by config.
 */
export type StorageProvider = {
  kind: "local";
  put(folder: string, extension: string, data: Buffer, contentType: string): Promise<StoredFile>;
  /** The bytes and type of a key, or null when there is no such file. */
  get(key: string): Promise<{ data: Buffer; contentType: string } | null>;
  delete(key: string): Promise<void>;
  /** The key of a URL this provider handed out, or null for any other URL. */
  keyOf(url: string): string | null;
};

/** Keys are `folder/name.ext` of safe characters: no traversal, no hidden files. */
const KEY = /^[a-z0-9-]+(?:\/[a-z0-9-]+)*\/[a-z0-9-]+\.[a-z0-9]{1,5}$/;

export function isStorageKey(key: string): boolean {
  return KEY.test(key);
}

const CONTENT_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  wav: "audio/wav",
};

export function contentTypeOf(key: string): string {
  return CONTENT_TYPES[key.slice(key.lastIndexOf(".") + 1)] ?? "application/octet-stream";
}

/** Files in `root` (DATA_DIR/files), served by the app at `${publicUrl}/files/<key>`. */
export function localStorageProvider(root: string, publicUrl: string): StorageProvider {
  const prefix = `${publicUrl}/files/`;
  const fileOf = (key: string) => {
    if (!isStorageKey(key)) throw new Error(`not a storage key: ${key}`);
    return path.join(root, ...key.split("/"));
  };
  return {
    kind: "local",
    async put(folder, extension, data) {
      const key = `${folder}/${randomBytes(12).toString("hex")}.${extension}`;
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Written aside and renamed: a reader never sees half a file.
      const partial = `${file}.${process.pid}.partial`;
      await writeFile(partial, data);
      await rename(partial, file);
      return { key, url: `${prefix}${key}` };
    },
    async get(key) {
      if (!isStorageKey(key)) return null;
      try {
        return { data: await readFile(fileOf(key)), contentType: contentTypeOf(key) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async delete(key) {
      await unlink(fileOf(key)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw error;
      });
    },
    keyOf(url) {
      if (!url.startsWith(prefix)) return null;
      const key = url.slice(prefix.length);
      return isStorageKey(key) ? key : null;
    },
  };
}
