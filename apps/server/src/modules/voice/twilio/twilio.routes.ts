import { createHmac, timingSafeEqual } from "node:crypto";
import * as api from "@switchboard/api";
import { ApiError } from "../../../api-error.ts";
import { handle } from "../../../http/routes.ts";
import { type FormParams, formField as first, verifyTwilioSignature } from "../../../providers/sms/twilio.ts";
import type { CallLeg } from "../call-leg.ts";
import type { CallSession, StartCallOptions } from "../call-session.ts";
import type { VoiceRepository } from "../voice.repository.ts";
import { createTwilioStreamLeg } from "./twilio-stream-leg.ts";

/**
 * Twilio voice: the answer webhook returns TwiML that connects the call's audio to our Media Streams
 * WebSocket, and the stream becomes a call leg of the same pipeline as SIP and the browser. The stream
 * itself cannot carry Twilio's signature, so the answer (which is signed, or from this machine) hands it a
 * ticket: the agent, the call and an expiry, under an HMAC of the server's key, sent back in the stream's
 * `start` as a custom parameter. A stream without a valid ticket is closed before anything is heard.
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

export function twilioVoiceRoutes(deps: {
  voice: VoiceRepository;
  startCallSession: (leg: CallLeg, options: StartCallOptions) => CallSession;
}) {
  return [
    handle(api.twilioVoiceAnswer, async ({ query }, { app, request, reply }) => {
      const params = (request.body ?? {}) as FormParams;
      const token = app.config.voice.twilioAuthToken;
      if (token) {
        const signature = request.headers["x-twilio-signature"] as string | undefined;
        if (!verifyTwilioSignature(token, `${app.config.publicUrl}${request.url}`, params, signature))
          throw new ApiError(403, api.TWILIO_VOICE_MESSAGES.badSignature);
      } else if (!LOOPBACK.has(request.socket.remoteAddress ?? "")) {
        throw new ApiError(403, api.TWILIO_VOICE_MESSAGES.notLoopback);
      }
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
      const streamUrl = `${app.config.publicUrl.replace(/^http/, "ws")}${api.twilioMediaStream.path}`;
      const parameters = { ticket: streamTicket(app.secretKey, agent, callSid), from, to };
      const tags = Object.entries(parameters)
        .map(([name, value]) => `<Parameter name="${name}" value="${xml(value)}"/>`)
        .join("");
      return reply.send(twiml(`<Connect><Stream url="${xml(streamUrl)}">${tags}</Stream></Connect>`));
    }),
    handle(api.twilioMediaStream, async (_input, { app, socket, request }) => {
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
      const leg = stream.leg({
        from: start.customParameters.from || "unknown",
        to: start.customParameters.to || "unknown",
      });
      const session = deps.startCallSession(leg, { agentAccountId });
      request.log.info({ callSid: start.callSid, agentAccountId }, "Twilio media stream connected");
      await session.ended;
    }),
  ];
}
