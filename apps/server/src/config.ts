import path from "node:path";
import ipaddr from "ipaddr.js";
import { z } from "zod";

const logLevels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
const llmProviders = ["sandbox", "openai", "openai-compatible", "anthropic"] as const;

/** The deployment's language model (LLM_*); organisations may set their own in their model settings. */
export type LlmConfig = {
  provider: (typeof llmProviders)[number];
  baseUrl: string | undefined;
  apiKey: string | undefined;
  model: string | undefined;
  /** Longest wait for one model call (connect to the end of its stream), per attempt. */
  timeoutMs: number;
  /** Retries of a model call that failed with a retryable error (429, 5xx, network). */
  maxRetries: number;
  /** Most model calls in one agent turn (each round of tool results is one more). */
  maxSteps: number;
};

/** Every environment variable the server reads. Nothing else reads `process.env`. */
const envSchema = z.object({
  NODE_ENV: z
    .enum(["development", "test", "production"], { message: "must be development, test or production" })
    .default("development"),
  HOST: z.string().min(1).default("127.0.0.1"),
  PORT: z.coerce
    .number({ message: "must be a whole number from 0 to 65535" })
    .int({ message: "must be a whole number from 0 to 65535" })
    .min(0, { message: "must be a whole number from 0 to 65535" })
    .max(65535, { message: "must be a whole number from 0 to 65535" })
    .default(3000),
  SIP_PORT: z.coerce
    .number({ message: "must be a whole number from 0 to 65535" })
    .int({ message: "must be a whole number from 0 to 65535" })
    .min(0, { message: "must be a whole number from 0 to 65535" })
    .max(65535, { message: "must be a whole number from 0 to 65535" })
    .optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  PUBLIC_URL: z.url({ message: "must be an absolute URL such as http://127.0.0.1:3000" }).optional(),
  LOG_LEVEL: z.enum(logLevels, { message: `must be one of ${logLevels.join(", ")}` }).default("info"),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .positive({ message: "must be a positive number of bytes" })
    .default(1_048_576),
  WEB_DIST_DIR: z.string().min(1).optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")
    .optional(),
  EMAIL_FROM: z.string().min(3).default("Switchboard <no-reply@switchboard.local>"),
  DEMO_DATA: z.enum(["true", "false"], { message: "must be true or false" }).optional(),
  SECRET_KEY: z.string().min(32, { message: "must be at least 32 characters" }).optional(),
  SHUTDOWN_GRACE_MS: z.coerce
    .number()
    .int()
    .positive({ message: "must be a positive number of milliseconds" })
    .default(10_000),
  LLM_PROVIDER: z
    .enum(llmProviders, { message: `must be one of ${llmProviders.join(", ")}` })
    .default("sandbox"),
  LLM_BASE_URL: z.url({ message: "must be an absolute URL such as http://127.0.0.1:11434/v1" }).optional(),
  LLM_API_KEY: z.string().min(1).optional(),
  LLM_MODEL: z.string().min(1).optional(),
  LLM_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive({ message: "must be a positive number of milliseconds" })
    .default(30_000),
  LLM_MAX_RETRIES: z.coerce
    .number()
    .int()
    .min(0, { message: "must be a whole number from 0 to 10" })
    .max(10, { message: "must be a whole number from 0 to 10" })
    .default(2),
  LLM_MAX_STEPS: z.coerce
    .number()
    .int()
    .min(1, { message: "must be a whole number from 1 to 20" })
    .max(20, { message: "must be a whole number from 1 to 20" })
    .default(5),
  TOOL_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive({ message: "must be a positive number of milliseconds" })
    .default(10_000),
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .refine((value) => parseRetrySchedule(value) !== undefined, {
      message: "must be a comma list of waits in seconds, such as 5,300,1800",
    })
    .optional(),
  WEBHOOK_DISABLE_AFTER: z.coerce
    .number()
    .int()
    .min(1, { message: "must be a whole number from 1" })
    .default(5),
  WEBHOOK_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive({ message: "must be a positive number of milliseconds" })
    .default(15_000),
  SMS_PROVIDER: z.enum(["sandbox", "twilio"], { message: "must be sandbox or twilio" }).default("sandbox"),
  TWILIO_ACCOUNT_SID: z.string().min(1).optional(),
  TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
  TWILIO_FROM_NUMBER: z.string().min(3).optional(),
  TWILIO_API_URL: z.url({ message: "must be an absolute URL such as https://api.twilio.com" }).optional(),
  OUTBOUND_ALLOWLIST: z
    .string()
    .refine((value) => value.split(",").every((entry) => isHostPort(entry.trim())), {
      message: "must be a comma list of host:port (or host:*), such as 127.0.0.1:11434",
    })
    .optional(),
  TRUST_PROXY: z
    .string()
    .refine((value) => parseTrustProxy(value) !== undefined, {
      message:
        "must be off, a number of proxy hops (such as 1) or a comma list of proxy addresses or CIDR ranges",
    })
    .optional(),
});

