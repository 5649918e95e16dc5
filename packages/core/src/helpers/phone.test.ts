import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatPhoneNumber, isUsNumber } from "./phone.ts";

describe("formatPhoneNumber", () => {
  it.each([
    ["15551234567", "+1 (555) 123-4567"],
    ["+15551234567", "+1 (555) 123-4567"],
    ["1-555-123-4567", "+1 (555) 123-4567"],
    ["+1 (555) 123-4567", "+1 (555) 123-4567"],
  ])("shows the 11-digit number %s as %s", (input, shown) => {
    expect(formatPhoneNumber(input)).toBe(shown);
  });

  it.each([
    "5551234567",
    "155512345678",
    "",
    "agent@example.com",
    "sip:15551234567@example.com",
    "call me 15551234567",
  ])("leaves %j untouched", (input) => {
    expect(formatPhoneNumber(input)).toBe(input);
  });

  it("formats every 11-digit US number into the +1 (xxx) xxx-xxxx shape", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^1\d{10}$/), (digits) => {
        const shown = formatPhoneNumber(digits);
        expect(shown).toMatch(/^\+1 \(\d{3}\) \d{3}-\d{4}$/);
        expect(shown.replace(/\D/g, "")).toBe(digits);
      }),
    );
  });
});

describe("isUsNumber", () => {
  it.each([
    ["15551234567", true],
    ["+1 (555) 123-4567", true],
    ["25551234567", false],
    ["5551234567", false],
    ["155512345678", false],
    ["1555123456a", false],
    ["", false],
  ])("%j -> %s", (input, expected) => {
    expect(isUsNumber(input)).toBe(expected);
  });
});
