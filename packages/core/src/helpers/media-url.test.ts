import { describe, expect, it } from "vitest";
import { isSafeMediaUrl } from "./media-url.ts";

describe("isSafeMediaUrl", () => {
  it("accepts https URLs and the server's own file URLs", () => {
    expect(isSafeMediaUrl("https://api.twilio.com/2010-04-01/Media/ME1")).toBe(true);
    expect(isSafeMediaUrl("HTTPS://cdn.example.com/a.png?x=1#y")).toBe(true);
    expect(isSafeMediaUrl("http://127.0.0.1:3000/files/media/a.png", "http://127.0.0.1:3000")).toBe(true);
    expect(isSafeMediaUrl("http://127.0.0.1:3000/files/media/a.png", "http://127.0.0.1:3000/")).toBe(true);
  });

  it("refuses script, data, plain http elsewhere and malformed values", () => {
    for (const url of [
      "javascript:alert(1)",
      "JavaScript:alert(document.cookie)",
      " javascript:alert(1)",
      "java\tscript:alert(1)",
      "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
      "data:image/svg+xml,<svg onload=alert(1)>",
      "vbscript:msgbox(1)",
      "http://evil.example/a.png",
      "http://127.0.0.1:3000/api/v1/logout",
      "http://127.0.0.1:3000.evil.example/files/a.png",
      "https://",
      "https:///path",
      "https://host/a b",
      "https:\\\\evil.example",
      "/files/a.png",
      "",
    ])
      expect(isSafeMediaUrl(url, "http://127.0.0.1:3000"), url).toBe(false);
  });
});
