/**
 * The call's clock, checked every 250 ms: at the time limit the agent says goodbye and ends the call; after
 * `idlePromptSeconds` of quiet on both sides it prompts once, and ends the call after as long again.
 */
import { finish } from "./call-end.ts";
import { background } from "./call-guard.ts";
import type { CallContext } from "./call-session-types.ts";
import { agentBusy, queueTurn, sayLine } from "./call-turns.ts";

export function housekeeping(ctx: CallContext) {
  const { settings } = ctx;
  if (ctx.finished || !ctx.subject) return;
  const now = performance.now();
  if (ctx.closing) return;
  if (now - ctx.started >= settings.maxCallSeconds * 1000) {
    // No more turns: say goodbye, then end.
    ctx.closing = true;
    ctx.answering?.controller.abort();
    ctx.hearing.stop();
    ctx.speech.clearQueued();
    background(
      ctx,
      "time limit",
      (async () => {
        await sayLine(ctx, settings.maxCallMessage).catch((error: unknown) =>
          ctx.log.error({ err: error }, "could not say goodbye at the time limit"),
        );
        await ctx.speech.drained();
        finish(ctx, "max-length");
      })(),
    );
    return;
  }
  if (agentBusy(ctx)) ctx.lastAgentActivity = now;
  if (settings.idlePromptSeconds <= 0 || agentBusy(ctx) || ctx.hearing.speaking) return;
  const quietSince = Math.max(ctx.lastCallerActivity, ctx.lastAgentActivity, ctx.speech.lastSentAt);
  if (now - quietSince < settings.idlePromptSeconds * 1000) return;
  if (ctx.idlePrompted) {
    finish(ctx, "idle");
    return;
  }
  ctx.idlePrompted = true;
  ctx.lastCallerActivity = now;
  queueTurn(ctx, () => sayLine(ctx, settings.idlePrompt));
}