function isHostPort(entry: string): boolean {
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\*|\d{1,5})$/.exec(entry);
  if (!match) return false;
  return match[2] === "*" || Number(match[2]) <= 65535;
}

/** Which proxies may name the client's address in X-Forwarded-For: none, a hop count, or their addresses. */
export type TrustProxy = false | number | string[];

function parseTrustProxy(value: string | undefined): TrustProxy | undefined {
  const trimmed = value?.trim().toLowerCase();
  if (!trimmed || trimmed === "off" || trimmed === "false" || trimmed === "0") return false;
  if (/^\d+$/.test(trimmed)) return Number(trimmed) <= 10 ? Number(trimmed) : undefined;
  const entries = trimmed.split(",").map((entry) => entry.trim());
  const valid = entries.every((entry) =>
    entry.includes("/") ? ipaddr.isValidCIDR(entry) : ipaddr.isValid(entry),
  );
  return valid ? entries : undefined;
}

/** Text messages: the sandbox carrier (simulated handsets) or Twilio. */
export type SmsConfig =
  | { provider: "sandbox" }
  | {
      provider: "twilio";
      accountSid: string;
      authToken: string;
      fromNumber: string | undefined;
      apiUrl: string;
    };

export type Config = {
  env: "development" | "test" | "production";
  host: string;
  port: number;
  /** SIP calls on UDP and TCP (`0`: off). Default 5060, but off under NODE_ENV=test unless set. */
  sipPort: number;
  databaseUrl: string | undefined;
  dataDir: string;
  publicUrl: string;
  logLevel: (typeof logLevels)[number];
  bodyLimitBytes: number;
  webDistDir: string;
  shutdownGraceMs: number;
  /** Seed the demo hierarchy into an empty database at start (default: in development only). */
  demoData: boolean;
  /** Real e-mail through SMTP when set; otherwise the dev outbox. */
  smtpUrl: string | undefined;
  emailFrom: string;
  /** Key for HMACs (verification codes); from SECRET_KEY, else generated once and kept in the database. */
  secretKey: string | undefined;
  llm: LlmConfig;
  /** Longest wait for a tool that calls out (the webhook app). */
  toolTimeoutMs: number;
  sms: SmsConfig;
  /** Requests to addresses users gave (src/http/outbound.ts). */
  outbound: { allowlist: string[] };
  /**
   * Webhook deliveries: the waits (ms) before each retry of a failed attempt, the deliveries in a row that
   * may fail for good before the endpoint is turned off, and the time an attempt may take.
   */
  webhooks: { retryScheduleMs: number[]; disableAfter: number; timeoutMs: number };
  /** Fastify's trustProxy: off unless the operator names the proxies in front of the server. */
  trustProxy: TrustProxy;
};

/** Values that may hold passwords or keys: named in errors, never echoed. */
const SENSITIVE = new Set(["DATABASE_URL", "SMTP_URL", "SECRET_KEY", "LLM_API_KEY", "TWILIO_AUTH_TOKEN"]);

export class ConfigError extends Error {
  override name = "ConfigError";
}

const defaultWebDist = path.resolve(import.meta.dirname, "../../web/dist");

