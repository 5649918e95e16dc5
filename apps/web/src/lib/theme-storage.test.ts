import { describe, expect, it } from "vitest";
import { readStoredTheme, themeColorSchemeManager } from "./theme-storage.ts";

function memoryStorage(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  return {
    values,
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => {
      values.set(key, value);
    },
    removeItem: (key: string) => {
      values.delete(key);
    },
  };
}

describe("theme storage", () => {
  it("reads light or dark from localStorage key theme", () => {
    expect(readStoredTheme(memoryStorage({ theme: "dark" }))).toBe("dark");
    expect(readStoredTheme(memoryStorage({ theme: "light" }))).toBe("light");
    expect(readStoredTheme(memoryStorage({ theme: "auto" }))).toBeNull();
    expect(readStoredTheme(memoryStorage())).toBeNull();
  });

  it("persists the chosen theme and falls back to the default", () => {
    const storage = memoryStorage();
    const manager = themeColorSchemeManager(storage);
    expect(manager.get("light")).toBe("light");
    manager.set("dark");
    expect(storage.values.get("theme")).toBe("dark");
    expect(themeColorSchemeManager(storage).get("light")).toBe("dark");
  });

  it("stores only light or dark", () => {
    const storage = memoryStorage({ theme: "dark" });
    themeColorSchemeManager(storage).set("auto");
    expect(storage.values.get("theme")).toBe("dark");
  });

  it("clears the saved theme", () => {
    const storage = memoryStorage({ theme: "dark" });
    const manager = themeColorSchemeManager(storage);
    manager.clear();
    expect(storage.values.has("theme")).toBe(false);
    expect(manager.get("light")).toBe("light");
  });

  it("works on the real localStorage", () => {
    window.localStorage.clear();
    const manager = themeColorSchemeManager();
    manager.set("dark");
    expect(window.localStorage.getItem("theme")).toBe("dark");
    expect(readStoredTheme()).toBe("dark");
    manager.clear();
    expect(window.localStorage.getItem("theme")).toBeNull();
  });
});
