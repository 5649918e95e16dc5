import type { ModelSettings, saveModelSettings } from "@switchboard/api";
import type { z } from "zod";
import type { Access } from "../../access/access.ts";
import { badRequest } from "../../api-error.ts";
import type { LlmConfig } from "../../config.ts";
import { type Outbound, OutboundError } from "../../http/outbound.ts";
import { decryptSecret, encryptSecret, maskSecret } from "../../providers/llm/key-encryption.ts";
import {
  createLanguageModel,
  DEFAULT_MODEL_IDS,
  type LlmProvider,
  type LlmSettings,
  ModelSettingsError,
  modelLabel,
  type ResolvedModel,
} from "../../providers/llm/language-model.ts";
import type { ModelSettingsRepository, ModelSettingsRow } from "./model-settings.repository.ts";

type SaveBody = z.output<NonNullable<(typeof saveModelSettings)["body"]>>;

type Deps = {
  repo: ModelSettingsRepository;
  llm: LlmConfig;
  secretKey: string;
  /** Organisation overrides must use https in production (no requests into the server's own network). */
  production: boolean;
  /** An organisation's own model is a user-given address: reached only through the guard. */
  outbound: Pick<Outbound, "check" | "fetch">;
  now?: () => number;
};

/** The organisation an account's model settings belong to: its own for an organisation, its parent's for an agent. */
export function organizationOf(account: {
  id: number;
  accountType: string;
  organizationId: number | null;
}): number | null {
  if (account.accountType === "organization") return account.id;
  if (account.accountType === "agent") return account.organizationId;
  return null;
}

function modelIdOf(provider: LlmProvider, model: string | null | undefined): string {
  if (provider === "sandbox") return "sandbox";
  if (model) return model;
  return provider === "openai-compatible" ? "" : DEFAULT_MODEL_IDS[provider];
}

export function createModelSettingsService(deps: Deps) {
  const { repo } = deps;
  const limits = { timeoutMs: deps.llm.timeoutMs, maxRetries: deps.llm.maxRetries };

  function deploymentSettings(): LlmSettings {
    return {
      provider: deps.llm.provider,
      baseUrl: deps.llm.baseUrl,
      apiKey: deps.llm.apiKey,
      model: deps.llm.model,
      ...limits,
    };
  }

  function rowSettings(row: ModelSettingsRow): LlmSettings {
    return {
      provider: row.provider as LlmProvider,
      baseUrl: row.baseUrl ?? undefined,
      model: row.model ?? undefined,
      apiKey: row.apiKeyEncrypted ? decryptSecret(deps.secretKey, row.apiKeyEncrypted) : undefined,
      fetch: deps.outbound.fetch,
      ...limits,
    };
  }

  /** The model an organisation's agents use now: its own settings, else the deployment's. */
  async function modelFor(orgId: number | null): Promise<ResolvedModel> {
    const row = orgId === null ? null : await repo.find(orgId);
    return createLanguageModel(row ? rowSettings(row) : deploymentSettings(), deps.now);
  }

  function view(row: ModelSettingsRow | null): ModelSettings {
    if (!row) {
      const provider = deps.llm.provider;
      const modelId = modelIdOf(provider, deps.llm.model);
      return {
        source: "deployment",
        provider,
        baseUrl: provider === "sandbox" ? null : (deps.llm.baseUrl ?? null),
        model: provider === "sandbox" ? null : modelId,
        apiKey: deps.llm.apiKey && provider !== "sandbox" ? maskSecret(deps.llm.apiKey) : null,
        label: modelLabel(provider, modelId),
      };
    }
    const provider = row.provider as LlmProvider;
    const modelId = modelIdOf(provider, row.model);
    return {
      source: "organization",
      provider,
      baseUrl: row.baseUrl,
      model: provider === "sandbox" ? null : modelId,
      apiKey: row.apiKeyHint,
      label: modelLabel(provider, modelId),
    };
  }

  function orgOf(access: Access): number {
    const orgId = organizationOf(access.target);
    if (orgId === null) throw badRequest("Model settings belong to an organisation: choose one.");
    return orgId;
  }

  async function get(access: Access) {
    return { success: true as const, settings: view(await repo.find(orgOf(access))) };
  }

  async function save(access: Access, body: SaveBody) {
    const orgId = orgOf(access);
    if (body.provider === "default") {
      await repo.remove(orgId);
      return { success: true as const, settings: view(null) };
    }
    const current = await repo.find(orgId);
    const sameProvider = current?.provider === body.provider;
    let apiKeyEncrypted = sameProvider ? (current?.apiKeyEncrypted ?? null) : null;
    let apiKeyHint = sameProvider ? (current?.apiKeyHint ?? null) : null;
    if (body.apiKey !== undefined) {
      apiKeyEncrypted = body.apiKey ? encryptSecret(deps.secretKey, body.apiKey) : null;
      apiKeyHint = body.apiKey ? maskSecret(body.apiKey) : null;
    }
    const baseUrl =
      body.baseUrl === undefined ? (sameProvider ? (current?.baseUrl ?? null) : null) : body.baseUrl;
    const model = body.model === undefined ? (sameProvider ? (current?.model ?? null) : null) : body.model;
    if (baseUrl && deps.production && !baseUrl.startsWith("https://"))
      throw badRequest("baseUrl: the model's address must use https.");
    if (baseUrl && body.provider !== "sandbox") {
      try {
        await deps.outbound.check(baseUrl);
      } catch (error) {
        if (error instanceof OutboundError) throw badRequest(`baseUrl: ${error.message}`);
        throw error;
      }
    }
    const candidate: ModelSettingsRow = {
      orgId,
      provider: body.provider,
      baseUrl: body.provider === "sandbox" ? null : baseUrl,
      model: body.provider === "sandbox" ? null : model,
      apiKeyEncrypted: body.provider === "sandbox" ? null : apiKeyEncrypted,
      apiKeyHint: body.provider === "sandbox" ? null : apiKeyHint,
      updatedAt: new Date(),
    };
    try {
      createLanguageModel(rowSettings(candidate));
    } catch (error) {
      if (error instanceof ModelSettingsError) throw badRequest(error.message);
      throw error;
    }
    const { updatedAt: _updatedAt, ...values } = candidate;
    return { success: true as const, settings: view(await repo.save(values)) };
  }

  return { modelFor, get, save };
}

export type ModelSettingsService = ReturnType<typeof createModelSettingsService>;
