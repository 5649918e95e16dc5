import { describe, expect, it } from "vitest";
import { detectMobileApp, MOBILE_APP_SESSION_KEY, NO_MOBILE_APP } from "./mobile-app.ts";

function memoryStorage(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  return {
    values,
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => {
      values.set(key, value);
    },
  };
}

describe("detectMobileApp", () => {
  it("finds nothing in a plain browser", () => {
    const storage = memoryStorage();
    expect(detectMobileApp("", storage)).toEqual(NO_MOBILE_APP);
    expect(storage.values.size).toBe(0);
  });

  it("reads every flag of the query", () => {
    const info = detectMobileApp(
      "?mobileApp=true&genericBrand=true&appVersion=2.4.1&platform=iOS",
      memoryStorage(),
    );
    expect(info).toEqual({ isMobileApp: true, genericBrand: true, appVersion: "2.4.1", platform: "iOS" });
  });

  it("accepts Android and iOS only, in any case", () => {
    expect(detectMobileApp("?platform=android", memoryStorage()).platform).toBe("Android");
    expect(detectMobileApp("?platform=IOS", memoryStorage()).platform).toBe("iOS");
    expect(detectMobileApp("?platform=windows", memoryStorage()).platform).toBeNull();
  });

  it("needs the value true for the boolean flags", () => {
    expect(detectMobileApp("?mobileApp=1&genericBrand=yes", memoryStorage())).toEqual(NO_MOBILE_APP);
  });

  it("keeps the flags for the session after the query is gone", () => {
    const storage = memoryStorage();
    detectMobileApp("?mobileApp=true&platform=Android&appVersion=1.0", storage);
    expect(storage.values.has(MOBILE_APP_SESSION_KEY)).toBe(true);
    expect(detectMobileApp("", storage)).toEqual({
      isMobileApp: true,
      genericBrand: false,
      appVersion: "1.0",
      platform: "Android",
    });
  });

  it("merges later flags into the session", () => {
    const storage = memoryStorage();
    detectMobileApp("?mobileApp=true", storage);
    const info = detectMobileApp("?appVersion=3.0", storage);
    expect(info).toMatchObject({ isMobileApp: true, appVersion: "3.0" });
  });

  it("survives unreadable or missing storage", () => {
    expect(detectMobileApp("", memoryStorage({ [MOBILE_APP_SESSION_KEY]: "{not json" }))).toEqual(
      NO_MOBILE_APP,
    );
    expect(detectMobileApp("?mobileApp=true", undefined).isMobileApp).toBe(true);
    const throwing = {
      getItem: () => {
        throw new Error("blocked");
      },
      setItem: () => {
        throw new Error("blocked");
      },
    };
    expect(detectMobileApp("?mobileApp=true", throwing).isMobileApp).toBe(true);
  });
});
