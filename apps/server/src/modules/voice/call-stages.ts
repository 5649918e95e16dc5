/**
 * One call as its orchestration sees it (call-session.ts wires it; call-setup.ts, call-end.ts and
 * call-controls.ts use it): the shell and its stages, in the order audio goes through them. Each stage owns
 * its state and takes only what it reads of the call; stages talk through events and methods, never each
 * other's fields. docs/voice.md lists them and says how to add one.
 */
import type { AgentSpeech } from "./agent-speech.ts";
import type { CallClock } from "./call-limits.ts";
import type { CallShell } from "./call-session-types.ts";
import type { Transfers } from "./call-transfer.ts";
import type { Turns } from "./call-turns.ts";
import type { Hearing } from "./caller-hearing.ts";
import type { CallerKeys } from "./caller-keys.ts";
import type { EarlyFrames } from "./early-frames.ts";
import type { RecognitionStage } from "./recognition.ts";

export type Call = CallShell & {
  /** The first of the caller's frame stages: holds frames until the call is set up. */
  readonly earlyFrames: EarlyFrames;
  /** VAD and endpointing: caller turns, barge-in. */
  readonly hearing: Hearing;
  /** One recogniser per utterance. */
  readonly recognition: RecognitionStage;
  /** Pressed digits: turns and keypad entries. */
  readonly keys: CallerKeys;
  /** The agent's turns, one after another. */
  readonly turns: Turns;
  /** The agent's speech into the leg. */
  readonly speech: AgentSpeech;
  /** Transfers and the bridge to a destination. */
  readonly transfer: Transfers;
  /** Idle prompts and the time limit. */
  readonly clock: CallClock;
};
