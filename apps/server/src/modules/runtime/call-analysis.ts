import type {
  AnalysisField,
  CallAnalysis,
  CallAnalysisSettings,
  CampaignFields,
  ToolCall,
  ToolResult,
} from "@switchboard/api";
import { ANALYSIS_DATA_KEYS, redactDeep } from "@switchboard/core";
import { generateText, Output } from "ai";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import type { AccessResolver } from "../../access/access.ts";
import type { JobRunner } from "../../jobs/runner.ts";
import type { ResolvedModel } from "../../providers/llm/language-model.ts";
import { SANDBOX_MESSAGES } from "../../providers/llm/sandbox-responder.ts";
import type { ConversationsRepository } from "../conversations/index.ts";
import type { WebhookEvents } from "../webhooks/index.ts";
import type { AgentLookups } from "./agent-lookups.ts";
import { displayName } from "./agent-turn.ts";
import { analyzeConversationJob } from "./jobs.ts";
import { analysable } from "./quiet-texts.ts";

/**
 * Post-call analysis (issue 35 item 3). When a call or a chat ends, a job (`analyzeConversationJob`) reads
 * the conversation as stored (already redacted when the organisation redacts) and writes: a summary, the
 * verdict against the agent's success rule, and the fields the agent defines, into the log row's data
 * (core ANALYSIS_DATA_KEYS, each field under its own name: log filters, columns, exports, metrics and the
 * tasks read them there), onto the conversation (`outcome.analysis`, shown in Calls), and as the
 * `call.analyzed` webhook. A real model is asked for JSON of exactly those fields (structured output); the
 * sandbox model determines what it can from what happened (a booking, a transfer, a text sent, collected
 * data, phone numbers, e-mail addresses, yes or no answers, numbers and listed values in what the person
 * said) and names what it could not.
 */

export type AnalysisMessage = {
  role: string;
  text: string;
  toolCalls: ToolCall[];
  toolResults: ToolResult[];
};

export type AnalysisInput = {
  channel: string;
  /** `outbound` when the agent placed the call or started the conversation. */
  direction?: string;
  agentName: string;
  messages: AnalysisMessage[];
  collected: Record<string, unknown>;
  outcome: Record<string, unknown>;
  /** The log row's data (callOutcome of a call). */
  logData: Record<string, unknown>;
  settings: CallAnalysisSettings;
};

export type AnalysisResult = Omit<CallAnalysis, "model" | "analyzedAt">;
type FieldValue = string | number | boolean;

const SUCCESS = "success";

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** What happened, as the tools and the call recorded it. */
function factsOf(input: AnalysisInput) {
  const results = input.messages.flatMap((message) => message.toolResults);
  const ran = (name: string) => results.some((result) => result.name === name && !result.error);
  const booked = input.collected.appointmentBooked === true || ran("bookAppointment");
  const transferred =
    input.outcome.transferred !== undefined || input.collected.transferred === true || ran("transferCall");
  const smsSent = Number(input.collected.smsSent ?? 0) > 0 || ran("sendSms");
  const collectedKeys = Object.keys(input.collected).filter(
    (key) => !["appointmentBooked", "appointmentTime", "transferred", "smsSent"].includes(key),
  );
  const personTexts = input.messages.filter((m) => m.role === "user" && m.text.trim()).map((m) => m.text);
  // The agent's answers to the person: those after a person's message (not the greeting).
  const answers: string[] = [];
  input.messages.forEach((message, index) => {
    if (message.role !== "assistant" || !message.text.trim()) return;
    if (input.messages.slice(0, index).some((m) => m.role === "user")) answers.push(message.text);
  });
  const unhelped = answers.filter((text) => text.startsWith(SANDBOX_MESSAGES.fallback.slice(0, 30)));
  return { booked, transferred, smsSent, collectedKeys, personTexts, answers, unhelped };
}

type Facts = ReturnType<typeof factsOf>;

