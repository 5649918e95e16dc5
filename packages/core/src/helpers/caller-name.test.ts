import { describe, expect, it } from "vitest";
import { isPersonName, PLACEHOLDER_CALLER_NAMES, US_STATE_CODES } from "./caller-name.ts";

describe("isPersonName", () => {
  it.each(["John Smith", "JOHN SMITH", "Maria", "Al", "José Álvarez", "Mary  Jane Watson", "  Ann Lee  "])(
    "%j is a person name",
    (name) => {
      expect(isPersonName(name)).toBe(true);
    },
  );

  it.each([
    "",
    "   ",
    "John3",
    "O'Brien",
    "Mary-Jane",
    "J. Smith",
    "+15551234567",
    "WIRELESS CALLER",
    "Unknown",
    "restricted",
    "UNAVAILABLE",
    "Out Of Area",
    "anonymous",
    "PRIVATE",
    "Blocked",
    "SPAM",
    "Scam Likely",
    "TOLL FREE",
    "toll free call",
    "SEATTLE WA",
    "Springfield il",
    "WASHINGTON DC",
  ])("%j is not", (name) => {
    expect(isPersonName(name)).toBe(false);
  });

  it("knows all 50 states and DC", () => {
    expect(new Set(US_STATE_CODES).size).toBe(51);
    for (const code of US_STATE_CODES) expect(isPersonName(`Some Town ${code}`)).toBe(false);
  });

  it("rejects every placeholder in any case", () => {
    for (const placeholder of PLACEHOLDER_CALLER_NAMES) {
      expect(isPersonName(placeholder)).toBe(false);
      expect(isPersonName(placeholder.toUpperCase())).toBe(false);
    }
  });

  it("handles missing values", () => {
    expect(isPersonName(null)).toBe(false);
    expect(isPersonName(undefined)).toBe(false);
  });
});
