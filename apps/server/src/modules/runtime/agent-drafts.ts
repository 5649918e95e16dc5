import type { generateAgentDraft, PromptSuggestion, TemplateField } from "@switchboard/api";
import { fillVariables } from "@switchboard/core";
import { generateText, Output } from "ai";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import type { Access } from "../../access/access.ts";
import { ApiError, badRequest } from "../../api-error.ts";
import type { ResolvedModel } from "../../providers/llm/language-model.ts";
import { describeModelFailure } from "../../providers/llm/llm-errors.ts";
import { type AgentsService, type TemplatesService, variablesFrom } from "../agents/index.ts";
import type { ConversationsRepository } from "../conversations/index.ts";
import { displayName } from "./agent-turn.ts";
import { type ModelSettingsService, organizationOf } from "./model-settings.service.ts";

/**
 * The model as the agent builder's assistant: drafting an agent's instructions at onboarding (GENERATE_AGENT)
 * and reviewing them (the suggestions panel). The sandbox fills the template with the field values and checks
 * the three things every receptionist prompt needs: a greeting, business hours and a transfer rule.
 */

type DraftBody = z.output<NonNullable<(typeof generateAgentDraft)["body"]>>;

type Deps = {
  agents: AgentsService;
  templates: TemplatesService;
  models: ModelSettingsService;
  conversations: ConversationsRepository;
  loadAccount: (id: number) => Promise<{ details: unknown; username: string } | null>;
  log: FastifyBaseLogger;
};

const fieldText = (value: unknown): string | null => {
  if (value === null || value === undefined) return null;
  const text = Array.isArray(value) ? value.map(String).join(", ") : String(value);
  return text.trim() === "" ? null : text.trim();
};

const HAS_GREETING = /\b(greet|greeting|hello|hi there|thank you for calling|thanks for calling|welcome)\b/i;
const HAS_HOURS =
  /\b(hours|opening|open (from|until|between|daily|on)|closed on|(mon|tue|wed|thu|fri|sat|sun)[a-z]*\s*[-–]\s*(mon|tue|wed|thu|fri|sat|sun)|\d{1,2}\s*(am|pm)\s*[-–]\s*\d{1,2}\s*(am|pm)|24\/7)\b/i;
const HAS_TRANSFER =
  /\b(transfer|forward|put (them|the caller|callers) through|connect (them|the caller|callers))\b/i;

/** The sandbox's review: a greeting, business hours and a transfer rule. */
export function sandboxSuggestions(
  instructions: string,
  greeting: string | null | undefined,
): PromptSuggestion[] {
  const suggestions: PromptSuggestion[] = [];
  if (!greeting?.trim() && !HAS_GREETING.test(instructions))
    suggestions.push({
      id: "greeting",
      title: "Add a greeting",
      detail:
        'Callers hear the greeting first. Set one in the agent\'s greeting, e.g. "Thank you for calling, how can I help you today?"',
    });
  if (!HAS_HOURS.test(instructions))
    suggestions.push({
      id: "business-hours",
      title: "Add your business hours",
      detail:
        'Say when you are open, e.g. "Opening hours: Mon-Fri 8am-5pm", so the agent can answer and book within them.',
    });
  if (!HAS_TRANSFER.test(instructions))
    suggestions.push({
      id: "transfer-rule",
      title: "Say when to transfer",
      detail:
        'Tell the agent when to pass a caller to a person and to which number, e.g. "Transfer urgent calls to +15035550100."',
    });
  return suggestions;
}

