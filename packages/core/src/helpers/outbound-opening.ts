import { fillVariables, variableValue } from "./placeholders.ts";

/** Keys of a call's or text's values that say why the agent reaches out ("calling about …"). */
export const OUTBOUND_REASON_KEYS = ["about", "reason", "purpose"] as const;

export type OutboundOpeningInput = {
  agentName: string;
  organizationName: string;
  channel: "call" | "text";
  /** The owner's own opening for conversations the agent starts ({key} variables filled in); may be empty. */
  greeting?: string | null;
  /** The agent's variables and the call's or task's values. */
  values: Readonly<Record<string, string>>;
};

/**
 * How an agent opens a call or text it starts: as the one reaching out, never "Thank you for calling". The
 * owner's outbound greeting when it has one, else "Hi, this is Ava from Bluebird Dental, calling about your
 * check-up." (the reason from an `about`, `reason` or `purpose` value; without one the sentence ends after
 * the organisation). An agent named like its organisation says the name once.
 */
export function outboundOpening(input: OutboundOpeningInput): string {
  const own = input.greeting?.trim() ? fillVariables(input.greeting, input.values).trim() : "";
  if (own) return own;
  const agent = input.agentName.trim();
  const organization = input.organizationName.trim();
  const who =
    !agent || agent.toLowerCase() === organization.toLowerCase()
      ? organization
      : organization
        ? `${agent} from ${organization}`
        : agent;
  const reason = OUTBOUND_REASON_KEYS.map((key) => variableValue(input.values, key)).find(Boolean);
  const verb = input.channel === "call" ? "calling" : "texting";
  const about = reason ? `, ${verb} about ${reason.replace(/[.!?\s]+$/, "")}` : "";
  return `Hi, this is ${who}${about}.`;
}
