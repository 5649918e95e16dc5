import { LIVE_CALL_MESSAGES, type LiveCall } from "@switchboard/api";
import { and, desc, eq, gt, isNull } from "drizzle-orm";
import type { Access } from "../../access/access.ts";
import { badRequest, notFound } from "../../api-error.ts";
import type { Database } from "../../db/client.ts";
import type { NotificationListener } from "../../db/notifications.ts";
import { accounts } from "../../db/schema/accounts.ts";
import { conversations } from "../../db/schema/conversations.ts";
import type { RealtimeHub } from "../../realtime/realtime-hub.ts";
import { agentNameOf } from "../accounts/index.ts";
import type { CallSession, StartCallOptions } from "./call-session.ts";

/** Instances tell each other to hang up a call here (the one carrying it acts). */
const HANGUP_CHANNEL = "switchboard_call_hangup";
/** A call row still "active" after this long belongs to an instance that died: it is not live. */
const STALE_AFTER_MS = 4 * 3600 * 1000 + 60_000;
/** What the caller of a browser test call reads when a colleague hangs up their call. */
const HANGUP_REASON = "Someone in your team ended the call.";

type Scope = { orgId: number; agentId: number | null };

function scopeOf(access: Access): Scope {
  const target = access.target;
  if (target.accountType === "organization") return { orgId: target.id, agentId: null };
  if (target.accountType === "agent" && target.organizationId)
    return { orgId: target.organizationId, agentId: target.id };
  throw badRequest("Choose an organisation to see its calls.");
}

/**
 * Live call state for the web app (the `calling` / `call` overlays): every call this instance carries is
 * announced on the realtime hub when it starts and ends, with its final captions in between; the list of
 * calls in progress is read from the conversations (so it spans instances), and a hang-up reaches the
 * instance that carries the call through a NOTIFY.
 */
export function createLiveCalls(deps: {
  db: Database;
  realtime?: Pick<RealtimeHub, "publish">;
  notifications?: Pick<NotificationListener, "follow" | "notify">;
  log: { warn(details: object, message: string): void };
}) {
  const local = new Map<string, CallSession>();
  let unfollow: (() => void) | null = null;

  const publish = (orgId: number, agentId: number, event: Parameters<RealtimeHub["publish"]>[0]["event"]) =>
    deps.realtime?.publish({ orgId, agentId, event }).catch((error: unknown) => {
      deps.log.warn({ err: error }, "could not publish a call event");
    });

  /** Adds the live announcements to a call's options (its captions are still passed on). */
  function observe(options: StartCallOptions): {
    options: StartCallOptions;
    attach: (session: CallSession) => void;
  } {
    let call: { uuid: string; orgId: number; agentId: number } | null = null;
    const early: { role: "caller" | "agent" | "destination"; text: string }[] = [];
    const observed: StartCallOptions = {
      ...options,
      onTranscript(role, text, final) {
        options.onTranscript?.(role, text, final);
        if (!final || !text.trim()) return;
        if (!call) early.push({ role, text });
        else
          void publish(call.orgId, call.agentId, {
            type: "call",
            what: "caption",
            uuid: call.uuid,
            role,
            text,
          });
      },
    };
    const attach = (session: CallSession) => {
      void (async () => {
        const uuid = await session.ready;
        if (!uuid) return;
        const [row] = await deps.db
          .select({ orgId: conversations.orgId, agentId: conversations.agentAccountId })
          .from(conversations)
          .where(eq(conversations.uuid, uuid))
          .limit(1);
        if (!row) return;
        call = { uuid, ...row };
        local.set(uuid, session);
        await publish(row.orgId, row.agentId, { type: "call", what: "started", uuid });
        for (const line of early.splice(0))
          await publish(row.orgId, row.agentId, { type: "call", what: "caption", uuid, ...line });
        await session.ended;
        local.delete(uuid);
        await publish(row.orgId, row.agentId, { type: "call", what: "ended", uuid });
      })().catch((error: unknown) => deps.log.warn({ err: error }, "live call state failed"));
    };
    return { options: observed, attach };
  }

  async function list(access: Access): Promise<LiveCall[]> {
    const scope = scopeOf(access);
    const rows = await deps.db
      .select({
        uuid: conversations.uuid,
        roomId: conversations.roomId,
        agentId: conversations.agentAccountId,
        agentDetails: accounts.details,
        agentUsername: accounts.username,
        direction: conversations.direction,
        from: conversations.fromAddress,
        to: conversations.toAddress,
        stage: conversations.stage,
        startedAt: conversations.startedAt,
      })
      .from(conversations)
      .innerJoin(accounts, eq(accounts.id, conversations.agentAccountId))
      .where(
        and(
          eq(conversations.orgId, scope.orgId),
          scope.agentId === null ? undefined : eq(conversations.agentAccountId, scope.agentId),
          eq(conversations.channel, "voice"),
          eq(conversations.status, "active"),
          isNull(conversations.endedAt),
          gt(conversations.startedAt, new Date(Date.now() - STALE_AFTER_MS)),
        ),
      )
      .orderBy(desc(conversations.startedAt))
      .limit(200);
    return rows.map(({ agentDetails, agentUsername, startedAt, ...row }) => ({
      ...row,
      agentName: agentNameOf(agentDetails, agentUsername) ?? agentUsername,
      startedAt: startedAt.getTime(),
    }));
  }

  async function hangup(access: Access, uuid: string): Promise<string> {
    const live = await list(access);
    if (!live.some((call) => call.uuid === uuid)) throw notFound(LIVE_CALL_MESSAGES.notLive);
    const session = local.get(uuid);
    if (session) {
      session.hangup(HANGUP_REASON);
      await session.ended;
    } else if (deps.notifications) await deps.notifications.notify(HANGUP_CHANNEL, uuid);
    else throw notFound(LIVE_CALL_MESSAGES.notLive);
    return LIVE_CALL_MESSAGES.hungUp;
  }

  return {
    observe,
    list,
    hangup,
    /** Follows hang-up requests of the other instances. */
    async start(): Promise<void> {
      unfollow =
        (await deps.notifications?.follow(HANGUP_CHANNEL, (uuid) =>
          local.get(uuid)?.hangup(HANGUP_REASON),
        )) ?? null;
    },
    stop(): void {
      unfollow?.();
      unfollow = null;
    },
  };
}

export type LiveCalls = ReturnType<typeof createLiveCalls>;
