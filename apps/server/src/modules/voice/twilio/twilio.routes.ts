import { createHmac, timingSafeEqual } from "node:crypto";
import * as api from "@switchboard/api";
import type { FastifyRequest } from "fastify";
import { ApiError } from "../../../api-error.ts";
import type { Config } from "../../../config.ts";
import { handle } from "../../../http/routes.ts";
import type { TwilioCalls } from "../../../providers/numbers/twilio-calls.ts";
import { type FormParams, formField as first, verifyTwilioSignature } from "../../../providers/sms/twilio.ts";
import type { CallLeg } from "../call-leg.ts";
import type { CallSession, CallSummary, StartCallOptions } from "../call-session.ts";
import type { VoiceRepository } from "../voice.repository.ts";
import { createTwilioStreamLeg, type TwilioStreamLeg } from "./twilio-stream-leg.ts";

/**
 * Twilio voice: the answer webhook returns TwiML that connects the call's audio to our Media Streams
 * WebSocket, and the stream becomes a call leg of the same pipeline as SIP and the browser. The stream
 * itself cannot carry Twilio's signature, so the answer (which is signed, or from this machine) hands it a
 * ticket: the agent, the call and an expiry, under an HMAC of the server's key, sent back in the stream's
 * `start` as a custom parameter. A stream without a valid ticket is closed before anything is heard.
 *
 * A cold transfer, with Twilio's REST API configured (TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN), updates the
 * call with `<Dial>` (twilio-stream-leg.ts); Twilio's callbacks on that dial come to `twilioDialStatus`, and a
 * dial nobody answered connects the caller's stream again (a ticket with `resume`) to the same call.
 */

const TICKET_TTL_MS = 60_000;
const START_WAIT_MS = 10_000;
const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

