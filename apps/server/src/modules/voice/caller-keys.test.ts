import { describe, expect, it } from "vitest";
import { createCallerKeys } from "./caller-keys.ts";

/** The keys stage without a transport: digits in, turns and keypad entries out. */

function keys() {
  const events: string[] = [];
  const call = {
    finished: false,
    closing: false,
    unexpected(error: unknown): void {
      throw error;
    },
  };
  const stage = createCallerKeys(call, {
    typed: () => events.push("typed"),
    pressed: () => events.push("pressed"),
    entered: (digits) => events.push(`entered ${digits}`),
  });
  return { stage, events, call };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the keys stage", () => {
  it("makes keys pressed in a row one turn after a 700 ms gap", async () => {
    const { stage, events } = keys();
    stage.press("4");
    stage.press("2");
    await wait(400);
    expect(events).toEqual(["pressed", "pressed"]);
    await wait(500);
    expect(events).toEqual(["pressed", "pressed", "entered 42"]);
  });

  it("gives keys to a keypad entry while the agent waits for one, up to # or the timeout", async () => {
    const { stage, events } = keys();
    const entry = stage.collect({ maxDigits: 6, timeoutSeconds: 1 }, async () => {});
    stage.press("1");
    stage.press("2");
    stage.press("#");
    expect(await entry).toEqual({ digits: "12", endedBy: "#" });
    expect(events).toEqual(["typed", "typed", "typed"]);
    const timedOut = stage.collect({ maxDigits: 6, timeoutSeconds: 0.3 }, async () => {});
    stage.press("7");
    expect(await timedOut).toEqual({ digits: "7", endedBy: "timeout" });
    await wait(800);
    expect(events.filter((e) => e.startsWith("entered"))).toEqual([]);
  });

  it("ends a keypad entry at a hang-up and hears no keys once the call is over", async () => {
    const { stage, events, call } = keys();
    const entry = stage.collect({ maxDigits: 4, timeoutSeconds: 5 }, async () => {});
    stage.press("9");
    stage.hangup();
    expect(await entry).toEqual({ digits: "9", endedBy: "hangup" });
    call.finished = true;
    stage.press("1");
    expect(await stage.collect({ maxDigits: 4, timeoutSeconds: 5 }, async () => {})).toEqual({
      digits: "",
      endedBy: "hangup",
    });
    expect(events).toEqual(["typed"]);
  });
});
