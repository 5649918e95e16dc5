import { describe, expect, it } from "vitest";
import { checkAvatarFile } from "./edit-avatar-overlay.tsx";

describe("checkAvatarFile", () => {
  it("accepts PNG, JPEG, WebP and GIF up to 2 MB", () => {
    expect(checkAvatarFile({ type: "image/png", size: 1000 })).toBeNull();
    expect(checkAvatarFile({ type: "image/webp", size: 2 * 1024 * 1024 })).toBeNull();
  });

  it("refuses other types and larger files", () => {
    expect(checkAvatarFile({ type: "image/svg+xml", size: 10 })).toBe(
      "The image must be a PNG, JPEG, WebP or GIF file.",
    );
    expect(checkAvatarFile({ type: "image/jpeg", size: 2 * 1024 * 1024 + 1 })).toBe(
      "The image is larger than 2 MB.",
    );
  });
});
