/**
 * Twilio's Call resource for calls already in progress: `POST /2010-04-01/Accounts/{AccountSid}/Calls/{CallSid}.json`
 * with `Twiml` replaces what the call is doing (a cold transfer: `<Dial>` to the destination). Basic auth with
 * the account SID and token, as the other Twilio clients (sms/twilio.ts, numbers/twilio-numbers.ts); the API's
 * address is the operator's (TWILIO_API_URL), never a user's.
 *
 * Without a SID and token there is no client: a Twilio media stream then has no hand-over of its own and a
 * cold transfer bridges a new leg (the numbers module's outbound route, or the sandbox carrier offline).
 */

export type TwilioCallsConfig = {
  accountSid: string;
  authToken: string;
  /** https://api.twilio.com, or a local server in tests. */
  apiUrl: string;
  fetch?: typeof fetch;
};

/** How Twilio answered an update: taken (2xx), or refused with its status and message (null: no answer). */
export type CallUpdate = { ok: true; status: number } | { ok: false; status: number | null; detail: string };

export type TwilioCalls = {
  kind: "twilio";
  /** Replaces the live call's instructions with `twiml` (a whole `<Response>` document). */
  update(callSid: string, twiml: string): Promise<CallUpdate>;
};

export function twilioCalls(config: TwilioCallsConfig): TwilioCalls {
  const doFetch = config.fetch ?? fetch;
  const base = `${config.apiUrl.replace(/\/$/, "")}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}`;
  const authorization = `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString("base64")}`;
  return {
    kind: "twilio",
    async update(callSid, twiml) {
      let response: Response;
      try {
        response = await doFetch(`${base}/Calls/${encodeURIComponent(callSid)}.json`, {
          method: "POST",
          headers: { authorization, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ Twiml: twiml }).toString(),
          signal: AbortSignal.timeout(15_000),
        });
      } catch (error) {
        return {
          ok: false,
          status: null,
          detail: `Twilio did not answer: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
      const answer = (await response.json().catch(() => ({}))) as { message?: unknown; code?: unknown };
      if (response.ok) return { ok: true, status: response.status };
      const code = answer.code ? ` (error ${String(answer.code)})` : "";
      return {
        ok: false,
        status: response.status,
        detail: `Twilio refused the update (${response.status})${code}: ${String(answer.message ?? "no reason given")}`,
      };
    },
  };
}
