/**
 * A call's own failures stay in the call: what its code throws from a transport's event, a timer or work in
 * the background goes to `ctx.unexpected` (call-end.ts: logged with the call's id, the call ended as
 * failed), never to the process, which carries every other call too.
 */
import type { CallShell } from "./call-session-types.ts";

/** Runs `work` (a transport's listener, a timer's callback) with its failures kept in the call. */
export function guarded(ctx: Pick<CallShell, "unexpected">, where: string, work: () => void) {
  try {
    work();
  } catch (error) {
    ctx.unexpected(error, where);
  }
}

/** Work nobody waits for: a failure of it is kept in the call. */
export function background(ctx: Pick<CallShell, "unexpected">, where: string, work: Promise<unknown>) {
  work.catch((error: unknown) => ctx.unexpected(error, where));
}
