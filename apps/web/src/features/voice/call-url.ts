import { getTargetAccountId, readStoredViewingAs } from "../../lib/session.ts";

/** An agent (the editor's test call), or a number of the organisation (the sandbox phone's dial pad). */
export type CallTarget = { agentId: number; stage?: "staging" | "production" } | { number: string };

/**
 * The call's address: the same account in view and viewing-as as every API call. The session token is not
 * in it: the socket offers it as a subprotocol (voice-call.ts, lib/ws-auth.ts).
 */
export function callUrl(target: CallTarget): string {
  const path = "number" in target ? "/api/v1/voice/dial" : "/api/v1/voice/call";
  const address = new URL(path, window.location.origin.replace(/^http/, "ws"));
  const targetAccountId = getTargetAccountId();
  if (targetAccountId !== null) address.searchParams.set("targetAccountId", String(targetAccountId));
  const viewingAs = readStoredViewingAs();
  if (viewingAs) address.searchParams.set("viewingAs", viewingAs);
  if ("number" in target) address.searchParams.set("number", target.number);
  else {
    address.searchParams.set("agentId", String(target.agentId));
    if (target.stage) address.searchParams.set("stage", target.stage);
  }
  return address.toString();
}
