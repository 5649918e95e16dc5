import { describe, expect, it } from "vitest";
import { reasonLabel } from "./calls-for-review.tsx";

describe("a call's review reason", () => {
  it("reads a code as words", () => {
    expect(reasonLabel("agent_turn_failed")).toBe("Agent turn failed");
    expect(reasonLabel("modelTimeout")).toBe("Model timeout");
  });

  it("shows a written reason as written", () => {
    expect(reasonLabel("Call dropped mid-booking")).toBe("Call dropped mid-booking");
    expect(reasonLabel("Caller asked for a human (twice)")).toBe("Caller asked for a human (twice)");
  });
});
