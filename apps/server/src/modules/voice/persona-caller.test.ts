import { describe, expect, it } from "vitest";
import { sandboxPersonaCaller } from "./persona-caller.ts";

describe("the sandbox's persona caller", () => {
  it("says what the persona wants, answers the agent's questions from it, and says goodbye", async () => {
    const caller = sandboxPersonaCaller(
      "Ann Lee, a new patient, wants to book a cleaning on Tuesday at 10am. Her number is +1 503 555 0142.",
    );
    expect(await caller("Thanks for calling Bluebird Dental.")).toBe(
      "Hi, I'd like to book a cleaning on Tuesday at 10am.",
    );
    expect(await caller("Sure. What's your name?")).toBe("It's Ann Lee.");
    expect(await caller("Which day works for you?")).toBe("Tuesday at 10am, please.");
    expect(await caller("What number can we reach you at?")).toBe("It's +1 503 555 0142.");
    expect(await caller("You're booked for Tuesday at 10am. Is there anything else?")).toBe(
      "No, that's all. Thank you, goodbye.",
    );
    expect(await caller("Goodbye!")).toBeNull();
  });

  it("asks in its own words, says a quoted line as it is, and leaves once the agent is done", async () => {
    const asking = sandboxPersonaCaller("A new patient asking what a cleaning costs.");
    expect(await asking("Hello!")).toBe("Hi, I'd like to know what a cleaning costs.");
    expect(await asking("A cleaning is quoted at the front desk.")).toBe("Okay, thank you. Goodbye.");
    expect(await asking("Bye.")).toBeNull();

    const quoting = sandboxPersonaCaller(
      'An angry customer who says "I want to speak to a person right now".',
    );
    expect(await quoting("Hello!")).toBe("I want to speak to a person right now");
    // A question it has no fact for: it agrees rather than invent one; a name it does not have, it keeps.
    expect(await quoting("Shall I transfer you?")).toBe("Yes, please.");
    expect(await quoting("May I have your name?")).toBe("I'd rather not say.");
  });

  it("never talks forever: at most eight lines, the last a goodbye", async () => {
    const caller = sandboxPersonaCaller("Someone who needs help.");
    const lines: (string | null)[] = [];
    for (let turn = 0; turn < 12; turn++) lines.push(await caller("Could you tell me more?"));
    expect(lines.filter((line) => line !== null)).toHaveLength(8);
    expect(lines[7]).toBe("No, that's all. Thank you, goodbye.");
    expect(lines[8]).toBeNull();
  });
});
