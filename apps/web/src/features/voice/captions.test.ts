import { describe, expect, it } from "vitest";
import { addCaption, type Caption } from "./captions.ts";

describe("live captions", () => {
  it("grows the agent's open caption, closes it when final, and appends caller turns", () => {
    let captions: Caption[] = [];
    let id = 0;
    const add = (role: "caller" | "agent", text: string, final: boolean) => {
      captions = addCaption(captions, { role, text, final }, ++id);
    };
    add("agent", "Hello.", false);
    add("agent", "Hello. How can I help?", false);
    add("agent", "Hello. How can I help?", true);
    add("caller", "do you see children", true);
    add("agent", "Yes.", false);
    expect(captions.map((c) => [c.role, c.text, c.final])).toEqual([
      ["agent", "Hello. How can I help?", true],
      ["caller", "do you see children", true],
      ["agent", "Yes.", false],
    ]);
    // Cut before a word was heard (barge-in): the open caption goes away.
    add("agent", "", true);
    expect(captions.map((c) => c.text)).toEqual(["Hello. How can I help?", "do you see children"]);
    add("agent", "Sure.", false);
    add("agent", "Sure", true);
    expect(captions.at(-1)).toMatchObject({ role: "agent", text: "Sure", final: true });
  });
});
