import type { CampaignFields } from "@switchboard/api";
import { fillVariables, isoInZone, isValidTimeZone, outboundOpening } from "@switchboard/core";
import { CURRENT_TIME_LABEL, PROMPT_SECTIONS } from "../../providers/llm/prompt-sections.ts";

export type Channel = "web" | "sms" | "voice";

const CHANNEL_RULES: Record<Channel, string> = {
  web: "Channel: web chat. Write short, friendly messages; plain text, no markdown headings.",
  sms: "Channel: SMS text messages. Keep each answer under 320 characters, plain text, no markdown.",
  voice:
    "Channel: a phone call; your words are spoken aloud. Use short sentences, no lists, no markdown, spell out numbers naturally.",
};

export type PromptInput = {
  agentName: string;
  organizationName: string;
  campaign: Pick<
    CampaignFields,
    "agentInstructions" | "greeting" | "variables" | "timezone" | "language" | "confirmTransfers"
  > &
    Partial<Pick<CampaignFields, "outboundGreeting">>;
  channel: Channel;
  /** `outbound` when the agent started the conversation (a task's call or text). Default `inbound`. */
  direction?: "inbound" | "outbound";
  /** ms epoch */
  now: number;
};

/**
 * What the agent says first, variables filled in: its greeting when someone calls or writes to it; on a call
 * or text it started, its outbound greeting or "Hi, this is <agent> from <organisation>, calling about …".
 * Empty when an inbound agent has no greeting.
 */
export function openingLine(input: Omit<PromptInput, "now">): string {
  const { campaign } = input;
  const values = campaign.variables ?? {};
  if (input.direction === "outbound")
    return outboundOpening({
      agentName: input.agentName,
      organizationName: input.organizationName,
      channel: input.channel === "voice" ? "call" : "text",
      greeting: campaign.outboundGreeting ?? null,
      values,
    });
  return campaign.greeting ? fillVariables(campaign.greeting, values).trim() : "";
}

/** The agent's time zone when it names a real zone, else UTC. */
export function agentTimeZone(timezone: string | null | undefined): string {
  return timezone && isValidTimeZone(timezone) ? timezone : "UTC";
}

/**
 * The greeting of a stored campaign configuration for people who come to the agent (public page, widget,
 * messaging profile), its variables filled in; null when it has none.
 */
export function storedGreeting(config: Readonly<Record<string, unknown>> | null | undefined): string | null {
  const greeting = config?.greeting;
  if (typeof greeting !== "string" || !greeting.trim()) return null;
  const stored = config?.variables;
  const values: Record<string, string> = {};
  if (stored && typeof stored === "object")
    for (const [key, value] of Object.entries(stored)) if (typeof value === "string") values[key] = value;
  return fillVariables(greeting, values).trim() || null;
}

/**
 * The system prompt of every turn: who the agent is, the current date and time in its time zone, its
 * language and channel, the rules for tools, then its greeting and its instructions with the template
 * variables filled in.
 */
export function buildSystemPrompt(input: PromptInput): string {
  const { campaign } = input;
  const timeZone = agentTimeZone(campaign.timezone);
  const spoken = new Intl.DateTimeFormat("en-US", {
    timeZone,
    weekday: "long",
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
  }).format(new Date(input.now));
  const instructions = fillVariables(campaign.agentInstructions, campaign.variables ?? {}).trim();
  const greeting = openingLine(input);
  const outbound = input.direction === "outbound";
  const language = campaign.language || "en-US";
  const lines = [
    `You are ${input.agentName}, the AI agent of ${input.organizationName}.`,
    `${CURRENT_TIME_LABEL} ${spoken} (${isoInZone(input.now, timeZone)}), time zone ${timeZone}.`,
    `Language: answer in ${language} unless the person writes in another language.`,
    CHANNEL_RULES[input.channel],
    ...(outbound
      ? [
          "You started this conversation: the person did not contact you. Never thank them for calling or writing; if asked, say who you are and why you are reaching out.",
        ]
      : []),
    "Use the tools when the person asks for what they do. Give dates and times in the agent's time zone; pass start times as ISO 8601 with the UTC offset. If a tool refuses the arguments, correct them or ask the person.",
    campaign.confirmTransfers
      ? "Before transferring, ask the person to confirm that they want to be transferred."
      : "",
    "",
  ];
  if (greeting) lines.push(PROMPT_SECTIONS.greeting, greeting, "");
  lines.push(PROMPT_SECTIONS.instructions, instructions || "(No instructions yet.)");
  return lines.filter((line, index, all) => line !== "" || all[index - 1] !== "").join("\n");
}
