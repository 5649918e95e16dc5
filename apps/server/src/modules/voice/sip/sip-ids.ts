import { randomBytes } from "node:crypto";
import { headerParams } from "./sip-message.ts";

/** A random hex token (tags, branches, Call-IDs). */
export function randomToken(bytes = 8): string {
  return randomBytes(bytes).toString("hex");
}

/** The `tag` parameter of a From or To header. */
export function tagOf(value: string | undefined): string | undefined {
  return value === undefined ? undefined : headerParams(value).tag;
}
