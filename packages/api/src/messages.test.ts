import { describe, expect, it } from "vitest";
import { MESSAGE_CATALOGUE, messageCodeOf, messageOf } from "./messages.ts";
import { AGENT_MESSAGES } from "./routes/agents.ts";

describe("the message catalogue", () => {
  it("names each catalogued message by its area and key, and finds the text by its code", () => {
    expect(messageCodeOf(AGENT_MESSAGES.notPublished)).toBe("agents.notPublished");
    expect(messageOf("agents.notPublished")).toBe("This agent has not been published yet.");
    expect(messageCodeOf("Some text nobody catalogued")).toBeUndefined();
  });

  it("gives every message text one area's code (a text shared by two areas keeps its first)", () => {
    const seen = new Map<string, string>();
    for (const [area, messages] of Object.entries(MESSAGE_CATALOGUE)) {
      for (const [key, text] of Object.entries(messages)) {
        if (typeof text !== "string") continue;
        const code = `${area}.${key}`;
        if (!seen.has(text)) seen.set(text, code);
        expect(messageCodeOf(text)).toBe(seen.get(text));
      }
    }
    expect(seen.size).toBeGreaterThan(40);
  });
});
