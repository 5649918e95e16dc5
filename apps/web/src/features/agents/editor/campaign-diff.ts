import type { CampaignFields } from "@switchboard/api";

export const FIELD_LABELS: Record<keyof CampaignFields, string> = {
  agentInstructions: "Instructions",
  greeting: "Greeting",
  outboundGreeting: "Greeting on calls it places",
  published: "Published",
  confirmTransfers: "Confirm transfers",
  apps: "Apps",
  enabledFunctions: "Enabled functions",
  actions: "Actions",
  templateId: "Template",
  timezone: "Time zone",
  language: "Language",
  voice: "Voice",
  variables: "Variables",
  knowledgeBaseIds: "Knowledge bases",
  voicemailAction: "On voicemail",
  voicemailMessage: "Voicemail message",
  analysis: "Call analysis",
};

/** A field's value as text to compare and show (objects as indented JSON with sorted keys). */
export function fieldText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  return JSON.stringify(sortKeys(value), null, 2);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, item]) => [key, sortKeys(item)]),
    );
  return value;
}

export type FieldChange = { field: keyof CampaignFields; label: string; left: string; right: string };

/** The configuration fields that differ between two campaigns (published is a state, not content). */
export function changedFields(left: CampaignFields, right: CampaignFields): FieldChange[] {
  return (Object.keys(FIELD_LABELS) as (keyof CampaignFields)[])
    .filter((field) => field !== "published")
    .map((field) => ({
      field,
      label: FIELD_LABELS[field],
      left: fieldText(left[field]),
      right: fieldText(right[field]),
    }))
    .filter((change) => change.left !== change.right);
}

export type DiffLine = { kind: "same" | "removed" | "added"; text: string };

/** A line diff (longest common subsequence): what was removed from the left and added on the right. */
export function lineDiff(left: string, right: string): DiffLine[] {
  const a = left.split("\n");
  const b = right.split("\n");
  const lengths = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--) {
      const row = lengths[i] as number[];
      row[j] =
        a[i] === b[j]
          ? ((lengths[i + 1] as number[])[j + 1] as number) + 1
          : Math.max((lengths[i + 1] as number[])[j] as number, row[j + 1] as number);
    }
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      lines.push({ kind: "same", text: a[i] as string });
      i++;
      j++;
    } else if (((lengths[i + 1] as number[])[j] as number) >= ((lengths[i] as number[])[j + 1] as number)) {
      lines.push({ kind: "removed", text: a[i++] as string });
    } else {
      lines.push({ kind: "added", text: b[j++] as string });
    }
  }
  while (i < a.length) lines.push({ kind: "removed", text: a[i++] as string });
  while (j < b.length) lines.push({ kind: "added", text: b[j++] as string });
  return lines;
}