function summaryOf(input: AnalysisInput, facts: Facts): string {
  const kind = input.channel === "voice" ? "call" : "chat";
  const person = input.channel === "voice" && input.direction !== "outbound" ? "caller" : "person";
  const parts: string[] = [];
  const first = facts.personTexts[0];
  parts.push(
    first
      ? `The ${person} talked with ${input.agentName} and began with: “${clip(first, 160)}”.`
      : `The ${person} said nothing ${input.agentName} could answer.`,
  );
  if (facts.booked)
    parts.push(
      typeof input.collected.appointmentTime === "string"
        ? `An appointment was booked for ${input.collected.appointmentTime}.`
        : "An appointment was booked.",
    );
  if (facts.transferred) parts.push(`The ${kind} was transferred.`);
  if (facts.smsSent) parts.push("A text message was sent.");
  if (facts.collectedKeys.length > 0) parts.push(`The agent collected: ${facts.collectedKeys.join(", ")}.`);
  if (facts.unhelped.length > 0)
    parts.push(`The agent could not help with ${facts.unhelped.length} of ${facts.answers.length} requests.`);
  const ending = input.logData.callOutcome;
  if (input.outcome.ended !== undefined || ending === "agent-ended")
    parts.push(`The agent ended the ${kind}.`);
  else if (ending === "caller-hangup") parts.push(`The ${person} hung up.`);
  else if (ending === "idle") parts.push(`The call ended after the ${person} stayed silent.`);
  return parts.join(" ");
}

/** A clause of the success rule as something the sandbox can check, or null when it cannot. */
function clauseValue(clause: string, facts: Facts): { value: boolean; what: string } | null {
  const c = clause.toLowerCase();
  if (/book|appointment|schedul|reserv/.test(c))
    return { value: facts.booked, what: facts.booked ? "an appointment was booked" : "nothing was booked" };
  if (/transfer|put through|to a (person|human)|to someone/.test(c))
    return {
      value: facts.transferred,
      what: facts.transferred ? "the conversation was transferred" : "it was not transferred",
    };
  if (/\b(text|sms)\b/.test(c))
    return { value: facts.smsSent, what: facts.smsSent ? "a text was sent" : "no text was sent" };
  if (/collect|took a message|take a message|left a message|captur|details/.test(c)) {
    const value = facts.collectedKeys.length > 0;
    return { value, what: value ? "the agent collected details" : "nothing was collected" };
  }
  if (/answer|question|help/.test(c)) {
    if (facts.answers.length === 0) return { value: false, what: "the agent answered nothing" };
    const last = facts.answers.at(-1) ?? "";
    const value = facts.answers.length > facts.unhelped.length && !facts.unhelped.includes(last);
    return {
      value,
      what: value
        ? "the agent answered the questions it was asked"
        : "the agent could not help with the request",
    };
  }
  return null;
}

function verdictOf(rule: string | null, facts: Facts): { successful: boolean | null; evaluation: string } {
  if (!rule) return { successful: null, evaluation: "No success rule is set for this agent." };
  const all = /\band\b/i.test(rule) && !/\bor\b/i.test(rule);
  const clauses = rule
    .split(/\s*(?:\bor\b|\band\b|,|;|\/)\s*/i)
    .map((clause) => clause.trim())
    .filter((clause) => /[a-z]/i.test(clause));
  const judged = clauses.map((clause) => ({ clause, judged: clauseValue(clause, facts) }));
  const known = judged.filter((j) => j.judged !== null);
  const unknown = judged.filter((j) => j.judged === null).map((j) => `“${j.clause}”`);
  const reasons = known.map((j) => j.judged?.what).join("; ");
  // (reasons: every clause judged, for a verdict that could not be reached)
  const cannot = unknown.length > 0 ? ` The sandbox model cannot judge ${unknown.join(", ")}.` : "";
  const hit = known.some((j) => j.judged?.value);
  const miss = known.some((j) => j.judged && !j.judged.value);
  let successful: boolean | null;
  if (all) successful = miss ? false : unknown.length === 0 && known.length > 0 ? true : null;
  else successful = hit ? true : unknown.length === 0 && known.length > 0 ? false : null;
  if (successful === null)
    return { successful, evaluation: `Could not be determined${reasons ? `: ${reasons}.` : "."}${cannot}` };
  const deciding = known.filter((j) => j.judged?.value === successful).map((j) => j.judged?.what);
  const others = known.filter((j) => j.judged?.value !== successful).map((j) => j.judged?.what);
  const also = others.length > 0 ? ` (${others.join("; ")}.)` : "";
  return {
    successful,
    evaluation: `${successful ? "Met" : "Not met"}: ${deciding.join("; ")}.${also}${cannot}`,
  };
}

/** The words of a field's name and description ("callbackNumber" → callback, number). */
function wordsOf(field: AnalysisField): string[] {
  return `${field.name.replace(/([a-z])([A-Z])/g, "$1 $2")} ${field.description}`
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 2 && !["the", "and", "for", "was", "did", "has", "with"].includes(word));
}

