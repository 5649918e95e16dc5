import type { CampaignFields } from "@switchboard/api";
import { isoInZone, isValidTimeZone } from "@switchboard/core";
import { CURRENT_TIME_LABEL, PROMPT_SECTIONS } from "../../providers/llm/prompt-sections.ts";
import { replaceTemplateVariables } from "../agents/templates.service.ts";

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
  >;
  channel: Channel;
  /** ms epoch */
  now: number;
};

/** The agent's time zone when it names a real zone, else UTC. */
export function agentTimeZone(timezone: string | null | undefined): string {
  return timezone && isValidTimeZone(timezone) ? timezone : "UTC";
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
  const variables = campaign.variables ?? {};
  const instructions = replaceTemplateVariables(campaign.agentInstructions, variables).trim();
  const greeting = campaign.greeting ? replaceTemplateVariables(campaign.greeting, variables).trim() : "";
  const language = campaign.language || "en-US";
  const lines = [
    `You are ${input.agentName}, the AI agent of ${input.organizationName}.`,
    `${CURRENT_TIME_LABEL} ${spoken} (${isoInZone(input.now, timeZone)}), time zone ${timeZone}.`,
    `Language: answer in ${language} unless the person writes in another language.`,
    CHANNEL_RULES[input.channel],
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