/** Parses the environment once; throws a ConfigError whose message is one line naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(
    Object.keys(envSchema.shape).map((key) => [key, env[key] === "" ? undefined : env[key]]),
  );
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = String(issue?.path[0] ?? "environment");
    const shown =
      cleaned[variable] === undefined || SENSITIVE.has(variable)
        ? ""
        : ` (got ${JSON.stringify(cleaned[variable])})`;
    throw new ConfigError(`Invalid configuration: ${variable} ${issue?.message ?? "is invalid"}${shown}`);
  }
  const v = parsed.data;
  if (v.NODE_ENV === "production" && !v.SECRET_KEY) {
    throw new ConfigError("Invalid configuration: SECRET_KEY is required when NODE_ENV is production");
  }
  if ((v.LLM_PROVIDER === "openai" || v.LLM_PROVIDER === "anthropic") && !v.LLM_API_KEY) {
    throw new ConfigError(
      `Invalid configuration: LLM_API_KEY is required when LLM_PROVIDER is ${v.LLM_PROVIDER}`,
    );
  }
  if (v.LLM_PROVIDER === "openai-compatible" && (!v.LLM_BASE_URL || !v.LLM_MODEL)) {
    throw new ConfigError(
      `Invalid configuration: ${v.LLM_BASE_URL ? "LLM_MODEL" : "LLM_BASE_URL"} is required when LLM_PROVIDER is openai-compatible`,
    );
  }
  if (v.SMS_PROVIDER === "twilio" && (!v.TWILIO_ACCOUNT_SID || !v.TWILIO_AUTH_TOKEN)) {
    throw new ConfigError(
      `Invalid configuration: ${v.TWILIO_ACCOUNT_SID ? "TWILIO_AUTH_TOKEN" : "TWILIO_ACCOUNT_SID"} is required when SMS_PROVIDER is twilio`,
    );
  }
  return {
    env: v.NODE_ENV,
    host: v.HOST,
    port: v.PORT,
    sipPort: v.SIP_PORT ?? (v.NODE_ENV === "test" ? 0 : 5060),
    databaseUrl: v.DATABASE_URL,
    dataDir: path.resolve(v.DATA_DIR),
    publicUrl: (v.PUBLIC_URL ?? `http://${v.HOST === "0.0.0.0" ? "127.0.0.1" : v.HOST}:${v.PORT}`).replace(
      /\/$/,
      "",
    ),
    logLevel: v.LOG_LEVEL,
    bodyLimitBytes: v.BODY_LIMIT_BYTES,
    webDistDir: path.resolve(v.WEB_DIST_DIR ?? defaultWebDist),
    shutdownGraceMs: v.SHUTDOWN_GRACE_MS,
    secretKey: v.SECRET_KEY,
    demoData: v.DEMO_DATA ? v.DEMO_DATA === "true" : v.NODE_ENV === "development",
    smtpUrl: v.SMTP_URL,
    emailFrom: v.EMAIL_FROM,
    llm: {
      provider: v.LLM_PROVIDER,
      baseUrl: v.LLM_BASE_URL,
      apiKey: v.LLM_API_KEY,
      model: v.LLM_MODEL,
      timeoutMs: v.LLM_TIMEOUT_MS,
      maxRetries: v.LLM_MAX_RETRIES,
      maxSteps: v.LLM_MAX_STEPS,
    },
    toolTimeoutMs: v.TOOL_TIMEOUT_MS,
    sms:
      v.SMS_PROVIDER === "twilio"
        ? {
            provider: "twilio",
            accountSid: v.TWILIO_ACCOUNT_SID ?? "",
            authToken: v.TWILIO_AUTH_TOKEN ?? "",
            fromNumber: v.TWILIO_FROM_NUMBER,
            apiUrl: v.TWILIO_API_URL ?? "https://api.twilio.com",
          }
        : { provider: "sandbox" },
    outbound: {
      allowlist: (v.OUTBOUND_ALLOWLIST ?? "")
        .split(",")
        .map((entry) => entry.trim())
        .filter(Boolean),
    },
    webhooks: {
      retryScheduleMs: (parseRetrySchedule(v.WEBHOOK_RETRY_SCHEDULE ?? "") ?? DEFAULT_WEBHOOK_RETRIES).map(
        (seconds) => seconds * 1000,
      ),
      disableAfter: v.WEBHOOK_DISABLE_AFTER,
      timeoutMs: v.WEBHOOK_TIMEOUT_MS,
    },
    trustProxy: parseTrustProxy(v.TRUST_PROXY) ?? false,
  };
}

/** Waits before the retries of a webhook delivery, in seconds: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const DEFAULT_WEBHOOK_RETRIES = [5, 300, 1800, 7200, 18_000, 36_000, 36_000];

/** `5,300,1800` -> seconds (fractions allowed, for tests); empty -> the default; undefined when invalid. */
function parseRetrySchedule(value: string): number[] | undefined {
  if (!value.trim()) return DEFAULT_WEBHOOK_RETRIES;
  const waits = value.split(",").map((entry) => Number(entry.trim()));
  return waits.every((wait) => Number.isFinite(wait) && wait >= 0 && wait <= 7 * 86_400) ? waits : undefined;
}