const PHONE = /(?:\+?\d[\d ().-]{5,}\d)/;
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
const YES = /^\s*(yes|yeah|yep|sure|correct|right|absolutely|of course|it is|i do|please do)\b/i;
const NO = /^\s*(no|nope|not really|nah|it isn'?t|i don'?t)\b/i;
const URGENT =
  /\b(urgent|urgently|emergency|asap|as soon as possible|right away|immediately|severe|bleeding)\b/i;

function collectedValue(field: AnalysisField, collected: Record<string, unknown>): FieldValue | null {
  const key = Object.keys(collected).find((k) => k.toLowerCase() === field.name.toLowerCase());
  const value = key ? collected[key] : undefined;
  if (value === undefined || value === null || value === "") return null;
  return coerce(field, value);
}

function coerce(field: AnalysisField, value: unknown): FieldValue | null {
  if (field.type === "boolean") {
    if (typeof value === "boolean") return value;
    if (typeof value === "string" && /^(true|yes)$/i.test(value)) return true;
    if (typeof value === "string" && /^(false|no)$/i.test(value)) return false;
    return null;
  }
  if (field.type === "number") {
    const n = typeof value === "number" ? value : Number(String(value).replace(/[^\d.-]/g, ""));
    return Number.isFinite(n) && String(value).trim() !== "" ? n : null;
  }
  const text = typeof value === "string" ? value : JSON.stringify(value);
  if (field.type === "enum") return field.options.find((o) => o.toLowerCase() === text.toLowerCase()) ?? null;
  return text;
}

/** A yes or no the person gave right after the agent asked about the field. */
function yesNoAnswer(field: AnalysisField, messages: AnalysisMessage[]): boolean | null {
  const words = wordsOf(field);
  for (let i = 0; i < messages.length - 1; i++) {
    const asked = messages[i];
    const reply = messages[i + 1];
    if (asked?.role !== "assistant" || reply?.role !== "user" || !asked.text.includes("?")) continue;
    if (!words.some((word) => asked.text.toLowerCase().includes(word))) continue;
    if (YES.test(reply.text)) return true;
    if (NO.test(reply.text)) return false;
  }
  return null;
}

function fieldValue(field: AnalysisField, input: AnalysisInput, facts: Facts): FieldValue | null {
  const fromTools = collectedValue(field, input.collected);
  if (fromTools !== null) return fromTools;
  const words = wordsOf(field);
  const has = (...w: string[]) => w.some((x) => words.some((word) => word.startsWith(x)));
  const said = facts.personTexts;
  switch (field.type) {
    case "boolean": {
      if (has("book", "appointment")) return facts.booked;
      if (has("transfer")) return facts.transferred;
      if (has("sms", "text")) return facts.smsSent;
      const answer = yesNoAnswer(field, input.messages);
      if (answer !== null) return answer;
      if (has("urgent", "emergency")) return said.some((text) => URGENT.test(text));
      return null;
    }
    case "number": {
      for (const text of said) {
        const lower = text.toLowerCase();
        if (!words.some((word) => lower.includes(word))) continue;
        const match = lower.match(/-?\d+(?:\.\d+)?/);
        if (match) return Number(match[0]);
      }
      return null;
    }
    case "enum": {
      for (const text of said)
        for (const option of field.options)
          if (new RegExp(`\\b${option.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`, "i").test(text))
            return option;
      return null;
    }
    default: {
      if (has("phone", "number", "callback", "mobile", "cell")) {
        for (const text of said) {
          const match = text.match(PHONE);
          if (match && match[0].replace(/\D/g, "").length >= 7) return match[0].trim();
          if (text.includes("[phone number]")) return "[phone number]";
        }
        return null;
      }
      if (has("email", "mail")) {
        for (const text of said) {
          const match = text.match(EMAIL);
          if (match) return match[0];
          if (text.includes("[email address]")) return "[email address]";
        }
        return null;
      }
      if (has("reason", "purpose", "why", "request", "topic", "about", "issue", "problem", "need"))
        return said[0] ? clip(said[0], 200) : null;
      return null;
    }
  }
}

/** The sandbox model's analysis: what the conversation's record shows, and what it cannot tell. */
export function sandboxAnalysis(input: AnalysisInput): AnalysisResult {
  const facts = factsOf(input);
  const verdict = verdictOf(input.settings.successRule, facts);
  const fields: Record<string, FieldValue> = {};
  const undetermined: string[] = [];
  if (input.settings.successRule && verdict.successful === null) undetermined.push(SUCCESS);
  for (const field of input.settings.fields) {
    const value = fieldValue(field, input, facts);
    if (value === null) undetermined.push(field.name);
    else fields[field.name] = value;
  }
  return {
    summary: summaryOf(input, facts),
    successful: verdict.successful,
    successEvaluation: verdict.evaluation,
    fields,
    undetermined,
  };
}

