import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatPhoneNumber, isUsNumber, normalizeAddress, normalizePhoneNumber } from "./phone.ts";

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

describe("normalizePhoneNumber", () => {
  it.each([
    // North American numbers as people type them (sign-in, accounts, inbox, contacts)
    ["(415) 555-0101", "+14155550101"],
    ["415-555-0101", "+14155550101"],
    ["+1 415 555 0101", "+14155550101"],
    ["4155550101", "+14155550101"],
    ["503.555.0199", "+15035550199"],
    ["1-503-555-0199", "+15035550199"],
    ["15035550199", "+15035550199"],
    ["  +15035550199 ", "+15035550199"],
    // fictional numbers are possible, if not assigned
    ["(555) 010-2000", "+15550102000"],
    ["+15551234567", "+15551234567"],
    // other countries: with +, with 00 or 011, or digits typed without the +
    ["+44 20 7946 0958", "+442079460958"],
    ["0044 20 7946 0958", "+442079460958"],
    ["011 44 20 7946 0958", "+442079460958"],
    ["442079460958", "+442079460958"],
    ["+61 2 9374 4000", "+61293744000"],
  ])("reads %j as %s", (input, stored) => {
    expect(normalizePhoneNumber(input)).toBe(stored);
  });

  it.each([
    "",
    "+",
    "911",
    "555-1234",
    "12345678",
    "+1234567",
    "+99912345678",
    "+1 503 555 0199 0",
    "1 800 FLOWERS",
    "(503) 555-0199 ext 5",
    "call me at 5035550199",
    "maria@example.com",
  ])("refuses %j", (input) => {
    expect(normalizePhoneNumber(input)).toBeNull();
  });

  it("keeps every North American number however it is punctuated", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[2-9]\d{9}$/), fc.constantFrom("", "1", "+1"), (digits, prefix) => {
        const typed = `${prefix} (${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
        expect(normalizePhoneNumber(typed)).toBe(`+1${digits}`);
      }),
    );
  });

  it("is idempotent", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\+?[\d ().-]{0,20}$/), (typed) => {
        const once = normalizePhoneNumber(typed);
        if (once !== null) expect(normalizePhoneNumber(once)).toBe(once);
      }),
    );
  });
});

describe("normalizeAddress", () => {
  it.each([
    ["(503) 555-0199", { address: "+15035550199", kind: "phone" }],
    [" Maria@Example.COM ", { address: "maria@example.com", kind: "email" }],
    ["maria@example", null],
    ["not a number", null],
  ])("%j -> %j", (input, expected) => {
    expect(normalizeAddress(input)).toEqual(expected);
  });
});
