import { CARRIER_MESSAGES } from "@switchboard/api";
import { isSafeMediaUrl, normalizeAddress } from "@switchboard/core";
import type { Access } from "../../access/access.ts";
import { badRequest, notFound } from "../../api-error.ts";
import { newCarrierId } from "../../providers/sms/sandbox-carrier.ts";
import { type FormParams, formField as first, verifyTwilioSignature } from "../../providers/sms/twilio.ts";
import { displayName } from "../runtime/index.ts";
import type { InboxRepository } from "./inbox.repository.ts";
import type { InboxService } from "./inbox.service.ts";

/** An inbound picture whose URL is not https (nor one of the server's own files). */
export const UNSAFE_MEDIA_MESSAGE = "Attach pictures by https:// link.";

export const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

const TWILIO_STATUS: Record<string, "queued" | "sent" | "delivered" | "failed"> = {
  accepted: "queued",
  queued: "queued",
  sending: "queued",
  sent: "sent",
  delivered: "delivered",
  undelivered: "failed",
  failed: "failed",
};

/**
 * The carriers' side of text messaging: the sandbox carrier's phone simulator and Twilio's webhooks. Both
 * hand an inbound message to InboxService.receiveInbound, the one path every inbound message takes.
 */
export function createCarrierService(deps: {
  inbox: InboxService;
  repo: InboxRepository;
  twilioAuthToken: string | undefined;
  publicUrl: string;
}) {
  const { inbox, repo } = deps;
  const ownOrigin = new URL(deps.publicUrl).origin;
  /** Inbound media are stored and shown as links: only https URLs and the server's own file URLs. */
  const safeMedia = (url: string) => isSafeMediaUrl(url, ownOrigin);

  async function orgNumbers(access: Access) {
    const scope = inbox.scopeOf(access);
    const agents = await repo.agentsWithNumbers(scope.orgId);
    return agents
      .filter((a) => scope.agentId === null || a.id === scope.agentId)
      .map((a) => ({
        agentId: a.id,
        agentName: displayName(a, "agentName"),
        number: a.switchboardPhoneNumber ?? "",
      }));
  }

  return {
    safeMedia,

    /** The phone simulator's handset texts an agent number: the sandbox carrier delivers it like a webhook. */
    async simulateInbound(access: Access, body: { from: string; to: string; text: string; media: string[] }) {
      const from = normalizeAddress(body.from);
      if (from?.kind !== "phone") throw badRequest(CARRIER_MESSAGES.badNumber);
      const to = normalizeAddress(body.to)?.address;
      const numbers = await orgNumbers(access);
      if (!to || !numbers.some((n) => n.number === to)) throw notFound(CARRIER_MESSAGES.unknownNumber);
      if (!body.text && body.media.length === 0) throw badRequest("Enter a message.");
      if (!body.media.every(safeMedia)) throw badRequest(UNSAFE_MEDIA_MESSAGE);
      const carrierMessageId = newCarrierId("SM");
      const result = await inbox.receiveInbound({
        provider: "sandbox",
        externalId: carrierMessageId,
        from: from.address,
        to,
        text: body.text,
        media: body.media,
      });
      return { success: true as const, carrierMessageId, roomId: result.roomId ?? "" };
    },

    async handset(access: Access, number: string | undefined) {
      const agentNumbers = await orgNumbers(access);
      const handset = number ? normalizeAddress(number) : null;
      if (number && handset?.kind !== "phone") throw badRequest(CARRIER_MESSAGES.badNumber);
      const rows = handset
        ? await repo.handsetMessages(
            handset.address,
            agentNumbers.map((n) => n.number),
          )
        : [];
      return {
        success: true as const,
        agentNumbers,
        messages: rows.map((r) => ({
          id: r.id,
          direction: r.direction,
          from: r.fromAddress,
          to: r.toAddress,
          text: r.body,
          media: r.media,
          status: r.status,
          createdAt: r.createdAt.getTime(),
        })),
      };
    },

    /** Is this request really from Twilio? X-Twilio-Signature over PUBLIC_URL + path and the form fields. */
    verifyTwilio(
      url: string,
      params: FormParams,
      signature: string | undefined,
    ): "ok" | "not-configured" | "invalid" {
      if (!deps.twilioAuthToken) return "not-configured";
      return verifyTwilioSignature(deps.twilioAuthToken, `${deps.publicUrl}${url}`, params, signature)
        ? "ok"
        : "invalid";
    },

    async twilioInbound(params: FormParams) {
      const count = Number(first(params, "NumMedia")) || 0;
      const media: string[] = [];
      for (let i = 0; i < Math.min(count, 10); i++) {
        const url = first(params, `MediaUrl${i}`);
        // Twilio's own media URLs are https; anything else did not come from Twilio and is dropped.
        if (url && safeMedia(url)) media.push(url);
      }
      const sid = first(params, "MessageSid") || first(params, "SmsSid");
      if (!sid) throw badRequest("MessageSid is missing.");
      return inbox.receiveInbound({
        provider: "twilio",
        externalId: sid,
        from: first(params, "From"),
        to: first(params, "To"),
        text: first(params, "Body"),
        media,
        carrierName: first(params, "CallerName") || null,
      });
    },

    async twilioStatus(params: FormParams) {
      const sid = first(params, "MessageSid");
      const status = TWILIO_STATUS[first(params, "MessageStatus")];
      if (!sid || !status) return null;
      return repo.deliveryByCarrierId(sid, status);
    },
  };
}

export type CarrierService = ReturnType<typeof createCarrierService>;
