import type { AppFunction } from "@switchboard/api";
import { jsonSchema, type ToolSet, tool } from "ai";
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { findBuiltInApp } from "../agents/index.ts";
import { KNOWLEDGE_TOOL, searchKnowledgeBase, TOOL_EXECUTORS, type ToolContext } from "./tool-executors.ts";

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

const ajv = addFormats(new Ajv({ allErrors: true, strict: false, useDefaults: true }));
const validators = new Map<string, ValidateFunction>();

function validatorOf(key: string, schema: object): ValidateFunction {
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    validators.set(key, validate);
  }
  return validate;
}

/** An agent tool: the app function it runs and its JSON schema. */
export type AgentFunctionRef = { appKey: string; fn: AppFunction };

/** The enabled functions of a campaign (`appId@version` -> names) that the catalogue knows and can run. */
export function enabledFunctions(enabled: Record<string, string[]>): AgentFunctionRef[] {
  const refs: AgentFunctionRef[] = [];
  for (const [appKey, names] of Object.entries(enabled)) {
    const at = appKey.lastIndexOf("@");
    const app = at > 0 ? findBuiltInApp(appKey.slice(0, at), appKey.slice(at + 1)) : undefined;
    if (!app) continue;
    for (const fn of app.functions) {
      if (names.includes(fn.name) && TOOL_EXECUTORS[fn.name] && !refs.some((r) => r.fn.name === fn.name))
        refs.push({ appKey, fn });
    }
  }
  return refs;
}

/**
 * A function as the model sees it on this call: transferCall names the agent's transfer destinations (in
 * its description, and as the destination's `examples`, which the sandbox model reads), since the model
 * has no other way to know them.
 */
function withCallFacts(fn: AppFunction, context: ToolContext): { description: string; parameters: object } {
  const names = context.call?.destinations ?? [];
  if (fn.name !== "transferCall" || names.length === 0)
    return { description: fn.description, parameters: fn.parameters };
  const parameters = structuredClone(fn.parameters) as { properties?: Record<string, object> };
  if (parameters.properties?.destination)
    parameters.properties.destination = { ...parameters.properties.destination, examples: [...names] };
  return {
    description: `${fn.description} This agent's transfer destinations: ${names.map((name) => `"${name}"`).join(", ")}.`,
    parameters,
  };
}

/**
 * The AI SDK tools of a turn. Arguments are checked against each function's JSON schema (defaults
 * applied); a refusal goes back to the model as the tool's error, so it can correct itself.
 */
export function buildAgentTools(refs: readonly AgentFunctionRef[], context: ToolContext): ToolSet {
  const tools: ToolSet = {};
  for (const { appKey, fn } of refs) {
    const validate = validatorOf(`${appKey}:${fn.name}`, fn.parameters);
    const execute = TOOL_EXECUTORS[fn.name];
    if (!execute) continue;
    const { description, parameters } = withCallFacts(fn, context);
    tools[fn.name] = tool({
      description,
      inputSchema: jsonSchema<Record<string, unknown>>(parameters as Parameters<typeof jsonSchema>[0], {
        validate: (value) => {
          const copy = structuredClone(value);
          if (validate(copy)) return { success: true, value: copy as Record<string, unknown> };
          return {
            success: false,
            error: new Error(ajv.errorsText(validate.errors, { dataVar: "arguments", separator: "; " })),
          };
        },
      }),
      execute: (args: Record<string, unknown>) => execute(args, context),
    });
  }
  if (context.knowledge && context.knowledge.knowledgeBaseIds.length > 0) {
    tools[KNOWLEDGE_TOOL] = tool({
      description:
        "Search the organisation's knowledge base (its website and documents) for facts to answer the person's question. Answer from the passages found and name the source (its title or web address); if nothing matches, say you don't know.",
      inputSchema: jsonSchema<{ query: string }>({
        type: "object",
        properties: { query: { type: "string", description: "The question, or the words to look up" } },
        required: ["query"],
        additionalProperties: false,
      }),
      execute: (args: { query: string }) => searchKnowledgeBase(args, context),
    });
  }
  return tools;
}
