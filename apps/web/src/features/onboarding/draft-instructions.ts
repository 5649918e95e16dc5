import type { OnboardingMethod, TemplateField } from "@switchboard/core";

/**
 * Drafting the agent's instructions at the generate step. Today the draft is made here: from a template, its
 * instructions with every `{key}` replaced by the wizard's field values (what the sandbox model does); from
 * scratch, the owner's own description. When the server offers a model draft call, `draftInstructions` calls
 * it and keeps this as the fallback.
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

/** The field values as text by key (lists joined with ", "); empty values left out. */
export function fieldValues(fields: readonly TemplateField[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const field of fields) {
    const value = field.value;
    if (value === null || value === undefined) continue;
    const text = Array.isArray(value) ? value.map(String).join(", ") : String(value);
    if (text.trim() !== "") values[field.key] = text.trim();
  }
  return values;
}

/** `{key}` replaced by the value of the field `key`; unknown keys stay as they are. */
export function fillTemplateVariables(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{([A-Za-z0-9_.-]+)\}/g, (whole, key: string) =>
    Object.hasOwn(values, key) ? (values[key] as string) : whole,
  );
}

export async function draftInstructions(input: DraftInput): Promise<string> {
  if (input.method === "BUILD_FROM_TEMPLATE") {
    return fillTemplateVariables(input.templateInstructions, fieldValues(input.fields));
  }
  return input.description.trim();
}
