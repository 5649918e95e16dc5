import { describe, expect, it } from "vitest";
import { normalizeUrl } from "./url.ts";

describe("normalizeUrl", () => {
  it.each([
    ["example.com", "https://example.com"],
    ["http://example.com", "https://example.com"],
    ["https://example.com/path?q=1", "https://example.com/path?q=1"],
    ["https://http://example.com", "https://example.com"],
    ["https://https://https://example.com", "https://example.com"],
    ["HTTP://Example.com", "https://Example.com"],
    ["  example.com/a  ", "https://example.com/a"],
    ["ftp://files.example.com", "https://files.example.com"],
    ["localhost:3000", "https://localhost:3000"],
    ["", ""],
    ["   ", ""],
  ])("%j -> %j", (input, expected) => {
    expect(normalizeUrl(input)).toBe(expected);
  });

  it("is idempotent", () => {
    const once = normalizeUrl("http://https://example.com");
    expect(normalizeUrl(once)).toBe(once);
  });
});
