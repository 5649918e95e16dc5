/**
 * What a transfer destination says, where its line does not tell it (a real SIP or Twilio leg, unlike the
 * sandbox carrier's callee): its audio is heard as the caller's is, by a hearing and a recognition stage of
 * its own (VAD, endpointing, one recogniser per utterance), and each utterance recognised is handed on as
 * text. The destination never takes a turn: nothing here reaches the agent.
 */
import type { VadProvider } from "../../providers/vad/vad-provider.ts";
import { createHearing, type HearingCall } from "./caller-hearing.ts";
import { createRecognition, type RecognitionCall } from "./recognition.ts";

/** The call as the destination's hearing reads it: the caller's call, over once the bridge is. */
export type DestinationCall = HearingCall & RecognitionCall;

/**
 * Hears the destination's frames (`hear`) and tells `said` each utterance recognised; `stop` ends it (the
 * recogniser of an utterance under way is dropped). Nothing is heard until the VAD is ready.
 */
export function destinationCaptions(call: DestinationCall, vad: VadProvider, said: (text: string) => void) {
  let stopped = false;
  const view: DestinationCall = {
    get settings() {
      return call.settings;
    },
    deps: call.deps,
    log: call.log,
    get finished() {
      return stopped || call.finished;
    },
    closing: false,
    unexpected: (error, where) => call.unexpected(error, `destination captions: ${where}`),
  };
  const recognition = createRecognition(view, false);
  const hearing = createHearing(view, recognition, {
    agentTalking: () => false,
    hold: () => {},
    release: () => {},
    bargeIn: () => {},
    heard: () => {},
    turn: (turn) =>
      void turn.recognised
        .then((recognised) => {
          const text = recognised?.text.trim();
          if (text && !call.finished) said(text);
        })
        // A caption that could not be given is no reason to end the call.
        .catch((error: unknown) => call.log.warn({ err: error }, "a destination's caption failed")),
  });
  vad.createStream().then(
    (stream) => {
      if (stopped) stream.close();
      else hearing.listen(stream);
    },
    (error: unknown) => call.log.warn({ err: error }, "the destination's words cannot be captioned"),
  );
  return {
    hear: (frame: Int16Array) => {
      if (!stopped) hearing.hear(frame);
    },
    stop: () => {
      if (stopped) return;
      stopped = true;
      hearing.stop();
      hearing.close();
    },
  };
}
