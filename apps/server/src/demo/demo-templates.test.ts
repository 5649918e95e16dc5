import { fillVariables } from "@switchboard/core";
import { describe, expect, it } from "vitest";
import { DEMO_TEMPLATES } from "./demo-templates.ts";

/** Issue 32 item 7: a template says only what its owner filled in. */
describe("the built-in templates", () => {
  const texts = DEMO_TEMPLATES.map((template) => {
    const body = template.body as { agentInstructions: string; greeting: string | null };
    return { name: template.name, instructions: body.agentInstructions, greeting: body.greeting ?? "" };
  });

  it.each(texts)("$name states no fact of its own: no numbers, prices or answers", (text) => {
    for (const words of [text.instructions, text.greeting]) {
      const own = words.replace(/\{[^{}]*\}/g, "");
      expect(own).not.toMatch(/\d/);
      expect(own).not.toMatch(/^\s*[QA]:/m);
    }
  });

  it.each(texts)("$name greets the same at any hour", (text) => {
    expect(text.greeting).not.toMatch(/good (morning|afternoon|evening|night)/i);
  });

  it("the restaurant template invents nothing about its menu or guests", () => {
    const restaurant = texts.find((text) => text.name === "Restaurant reservations");
    expect(restaurant?.instructions).not.toMatch(/vegetarian|vegan|dog|terrace/i);
  });

  it.each(texts)("$name shows no {variable} even when the owner filled in nothing", (text) => {
    expect(fillVariables(text.instructions, {})).not.toContain("{");
    expect(fillVariables(text.greeting, {})).not.toContain("{");
  });
});