function transcriptText(messages: AnalysisMessage[]): string {
  const lines: string[] = [];
  for (const message of messages) {
    const who = message.role === "user" ? "Person" : message.role === "assistant" ? "Agent" : "Operator";
    if (message.text.trim()) lines.push(`${who}: ${message.text.trim()}`);
    for (const result of message.toolResults)
      lines.push(`[tool ${result.name}: ${result.error ? `failed: ${result.error}` : result.summary}]`);
  }
  return lines.join("\n") || "(nothing was said)";
}

function fieldSchema(field: AnalysisField) {
  const base =
    field.type === "number"
      ? z.number()
      : field.type === "boolean"
        ? z.boolean()
        : field.type === "enum"
          ? z.enum(field.options as [string, ...string[]])
          : z.string();
  return base.nullable().describe(field.description || field.name);
}

/** A real model's analysis: one call asking for JSON of exactly the agent's fields (null: not determined). */
export async function modelAnalysis(
  model: ResolvedModel,
  input: AnalysisInput,
): Promise<{ result: AnalysisResult; usage: { inputTokens: number; outputTokens: number } }> {
  const { settings } = input;
  const schema = z.object({
    summary: z.string().describe("Two or three sentences on what happened"),
    successful: z
      .boolean()
      .nullable()
      .describe(
        "Whether the conversation met the success rule; null when there is no rule or it cannot be told",
      ),
    successEvaluation: z.string().describe("One sentence: why"),
    fields: z.object(Object.fromEntries(settings.fields.map((field) => [field.name, fieldSchema(field)]))),
  });
  const answer = await generateText({
    model: model.languageModel,
    maxRetries: model.maxRetries,
    timeout: model.timeoutMs,
    output: Output.object({ schema }),
    system:
      "You analyse a finished conversation between an AI agent and a person (a phone call or a chat). Answer with the JSON asked for. Use only what the transcript shows; give null for a field the transcript does not determine. Text in [brackets] such as [card number] was removed for privacy: never guess it.",
    prompt: [
      `Agent: ${input.agentName}. Channel: ${input.channel}.`,
      `Success rule: ${settings.successRule ?? "(none: answer null)"}`,
      settings.fields.length > 0
        ? `Fields:\n${settings.fields
            .map(
              (f) =>
                `- ${f.name} (${f.type}${f.type === "enum" ? `: ${f.options.join(" | ")}` : ""}): ${f.description}`,
            )
            .join("\n")}`
        : "Fields: none.",
      `Transcript:\n${transcriptText(input.messages)}`,
    ].join("\n\n"),
  });
  const output = answer.output;
  const fields: Record<string, FieldValue> = {};
  const undetermined: string[] = [];
  if (settings.successRule && output.successful === null) undetermined.push(SUCCESS);
  for (const field of settings.fields) {
    const value = (output.fields as Record<string, unknown>)[field.name];
    const coerced = value === null || value === undefined ? null : coerce(field, value);
    if (coerced === null) undetermined.push(field.name);
    else fields[field.name] = coerced;
  }
  return {
    result: {
      summary: output.summary,
      successful: settings.successRule ? output.successful : null,
      successEvaluation: settings.successRule
        ? output.successEvaluation
        : "No success rule is set for this agent.",
      fields,
      undetermined,
    },
    usage: {
      inputTokens: answer.totalUsage.inputTokens ?? 0,
      outputTokens: answer.totalUsage.outputTokens ?? 0,
    },
  };
}

/** The log data keys an analysis writes (each defined field under its own name). */
export function analysisLogData(analysis: CallAnalysis): Record<string, unknown> {
  return {
    ...analysis.fields,
    [ANALYSIS_DATA_KEYS.summary]: analysis.summary,
    ...(analysis.successful !== null ? { [ANALYSIS_DATA_KEYS.successful]: analysis.successful } : {}),
    [ANALYSIS_DATA_KEYS.evaluation]: analysis.successEvaluation,
    [ANALYSIS_DATA_KEYS.undetermined]: analysis.undetermined.join(", "),
    [ANALYSIS_DATA_KEYS.analyzedAt]: new Date(analysis.analyzedAt).toISOString(),
  };
}

