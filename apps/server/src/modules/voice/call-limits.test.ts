import { describe, expect, it } from "vitest";
import type { TurnSubject } from "../runtime/index.ts";
import { createCallClock } from "./call-limits.ts";
import type { CallOutcome } from "./call-session-types.ts";
import { DEFAULT_CALL_SETTINGS } from "./call-settings.ts";

/** The clock stage without a call: quiet and time pass, it asks for the idle prompt, the goodbye, the end. */

function clock(options: { idlePromptSeconds: number; startedAgoMs?: number; agentBusy?: () => boolean }) {
  const asked: string[] = [];
  const call = {
    settings: { ...DEFAULT_CALL_SETTINGS, idlePromptSeconds: options.idlePromptSeconds, maxCallSeconds: 10 },
    started: performance.now() - (options.startedAgoMs ?? 0),
    subject: {} as TurnSubject,
    finished: false,
    closing: false,
    end(outcome: CallOutcome) {
      asked.push(`end ${outcome}`);
      call.finished = true;
    },
    unexpected(error: unknown): void {
      throw error;
    },
  };
  const stage = createCallClock(call, {
    agentBusy: options.agentBusy ?? (() => false),
    agentLastSent: () => 0,
    callerSpeaking: () => false,
    timeUp() {
      asked.push("time up");
      call.closing = true;
    },
    idle: () => asked.push("idle prompt"),
  });
  stage.start();
  return { stage, asked };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the call's clock", () => {
  it("prompts once after the quiet, and ends the call after as long again", async () => {
    const { stage, asked } = clock({ idlePromptSeconds: 1 });
    await wait(800);
    expect(asked).toEqual([]);
    await wait(500);
    expect(asked).toEqual(["idle prompt"]);
    await wait(1100);
    expect(asked).toEqual(["idle prompt", "end idle"]);
    stage.stop();
  });

  it("starts the quiet again when the caller speaks, and never counts it while the agent talks", async () => {
    let busy = true;
    const { stage, asked } = clock({ idlePromptSeconds: 1, agentBusy: () => busy });
    await wait(1300);
    expect(asked).toEqual([]);
    busy = false;
    await wait(700);
    stage.callerHeard(true);
    await wait(700);
    expect(asked).toEqual([]);
    await wait(600);
    expect(asked).toEqual(["idle prompt"]);
    stage.stop();
  });

  it("asks for the goodbye once at the time limit", async () => {
    const { stage, asked } = clock({ idlePromptSeconds: 0, startedAgoMs: 10_000 });
    await wait(600);
    expect(asked).toEqual(["time up"]);
    stage.stop();
  });
});