const xml = (text: string) =>
  text.replace(
    /[<>&"']/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c] as string,
  );

function sign(secret: string, payload: string): string {
  return createHmac("sha256", secret).update(`twilio-stream|${payload}`).digest("base64url");
}

export function streamTicket(secret: string, agentId: number, callSid: string, now = Date.now()): string {
  const payload = `${agentId}.${callSid}.${now + TICKET_TTL_MS}`;
  return `${payload}.${sign(secret, payload)}`;
}

/** The agent of a valid, unexpired ticket for this call, else null. */
export function checkTicket(
  secret: string,
  ticket: string,
  callSid: string,
  now = Date.now(),
): number | null {
  const parts = ticket.split(".");
  if (parts.length !== 4) return null;
  const [agent, sid, expires, mac] = parts as [string, string, string, string];
  const expected = Buffer.from(sign(secret, `${agent}.${sid}.${expires}`));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  if (sid !== callSid || Number(expires) < now) return null;
  const id = Number(agent);
  return Number.isInteger(id) && id > 0 ? id : null;
}

const twiml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?><Response>${body}</Response>`;

/** The form Twilio posted, once its signature (or, without a token, this machine) was checked. */
function twilioForm(app: TwilioVoiceApp, request: FastifyRequest): FormParams {
  const params = (request.body ?? {}) as FormParams;
  const token = app.config.voice.twilioAuthToken;
  if (token) {
    const signature = request.headers["x-twilio-signature"] as string | undefined;
    if (!verifyTwilioSignature(token, `${app.config.publicUrl}${request.url}`, params, signature))
      throw new ApiError(403, api.TWILIO_VOICE_MESSAGES.badSignature);
  } else if (!LOOPBACK.has(request.socket.remoteAddress ?? "")) {
    throw new ApiError(403, api.TWILIO_VOICE_MESSAGES.notLoopback);
  }
  return params;
}

/** `<Connect><Stream>` to our media stream WebSocket for this call, its parameters signed by a ticket. */
function connectStream(
  app: TwilioVoiceApp,
  agent: number,
  callSid: string,
  parameters: Record<string, string>,
) {
  const streamUrl = `${app.config.publicUrl.replace(/^http/, "ws")}${api.twilioMediaStream.path}`;
  const tags = Object.entries({ ticket: streamTicket(app.secretKey, agent, callSid), ...parameters })
    .map(([name, value]) => `<Parameter name="${name}" value="${xml(value)}"/>`)
    .join("");
  return twiml(`<Connect><Stream url="${xml(streamUrl)}">${tags}</Stream></Connect>`);
}

/** What the Twilio routes use of the app: where Twilio reaches it, its token, and the key tickets are signed with. */
type TwilioVoiceApp = { config: Pick<Config, "publicUrl" | "voice">; secretKey: string };

/** A call whose stream is being handed over by Twilio: its callbacks and its resumed stream come here. */
type Watched = {
  stream: TwilioStreamLeg;
  agentAccountId: number;
  from: string;
  to: string;
  ended: Promise<CallSummary>;
};

export function twilioVoiceRoutes(deps: {
  app: TwilioVoiceApp;
  voice: VoiceRepository;
  startCallSession: (leg: CallLeg, options: StartCallOptions) => CallSession;
  /** Twilio's Call resource (REST credentials configured): cold transfers update the call with <Dial>. */
  calls: TwilioCalls | null;
}) {
  const { app } = deps;
  const watched = new Map<string, Watched>();
  return [
    handle(api.twilioVoiceAnswer, async ({ query }, { request, reply }) => {
      const params = twilioForm(app, request);
      const callSid = first(params, "CallSid");
      const from = first(params, "From");
      const to = first(params, "To");
      const agentId = query.agentId ?? (to ? await deps.voice.agentByNumber(to) : null);
      const agent = agentId && callSid ? await deps.voice.answeringAgent(agentId) : null;
      reply.type("text/xml");
      if (!agent) {
        request.log.warn({ to, agentId }, "Twilio call for no agent");
        return reply.send(twiml(`<Say>${xml(api.TWILIO_VOICE_MESSAGES.noAgent)}</Say><Hangup/>`));
      }
      return reply.send(connectStream(app, agent, callSid, { from, to }));
    }),
    handle(api.twilioDialStatus, async ({ query }, { request, reply }) => {
      const params = twilioForm(app, request);
      reply.type("text/xml");
      const call = watched.get(query.call);
      if (query.step === "status") {
        call?.stream.dialEvent({ step: "status", callStatus: first(params, "CallStatus") });
        return reply.send(twiml(""));
      }
      const dialCallStatus = first(params, "DialCallStatus");
      const taken = call?.stream.dialEvent({
        step: "action",
        dialCallStatus,
        callStatus: first(params, "CallStatus"),
      });
      request.log.info({ callSid: query.call, dialCallStatus }, "Twilio transfer dial ended");
      // Nobody answered: the caller comes back to the agent, on a new stream of the same call.
      if (call && taken && call.stream.awaitingResume)
        return reply.send(
          connectStream(app, call.agentAccountId, query.call, { from: call.from, to: call.to, resume: "1" }),
        );
      return reply.send(twiml("<Hangup/>"));
    }),
    handle(api.twilioMediaStream, async (_input, { socket, request }) => {
      if (!socket) throw new ApiError(426, api.VOICE_MESSAGES.webSocketOnly);
      const stream = createTwilioStreamLeg(socket);
      const start = await stream.started(START_WAIT_MS);
      if (!start) {
        stream.close();
        return;
      }
      const ticket = start.customParameters.ticket ?? "";
      const agentAccountId = checkTicket(app.secretKey, ticket, start.callSid);
      if (!agentAccountId) {
        request.log.warn({ callSid: start.callSid }, "Twilio media stream without a valid ticket");
        stream.close();
        return;
      }
      const from = start.customParameters.from || "unknown";
      const to = start.customParameters.to || "unknown";
      if (start.customParameters.resume) {
        // The caller back from a transfer nobody answered: this stream carries the call's leg from now on.
        const call = watched.get(start.callSid);
        if (!call || call.agentAccountId !== agentAccountId || !call.stream.resume(stream)) {
          request.log.warn({ callSid: start.callSid }, "Twilio media stream resumed no call");
          stream.close();
          return;
        }
        request.log.info({ callSid: start.callSid }, "Twilio media stream resumed after a transfer");
        await call.ended;
        return;
      }
      let ended: Promise<CallSummary> = new Promise(() => {});
      const calls = deps.calls;
      const publicUrl = app.config.publicUrl;
      const dialUrl = (step: "status" | "action") =>
        `${publicUrl}${api.twilioDialStatus.path}?${new URLSearchParams({ call: start.callSid, step })}`;
      const leg = stream.leg(
        { from, to },
        calls
          ? {
              calls,
              actionUrl: dialUrl("action"),
              statusUrl: dialUrl("status"),
              watch: (on) => {
                if (on) watched.set(start.callSid, { stream, agentAccountId, from, to, ended });
                else if (watched.get(start.callSid)?.stream === stream) watched.delete(start.callSid);
              },
            }
          : undefined,
      );
      const session = deps.startCallSession(leg, { agentAccountId });
      ended = session.ended;
      request.log.info({ callSid: start.callSid, agentAccountId }, "Twilio media stream connected");
      await session.ended;
    }),
  ];
}
