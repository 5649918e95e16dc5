import { generateAgentDraft } from "@switchboard/api";
import type { OnboardingMethod, TemplateField } from "@switchboard/core";
import { apiClient } from "../../lib/api-client.ts";

/**
 * Drafting the agent's instructions at the generate step: the configured model writes them (POST
 * /api/v2/agent/generate). From a template it starts from the template's instructions and the wizard's
 * field values (the sandbox model fills each `{key}` with its value); from scratch, from the owner's
 * description, with a greeting (a new agent has none of its own, and the first test answer is the greeting).
 */
export type DraftInput =
  | {
      method: Extract<OnboardingMethod, "BUILD_FROM_TEMPLATE">;
      /** The template's instructions with `{key}` variables. */
      templateInstructions: string;
      fields: readonly TemplateField[];
    }
  | {
      method: Extract<OnboardingMethod, "BUILD_FROM_SCRATCH">;
      agentName: string;
      /** What the owner wants the agent to do, in their words. */
      description: string;
    };

type FieldValue = string | number | boolean | string[] | null;

/** A wizard value as the draft call takes it: text, number, yes/no or a list of texts. */
function draftValue(value: unknown): FieldValue {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  return null;
}

/** The drafted instructions and the greeting the agent opens with (null when the draft has none). */
export type Draft = { agentInstructions: string; greeting: string | null };

export async function draftInstructions(input: DraftInput): Promise<Draft> {
  const body =
    input.method === "BUILD_FROM_TEMPLATE"
      ? {
          method: input.method,
          templateInstructions: input.templateInstructions,
          fields: input.fields.map((field) => ({ key: field.key, value: draftValue(field.value) })),
        }
      : { method: input.method, agentName: input.agentName, description: input.description, fields: [] };
  const answer = await apiClient.call(generateAgentDraft, { body });
  return { agentInstructions: answer.agentInstructions, greeting: answer.greeting };
}
