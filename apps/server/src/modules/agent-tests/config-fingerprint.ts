import { createHash } from "node:crypto";
import { type Campaign, campaignFieldsSchema } from "@switchboard/api";

/** The fields that make what a caller hears: everything of the campaign but whether it is published. */
const testedFields = campaignFieldsSchema.omit({ published: true });

function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, item]) => [key, stable(item)]),
    );
  return value;
}

/**
 * A fingerprint of the configuration a test run called: two revisions with the same configuration (a save
 * without a change, as before each publish) have the same one, so their results count for each other.
 */
export function configFingerprint(campaign: Campaign): string {
  const fields = testedFields.parse(campaign);
  return createHash("sha256")
    .update(JSON.stringify(stable(fields)))
    .digest("hex")
    .slice(0, 32);
}
