/**
 * One side of a comparison: a version id, the saved draft (staging), what is live (production), or, in a
 * save conflict, my unsaved draft (mine) and the newer campaign saved elsewhere (theirs).
 */
export type CompareSide = number | "staging" | "production" | "mine" | "theirs";

/** The compareChanges value: `<agentId>:<left>:<right>`. */
export function compareValue(
  agentId: number,
  left: CompareSide | undefined,
  right: CompareSide | undefined,
): string {
  return `${agentId}:${left ?? "staging"}:${right ?? "staging"}`;
}

function side(text: string | undefined): CompareSide | null {
  if (text === "staging" || text === "production" || text === "mine" || text === "theirs") return text;
  const id = Number(text);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export function parseCompareValue(
  value: string,
): { agentId: number; left: CompareSide; right: CompareSide } | null {
  const [agent, left, right] = value.split(":");
  const agentId = Number(agent);
  const leftSide = side(left);
  const rightSide = side(right);
  if (!Number.isSafeInteger(agentId) || agentId <= 0 || leftSide === null || rightSide === null) return null;
  return { agentId, left: leftSide, right: rightSide };
}