type Deps = {
  conversations: ConversationsRepository;
  lookups: AgentLookups;
  access: Pick<AccessResolver, "loadAccount">;
  jobs: JobRunner;
  webhooks?: WebhookEvents;
  log: FastifyBaseLogger;
  /** A text conversation quiet this long may be analysed before it ends (quiet-texts.ts). */
  textQuietMs?: number;
  now?: () => number;
};

export function createCallAnalysis(deps: Deps) {
  const { conversations, lookups } = deps;
  const now = deps.now ?? Date.now;

  /** A call or chat ended: its analysis is queued. Never throws into the call or chat that ended. */
  async function conversationEnded(uuid: string | null | undefined): Promise<void> {
    if (!uuid) return;
    try {
      await deps.jobs.send(analyzeConversationJob, { uuid });
    } catch (error) {
      deps.log.error({ err: error, uuid }, "could not queue a conversation's analysis");
    }
  }

  async function campaignFor(agentId: number, orgId: number, stage: "staging" | "production") {
    try {
      return await lookups.campaignOf({ id: agentId, orgId }, stage);
    } catch {
      // Unpublished since: the draft's analysis settings.
      return lookups.campaignOf({ id: agentId, orgId }, "staging");
    }
  }

  /**
   * The job: analyses one ended conversation (or a text one gone quiet) and writes the analysis where the log
   * row's readers look.
   */
  async function analyze(uuid: string): Promise<CallAnalysis | null> {
    const conversation = await conversations.findConversation(uuid);
    if (!conversation || !analysable(conversation, now(), deps.textQuietMs ?? Number.POSITIVE_INFINITY))
      return null;
    const log = await conversations.findLog(uuid);
    if (!log) return null;
    const agent = await deps.access.loadAccount(conversation.agentAccountId);
    if (!agent) return null;
    const campaign: CampaignFields = await campaignFor(agent.id, conversation.orgId, conversation.stage);
    const messages = await conversations.firstMessages(uuid, 2000);
    const input: AnalysisInput = {
      channel: conversation.channel,
      direction: conversation.direction,
      agentName: displayName(agent, "agentName"),
      messages: messages.map((m) => ({
        role: m.role,
        text: m.text,
        toolCalls: (m.toolCalls ?? []) as ToolCall[],
        toolResults: (m.toolResults ?? []) as ToolResult[],
      })),
      collected: conversation.collected,
      outcome: conversation.outcome,
      logData: log.data,
      settings: campaign.analysis ?? { successRule: null, fields: [] },
    };
    const { model, error } = await lookups.modelOrNull(conversation.orgId);
    if (!model) throw new Error(error ?? "The language model is unavailable.");
    let result: AnalysisResult;
    if (model.provider === "sandbox") result = sandboxAnalysis(input);
    else {
      const answered = await modelAnalysis(model, input);
      result = answered.result;
      await conversations.recordUsage({
        orgId: conversation.orgId,
        agentAccountId: agent.id,
        roomId: conversation.roomId,
        conversationUuid: uuid,
        channel: conversation.channel,
        provider: model.provider,
        model: model.modelId,
        inputTokens: answered.usage.inputTokens,
        outputTokens: answered.usage.outputTokens,
        totalTokens: answered.usage.inputTokens + answered.usage.outputTokens,
        steps: 1,
      });
    }
    // What the organisation redacts never reaches the analysis either (a model may repeat what it read).
    const redaction = await conversations.redactionOf(conversation.orgId);
    const analysis: CallAnalysis = {
      ...(redaction ? redactDeep(result, redaction) : result),
      model: model.label,
      analyzedAt: now(),
    };
    await conversations.keepAnalysis(uuid, analysis, analysisLogData(analysis));
    await deps.webhooks?.emit(conversation.orgId, "call.analyzed", {
      callId: conversation.callId ?? conversation.uuid,
      conversationId: conversation.roomId,
      agentId: agent.id,
      channel:
        conversation.channel === "sms" || conversation.channel === "voice" ? conversation.channel : "web",
      summary: analysis.summary,
      successful: analysis.successful,
      successEvaluation: analysis.successEvaluation,
      fields: analysis.fields,
      undetermined: analysis.undetermined,
      model: analysis.model,
      analyzedAt: analysis.analyzedAt,
    });
    return analysis;
  }

  return { conversationEnded, analyze };
}

export type CallAnalysisService = ReturnType<typeof createCallAnalysis>;
