import { describe, expect, it } from "vitest";
import { luhnValid, REDACTION_OFF, redactDeep, redactionSettingsOf, redactText } from "./redaction.ts";

const ALL = redactionSettingsOf({
  cardNumbers: true,
  ssn: true,
  datesOfBirth: true,
  emails: true,
  phoneNumbers: true,
});

describe("redactText", () => {
  it("replaces a Luhn-valid card number, written or spoken, and leaves one that fails the check", () => {
    expect(redactText("My card is 4111 1111 1111 1111, expiry soon.", ALL)).toBe(
      "My card is [card number], expiry soon.",
    );
    expect(redactText("card 4111-1111-1111-1111", ALL)).toBe("card [card number]");
    expect(redactText("four one one one one one one one one one one one one one one one please", ALL)).toBe(
      "[card number] please",
    );
    // 16 digits that fail Luhn are no card number: but they are too long for a phone number too.
    expect(redactText("order 4111 1111 1111 1112", { ...ALL, phoneNumbers: false })).toBe(
      "order 4111 1111 1111 1112",
    );
    expect(luhnValid("4111111111111111")).toBe(true);
    expect(luhnValid("4111111111111112")).toBe(false);
  });

  it("replaces social security numbers grouped 3-2-4 or said after 'social security'", () => {
    expect(redactText("It is 123-45-6789.", ALL)).toBe("It is [social security number].");
    expect(redactText("my social security number is 123456789", ALL)).toBe(
      "my social security number is [social security number]",
    );
  });

  it("replaces a date only after words about birth, so appointment dates stay", () => {
    expect(redactText("I was born on March 3rd, 1985.", ALL)).toBe("I was born on [date of birth].");
    expect(redactText("Date of birth 03/04/1985", ALL)).toBe("Date of birth [date of birth]");
    expect(redactText("Book me for March 3rd at 10am", ALL)).toBe("Book me for March 3rd at 10am");
  });

  it("replaces e-mail addresses, typed or spoken, and phone numbers", () => {
    expect(redactText("Write to jane.doe@example.com today", ALL)).toBe("Write to [email address] today");
    expect(redactText("it's jane at example dot com", ALL)).toBe("it's [email address]");
    expect(redactText("Call me on (555) 123-4567 or +1 555 987 6543.", ALL)).toBe(
      "Call me on [phone number] or [phone number].",
    );
    expect(redactText("The time is 2026-05-12T10:00, room 12.", ALL)).toBe(
      "The time is 2026-05-12T10:00, room 12.",
    );
  });

  it("changes nothing for a kind that is off", () => {
    const text = "4111 1111 1111 1111 and jane@example.com";
    expect(redactText(text, REDACTION_OFF)).toBe(text);
    expect(redactText(text, { ...REDACTION_OFF, emails: true })).toBe(
      "4111 1111 1111 1111 and [email address]",
    );
  });
});

describe("redactDeep", () => {
  it("redacts every string but identifiers and file addresses", () => {
    const value = {
      text: "card 4111111111111111",
      callId: "4111111111111111",
      recordingUrl: "/files/recordings/5551234567.wav",
      nested: [{ phone: "555 123 4567" }],
      n: 5,
    };
    expect(redactDeep(value, ALL)).toEqual({
      text: "card [card number]",
      callId: "4111111111111111",
      recordingUrl: "/files/recordings/5551234567.wav",
      nested: [{ phone: "[phone number]" }],
      n: 5,
    });
    const clean = { text: "nothing here" };
    expect(redactDeep(clean, ALL)).toBe(clean);
  });
});