export function createAgentDrafts(deps: Deps) {
  async function modelFor(access: Access): Promise<ResolvedModel> {
    return deps.models.modelFor(organizationOf(access.target));
  }

  async function meter(
    access: Access,
    model: ResolvedModel,
    usage: { inputTokens?: number | undefined; outputTokens?: number | undefined },
  ) {
    const orgId = organizationOf(access.target);
    if (orgId === null) return;
    const input = usage.inputTokens ?? 0;
    const output = usage.outputTokens ?? 0;
    await deps.conversations.recordUsage({
      orgId,
      agentAccountId: access.target.accountType === "agent" ? access.target.id : null,
      channel: "web",
      provider: model.provider,
      model: model.modelId,
      inputTokens: input,
      outputTokens: output,
      totalTokens: input + output,
      steps: 1,
    });
  }

  function failed(error: unknown, model: ResolvedModel): never {
    const failure = describeModelFailure(error, model.timeoutMs);
    deps.log.error(
      { err: error, kind: failure.kind, provider: model.provider, model: model.modelId },
      "model call failed",
    );
    throw new ApiError(502, failure.message);
  }

  async function generate(access: Access, body: DraftBody) {
    const model = await modelFor(access);
    const orgId = organizationOf(access.target);
    const organization = orgId ? await deps.loadAccount(orgId) : null;
    const businessName = displayName(organization as never, "orgName");
    let instructions: string;
    let greeting: string | null = null;
    let values: Record<string, string> = {};
    if (body.method === "BUILD_FROM_TEMPLATE") {
      let templateFields: TemplateField[] = [];
      let text = body.templateInstructions;
      greeting = body.templateGreeting ?? null;
      if (body.templateId !== undefined) {
        const { template } = await deps.templates.get(access, body.templateId);
        text = template.agentInstructions;
        greeting = template.greeting;
        templateFields = template.templateFields;
      }
      if (!text?.trim()) throw badRequest("Choose a template.");
      values = variablesFrom(
        templateFields,
        body.fields.map((field) => ({ key: field.key, value: fieldText(field.value) ?? undefined })),
      );
      // A draft is the owner's to edit: a variable still without a value stays for the Variables panel.
      instructions = fillVariables(text, values, { keepMissing: true });
      greeting = greeting ? fillVariables(greeting, values, { keepMissing: true }) : null;
    } else {
      const name = body.agentName || "the AI receptionist";
      if (!body.description?.trim()) throw badRequest("description: Describe what the agent should do.");
      instructions = [
        `You are ${name}, the AI agent of ${businessName}.`,
        body.description.trim(),
        "Keep answers short and friendly. If you do not know an answer, say so and offer to take a message.",
      ].join("\n");
      greeting = `Hi, you've reached ${businessName}. How can I help you today?`;
    }
    if (model.provider === "sandbox") {
      return { success: true as const, agentInstructions: instructions, greeting, model: model.label };
    }
    try {
      const result = await generateText({
        model: model.languageModel,
        maxRetries: model.maxRetries,
        timeout: model.timeoutMs,
        system:
          "You write the instructions (system prompt) of AI phone and SMS agents for small businesses. Answer with the instructions only: plain text, second person, with the business facts, hours and rules for booking and transferring. Use only the facts given: never invent prices, policies, services, hours or answers the owner did not give; for questions the facts do not answer, tell the agent to say so and offer to take a message.",
        prompt: [
          `Business: ${businessName}.`,
          body.method === "BUILD_FROM_TEMPLATE"
            ? `Start from this template, already filled in:\n${instructions}`
            : `What the owner wants:\n${instructions}`,
          Object.keys(values).length > 0 ? `Details: ${JSON.stringify(values)}` : "",
        ].join("\n\n"),
      });
      await meter(access, model, result.totalUsage);
      return {
        success: true as const,
        agentInstructions: result.text.trim() || instructions,
        greeting,
        model: model.label,
      };
    } catch (error) {
      failed(error, model);
    }
  }

  async function suggestions(
    access: Access,
    body: {
      agentId?: number | undefined;
      agentInstructions?: string | undefined;
      greeting?: string | null | undefined;
    },
  ) {
    const { ref } = await deps.agents.resolveAgent(access, body.agentId, "canEditOrg");
    const { staging } = await deps.agents.campaignsOf(ref);
    const instructions = body.agentInstructions ?? staging.agentInstructions;
    const greeting = body.greeting !== undefined ? body.greeting : staging.greeting;
    const model = await deps.models.modelFor(ref.orgId);
    if (model.provider === "sandbox") {
      return {
        success: true as const,
        suggestions: sandboxSuggestions(instructions, greeting),
        model: model.label,
      };
    }
    try {
      const result = await generateText({
        model: model.languageModel,
        maxRetries: model.maxRetries,
        timeout: model.timeoutMs,
        output: Output.object({
          schema: z.object({
            suggestions: z.array(z.object({ title: z.string(), detail: z.string() })).max(8),
          }),
        }),
        system:
          "You review the instructions of AI phone and SMS agents and propose concrete improvements: missing greeting, business hours, transfer rules, booking rules, common questions with answers, tone. At most 8 suggestions, each a short title and one or two sentences of detail.",
        prompt: `Greeting: ${greeting ?? "(none)"}\n\nInstructions:\n${instructions || "(empty)"}`,
      });
      await meter(access, model, result.totalUsage);
      return {
        success: true as const,
        suggestions: result.output.suggestions.map((s, index) => ({ id: `model-${index + 1}`, ...s })),
        model: model.label,
      };
    } catch (error) {
      failed(error, model);
    }
  }

  return { generate, suggestions };
}

export type AgentDrafts = ReturnType<typeof createAgentDrafts>;
