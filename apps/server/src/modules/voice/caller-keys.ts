/**
 * The caller's keys, a stage beside hearing: digits pressed in a row (until a 700 ms gap) are one caller
 * turn; while the agent waits for a keypad entry (its collectDigits tool) they are that entry's instead.
 */

const DTMF_GAP_MS = 700;

export type KeypadResult = { digits: string; endedBy: "#" | "max" | "timeout" | "hangup" };

/** What the keys stage tells the call. */
export type KeyEvents = {
  /** A key of a keypad entry: the caller is there. */
  typed(): void;
  /** A key that starts or continues a turn: the caller is there, and the agent stops talking. */
  pressed(): void;
  /** The keys of one turn. */
  entered(digits: string): void;
};

export type KeysCall = {
  readonly finished: boolean;
  readonly closing: boolean;
  unexpected(error: unknown, where: string): void;
};

export type CallerKeys = ReturnType<typeof createCallerKeys>;

export function createCallerKeys(call: KeysCall, events: KeyEvents) {
  let pending = "";
  let timer: NodeJS.Timeout | null = null;
  let keypad: { push(digit: string): void; hangup(): void } | null = null;

  return {
    /** A key the caller pressed. */
    press(digit: string) {
      if (call.finished) return;
      if (keypad) {
        // A number the agent asked for (collectDigits): the keys are the tool's, not a turn.
        events.typed();
        keypad.push(digit);
        return;
      }
      if (call.closing) return;
      events.pressed();
      pending += digit;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        try {
          const digits = pending;
          pending = "";
          events.entered(digits);
        } catch (error) {
          call.unexpected(error, "digits");
        }
      }, DTMF_GAP_MS);
    },
    /**
     * A keypad entry (collectDigits): up to `maxDigits`, or until "#", or `timeoutSeconds` without a key
     * counted from `asked` (the agent's question played; keys typed during it count too).
     */
    collect(
      { maxDigits, timeoutSeconds }: { maxDigits: number; timeoutSeconds: number },
      asked: () => Promise<void>,
    ): Promise<KeypadResult> {
      if (call.finished) return Promise.resolve({ digits: "", endedBy: "hangup" });
      if (keypad) return Promise.resolve({ digits: "", endedBy: "timeout" });
      let digits = "";
      let wait: NodeJS.Timeout | null = null;
      let done!: (result: KeypadResult) => void;
      const result = new Promise<KeypadResult>((resolve) => {
        done = (value) => {
          if (wait) clearTimeout(wait);
          keypad = null;
          resolve(value);
        };
      });
      const waitMore = () => {
        if (wait) clearTimeout(wait);
        wait = setTimeout(() => done({ digits, endedBy: "timeout" }), timeoutSeconds * 1000);
      };
      const entry = {
        push(digit: string) {
          if (digit === "#") return done({ digits, endedBy: "#" });
          digits += digit;
          if (digits.length >= maxDigits) return done({ digits, endedBy: "max" });
          waitMore();
        },
        hangup: () => done({ digits, endedBy: "hangup" }),
      };
      keypad = entry;
      void asked().then(() => {
        if (keypad === entry && !wait) waitMore();
      });
      return result;
    },
    /** The caller hung up: a keypad entry waiting ends. */
    hangup() {
      keypad?.hangup();
    },
    /** The call is over: no turn of keys pending. */
    stop() {
      if (timer) clearTimeout(timer);
    },
  };
}
