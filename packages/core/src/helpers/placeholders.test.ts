import { describe, expect, it } from "vitest";
import { fillVariables, variableValue } from "./placeholders.ts";

const values = { clinicName: "Bluebird Dental", hours: "Mon-Fri 8am-5pm", name: "Pat", first_name: "P" };

describe("fillVariables", () => {
  it("fills keys without case and trimmed", () => {
    expect(fillVariables("Hi {Name}, {first_name} { name }.", values)).toBe("Hi Pat, P Pat.");
    expect(fillVariables("Thank you for calling {clinicName}, how can I help?", values)).toBe(
      "Thank you for calling Bluebird Dental, how can I help?",
    );
  });

  it("never shows a variable without a value: its clause goes, else its sentence", () => {
    expect(fillVariables("Thank you for calling {clinicName}, how can I help you today?", {})).toBe(
      "How can I help you today?",
    );
    expect(fillVariables("Hi, you've reached {companyName}. Are you calling about a roof?", {})).toBe(
      "Hi. Are you calling about a roof?",
    );
    expect(fillVariables("Hello, {restaurantName}, would you like to book a table?", {})).toBe(
      "Hello, would you like to book a table?",
    );
    expect(fillVariables("Opening hours: {hours}. Parking: {parking}. Be kind.", values)).toBe(
      "Opening hours: Mon-Fri 8am-5pm. Be kind.",
    );
    expect(fillVariables("You work for {clinicName}, a practice at {address}.", values)).toBe(
      "You work for Bluebird Dental.",
    );
    expect(fillVariables("Hi {name}!", {})).toBe("");
    // What is left would lean on the missing part: the sentence goes.
    expect(fillVariables("If it is urgent, transfer the call to {number}. Be kind.", {})).toBe("Be kind.");
    expect(fillVariables("For pain, swelling or a broken tooth, call {number}.", {})).toBe("");
    expect(fillVariables("Hi {name}, empty values count as none.", { name: "  " })).toBe(
      "Empty values count as none.",
    );
  });

  it("drops a line left empty and keeps the others as written", () => {
    expect(fillVariables("You answer for {clinicName}.\n\n{faq}\nKeep answers short.", values)).toBe(
      "You answer for Bluebird Dental.\n\nKeep answers short.",
    );
    expect(fillVariables("  - Parking: {parking}\n  - Hours: {hours}", values)).toBe(
      "  - Hours: Mon-Fri 8am-5pm",
    );
    // A value is put in as it is, even across lines.
    expect(fillVariables("Questions:\n{faq}", { faq: "Q: Kids?\nA: Yes." })).toBe(
      "Questions:\nQ: Kids?\nA: Yes.",
    );
  });

  it("reads periods inside numbers, braces and values as no sentence end", () => {
    expect(fillVariables("Prices start at $1.50 per {unit}. Ask {who}.", { unit: "min" })).toBe(
      "Prices start at $1.50 per min.",
    );
  });

  it("leaves text that is no variable alone", () => {
    expect(fillVariables('Send JSON like {"a": 1} or {}.', {})).toBe('Send JSON like {"a": 1} or {}.');
  });

  it("keeps a missing variable as written when asked (text its owner still edits)", () => {
    expect(fillVariables("You work for {clinicName} at {address}.", values, { keepMissing: true })).toBe(
      "You work for Bluebird Dental at {address}.",
    );
  });
});

describe("variableValue", () => {
  it("finds a key exactly, then without case; empty is no value", () => {
    expect(variableValue({ About: "your visit" }, "about")).toBe("your visit");
    expect(variableValue({ about: " " }, "about")).toBeUndefined();
  });
});
