import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { createSandboxModel, SANDBOX_LABEL } from "./sandbox-model.ts";

export type LlmProvider = "sandbox" | "openai" | "openai-compatible" | "anthropic";

/** Which model to use and how to reach it: the deployment's (LLM_*) or an organisation's own. */
export type LlmSettings = {
  provider: LlmProvider;
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
  model?: string | undefined;
  /** Per model call (one step of a turn), connect to end of stream. */
  timeoutMs: number;
  /** Retries of a retryable failure (429, 5xx, network) before the turn fails. */
  maxRetries: number;
  /** How the provider reaches the model: the guarded outbound fetch for an organisation's own address. */
  fetch?: typeof fetch | undefined;
};

/** A language model ready for the engine, with the name shown next to its answers. */
export type ResolvedModel = {
  languageModel: LanguageModelV3;
  provider: LlmProvider;
  modelId: string;
  label: string;
  timeoutMs: number;
  maxRetries: number;
};

export const DEFAULT_MODEL_IDS: Record<Exclude<LlmProvider, "sandbox" | "openai-compatible">, string> = {
  openai: "gpt-4o-mini",
  anthropic: "claude-3-5-haiku-latest",
};

export function modelLabel(provider: LlmProvider, modelId: string): string {
  return provider === "sandbox" ? SANDBOX_LABEL : `${provider}:${modelId}`;
}

/** Settings that cannot reach a model (a key or an address missing). */
export class ModelSettingsError extends Error {
  override name = "ModelSettingsError";
}

/** Builds the AI SDK model for the settings: one engine path whatever the provider. */
export function createLanguageModel(settings: LlmSettings, now?: () => number): ResolvedModel {
  const base = { timeoutMs: settings.timeoutMs, maxRetries: settings.maxRetries };
  switch (settings.provider) {
    case "sandbox":
      return {
        ...base,
        languageModel: createSandboxModel(now),
        provider: "sandbox",
        modelId: "sandbox",
        label: SANDBOX_LABEL,
      };
    case "openai": {
      if (!settings.apiKey) throw new ModelSettingsError("The OpenAI model needs an API key.");
      const modelId = settings.model ?? DEFAULT_MODEL_IDS.openai;
      const openai = createOpenAI({
        apiKey: settings.apiKey,
        ...(settings.fetch ? { fetch: settings.fetch } : {}),
        ...(settings.baseUrl ? { baseURL: settings.baseUrl } : {}),
      });
      // Chat completions: the protocol every OpenAI-compatible server speaks too.
      return {
        ...base,
        languageModel: openai.chat(modelId),
        provider: "openai",
        modelId,
        label: modelLabel("openai", modelId),
      };
    }
    case "openai-compatible": {
      if (!settings.baseUrl) throw new ModelSettingsError("The OpenAI-compatible model needs a base URL.");
      if (!settings.model) throw new ModelSettingsError("The OpenAI-compatible model needs a model name.");
      const compatible = createOpenAICompatible({
        name: "openai-compatible",
        baseURL: settings.baseUrl,
        ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
        ...(settings.fetch ? { fetch: settings.fetch } : {}),
        includeUsage: true,
      });
      return {
        ...base,
        languageModel: compatible.chatModel(settings.model),
        provider: "openai-compatible",
        modelId: settings.model,
        label: modelLabel("openai-compatible", settings.model),
      };
    }
    case "anthropic": {
      if (!settings.apiKey) throw new ModelSettingsError("The Anthropic model needs an API key.");
      const modelId = settings.model ?? DEFAULT_MODEL_IDS.anthropic;
      const anthropic = createAnthropic({
        apiKey: settings.apiKey,
        ...(settings.fetch ? { fetch: settings.fetch } : {}),
        ...(settings.baseUrl ? { baseURL: settings.baseUrl } : {}),
      });
      return {
        ...base,
        languageModel: anthropic(modelId),
        provider: "anthropic",
        modelId,
        label: modelLabel("anthropic", modelId),
      };
    }
  }
}
