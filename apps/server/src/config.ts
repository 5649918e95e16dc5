import { availableParallelism } from "node:os";
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
  SIP_TRUST_LOOPBACK: z.enum(["true", "false"], { message: "must be true or false" }).optional(),
  SIP_PUBLIC_HOST: z.string().min(1).optional(),
  SIP_TRUSTED_EDGE: z
    .string()
    .refine(
      (value) =>
        value
          .split(",")
          .map((entry) => entry.trim())
          .filter(Boolean)
          .every((entry) => (entry.includes("/") ? ipaddr.isValidCIDR(entry) : ipaddr.isValid(entry))),
      { message: "must be a comma list of IP addresses or CIDR ranges (the SIP edge's own addresses)" },
    )
    .optional(),
  VOICE_CHILD_NICE: z.coerce
    .number()
    .int()
    .min(0, { message: "must be a whole number from 0 (off) to 19" })
    .max(19, { message: "must be a whole number from 0 (off) to 19" })
    .default(10),
  VOICE_WORKERS: z.coerce
    .number({ message: "must be a whole number from 0 (calls in the API process) to 64" })
    .int({ message: "must be a whole number from 0 (calls in the API process) to 64" })
    .min(0, { message: "must be a whole number from 0 (calls in the API process) to 64" })
    .max(64, { message: "must be a whole number from 0 (calls in the API process) to 64" })
    .optional(),
  VOICE_WORKER_SIP_PORT: z.coerce
    .number({ message: "must be a whole number from 1 to 65535" })
    .int({ message: "must be a whole number from 1 to 65535" })
    .min(1, { message: "must be a whole number from 1 to 65535" })
    .max(65535, { message: "must be a whole number from 1 to 65535" })
    .optional(),
  SIP_SOURCE_RATE: z.coerce
    .number()
    .int()
    .min(1, { message: "must be a whole number of messages per second from 1" })
    .default(200),
  SIP_UNLISTED_RATE: z.coerce
    .number()
    .int()
    .min(1, { message: "must be a whole number of messages per second from 1" })
    .default(10),
  SIP_CAPTURE_RETENTION_HOURS: z.coerce
    .number()
    .positive({ message: "must be a positive number of hours" })
    .default(72),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  DATABASE_POOL_SIZE: z.coerce
    .number()
    .int()
    .min(2, { message: "must be a whole number of connections from 2 (one listens for notifications)" })
    .max(1000, { message: "must be a whole number of connections up to 1000" })
    .default(10),
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
  DEMO_CALLS: z.enum(["true", "false"], { message: "must be true or false" }).optional(),
  DEV_OUTBOX: z.enum(["true", "false"], { message: "must be true or false" }).optional(),
  SECRET_KEY: z.string().min(32, { message: "must be at least 32 characters" }).optional(),
  SHUTDOWN_GRACE_MS: z.coerce
    .number()
    .int()
    .positive({ message: "must be a positive number of milliseconds" })
    .default(10_000),
  JOB_WORKER_TIMEOUT_SECONDS: z.coerce
    .number()
    .positive({ message: "must be a positive number of seconds" })
    .default(30),
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
  TEXT_ANALYSIS_QUIET_SECONDS: z.coerce
    .number()
    .int()
    .min(1, { message: "must be a whole number of seconds from 1 to 86400" })
    .max(86_400, { message: "must be a whole number of seconds from 1 to 86400" })
    .default(1800),
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
  NUMBER_PROVIDER: z
    .enum(["sandbox", "twilio", "telnyx"], { message: "must be sandbox, twilio or telnyx" })
    .default("sandbox"),
  TELNYX_API_KEY: z.string().min(1).optional(),
  TELNYX_CONNECTION_ID: z.string().min(1).optional(),
  TELNYX_API_URL: z.url({ message: "must be an absolute URL such as https://api.telnyx.com" }).optional(),
  OUTBOUND_CALLS_CONCURRENT: z.coerce
    .number()
    .int()
    .min(1, { message: "must be a whole number from 1" })
    .default(3),
  OUTBOUND_CALLS_DAILY: z.coerce
    .number()
    .int()
    .min(1, { message: "must be a whole number from 1" })
    .default(200),
  CALENDARS: z.enum(["sandbox", "live"], { message: "must be sandbox or live" }).default("sandbox"),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  GOOGLE_ACCOUNTS_URL: z
    .url({ message: "must be an absolute URL such as https://accounts.google.com" })
    .optional(),
  GOOGLE_TOKEN_URL: z
    .url({ message: "must be an absolute URL such as https://oauth2.googleapis.com/token" })
    .optional(),
  GOOGLE_API_URL: z.url({ message: "must be an absolute URL such as https://www.googleapis.com" }).optional(),
  CALENDLY_API_URL: z.url({ message: "must be an absolute URL such as https://api.calendly.com" }).optional(),
  JOBNIMBUS_API_URL: z
    .url({ message: "must be an absolute URL such as https://app.jobnimbus.com/api1" })
    .optional(),
  OUTBOUND_ALLOWLIST: z
    .string()
    .refine((value) => value.split(",").every((entry) => isHostPort(entry.trim())), {
      message: "must be a comma list of host:port (or host:*), such as 127.0.0.1:11434",
    })
    .optional(),
  EMBEDDINGS_BASE_URL: z
    .url({ message: "must be an absolute URL such as https://api.openai.com/v1" })
    .optional(),
  EMBEDDINGS_API_KEY: z.string().min(1).optional(),
  EMBEDDINGS_MODEL: z.string().min(1).default("text-embedding-3-small"),
  STT_PROVIDER: z
    .enum(["pocketsphinx", "deepgram", "openai"], { message: "must be pocketsphinx, deepgram or openai" })
    .default("pocketsphinx"),
  TTS_PROVIDER: z
    .enum(["espeak", "openai", "elevenlabs", "cartesia"], {
      message: "must be espeak, openai, elevenlabs or cartesia",
    })
    .default("espeak"),
  SPEECH_LANGUAGE: z.string().min(2).max(10).optional(),
  DEEPGRAM_API_KEY: z.string().min(1).optional(),
  DEEPGRAM_URL: z.url({ message: "must be an absolute URL" }).default("https://api.deepgram.com"),
  DEEPGRAM_MODEL: z.string().min(1).default("nova-3"),
  OPENAI_SPEECH_API_KEY: z.string().min(1).optional(),
  OPENAI_SPEECH_URL: z.url({ message: "must be an absolute URL" }).default("https://api.openai.com/v1"),
  OPENAI_STT_MODEL: z.string().min(1).default("gpt-4o-mini-transcribe"),
  OPENAI_TTS_MODEL: z.string().min(1).default("gpt-4o-mini-tts"),
  OPENAI_TTS_VOICE: z.string().min(1).default("alloy"),
  ELEVENLABS_API_KEY: z.string().min(1).optional(),
  ELEVENLABS_URL: z.url({ message: "must be an absolute URL" }).default("https://api.elevenlabs.io"),
  ELEVENLABS_MODEL: z.string().min(1).default("eleven_flash_v2_5"),
  ELEVENLABS_VOICE: z.string().min(1).default("21m00Tcm4TlvDq8ikWAM"),
  CARTESIA_API_KEY: z.string().min(1).optional(),
  CARTESIA_URL: z.url({ message: "must be an absolute URL" }).default("https://api.cartesia.ai"),
  CARTESIA_MODEL: z.string().min(1).default("sonic-2"),
  CARTESIA_VOICE: z.string().min(1).optional(),
  PAYMENTS: z.enum(["sandbox", "stripe"], { message: "must be sandbox or stripe" }).default("sandbox"),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  STRIPE_API_URL: z.url({ message: "must be an absolute URL such as https://api.stripe.com" }).optional(),
  LIGHTNING: z.enum(["sandbox", "lnd"], { message: "must be sandbox or lnd" }).default("sandbox"),
  LND_REST_URL: z.url({ message: "must be an absolute URL such as https://127.0.0.1:8080" }).optional(),
  LND_MACAROON: z
    .string()
    .regex(/^[0-9a-fA-F]+$/, "must be the invoice macaroon in hex")
    .optional(),
  PAYOUTS: z.enum(["sandbox", "paypal"], { message: "must be sandbox or paypal" }).default("sandbox"),
  PAYPAL_CLIENT_ID: z.string().min(1).optional(),
  PAYPAL_CLIENT_SECRET: z.string().min(1).optional(),
  PAYPAL_API_URL: z
    .url({ message: "must be an absolute URL such as https://api-m.paypal.com" })
    .default("https://api-m.sandbox.paypal.com"),
  EXCHANGE_RATES: z
    .enum(["sandbox", "coinbase"], { message: "must be sandbox or coinbase" })
    .default("sandbox"),
  EXCHANGE_RATES_URL: z
    .url({ message: "must be an absolute URL such as https://api.coinbase.com" })
    .optional(),
  USAGE_DEBIT_INTERVAL_SECONDS: z.coerce
    .number()
    .int({ message: "must be a whole number of seconds from 1" })
    .min(1, { message: "must be a whole number of seconds from 1" })
    .default(300),
  LOW_BALANCE_USD: z.coerce
    .number()
    .min(0, { message: "must be an amount in USD from 0, such as 5" })
    .default(5),
  REFERRAL_REWARD_PERCENT: z.coerce
    .number({ message: "must be a percentage from 0 to 100" })
    .min(0, "must be a percentage from 0 to 100")
    .max(100, "must be a percentage from 0 to 100")
    .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-9, "must have at most two decimals")
    .default(10),
  SIGN_IN_CODES_PER_NETWORK: z.coerce
    .number()
    .int({ message: "must be a whole number from 1" })
    .min(1, { message: "must be a whole number from 1" })
    .default(20),
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

/** Does the server listen on this machine only (127.0.0.0/8, ::1, localhost)? */
function isLoopbackHost(host: string): boolean {
  const bare = host
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "")
    .toLowerCase();
  if (bare === "localhost") return true;
  return ipaddr.isValid(bare) && ipaddr.process(bare).range() === "loopback";
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

/**
 * Phone numbers: the sandbox carrier's inventory (numbers that reach our SIP endpoint), or Twilio's or
 * Telnyx's number search and purchase. Outbound-call guards apply to every organisation unless its settings
 * (`telephony`) say otherwise.
 */
export type NumbersConfig = {
  provider: "sandbox" | "twilio" | "telnyx";
  twilio: { accountSid: string; authToken: string; apiUrl: string } | null;
  telnyx: { apiKey: string; connectionId: string | undefined; apiUrl: string } | null;
  outboundConcurrent: number;
  outboundDaily: number;
};

export type Config = {
  env: "development" | "test" | "production";
  host: string;
  port: number;
  /** SIP calls on UDP and TCP (`0`: off). Default 5060, but off under NODE_ENV=test unless set. */
  sipPort: number;
  /**
   * The SIP edge (SIP developer settings): `trustLoopback` lets callers on this machine dial an agent
   * without an allow-list entry (development and test; SIP_TRUST_LOOPBACK=false makes loopback a source
   * like any other); `publicHost` is the host put in our Contact and Via (registrations); per-source flood
   * limits in messages per second (allow-listed sources, and every other source); how long captures stay.
   * `trustedEdge` (SIP_TRUSTED_EDGE): the addresses of a SIP edge in front (Kamailio, scripts/sip-edge.mjs)
   * whose X-Switchboard-Source names the real caller; none by default.
   */
  sip: {
    trustLoopback: boolean;
    trustedEdge: string[];
    publicHost: string;
    sourceRate: number;
    unlistedRate: number;
    captureRetentionHours: number;
  };
  databaseUrl: string | undefined;
  /** PostgreSQL connections per instance at most, the notification listener's included (DATABASE_POOL_SIZE). */
  databasePoolSize: number;
  dataDir: string;
  publicUrl: string;
  logLevel: (typeof logLevels)[number];
  bodyLimitBytes: number;
  webDistDir: string;
  shutdownGraceMs: number;
  /**
   * A server whose job runner has not reported for this long is taken as dead: the jobs it was running are
   * retried by the others (or by the next start).
   */
  jobWorkerTimeoutSeconds: number;
  /** Seed the demo hierarchy into an empty database at start (default: in development only). */
  demoData: boolean;
  /** With the demo data: its latest calls are made by simulated callers through the call pipeline. */
  demoCalls: boolean;
  /**
   * GET /api/dev/outbox lists every message sent, sign-in codes included, to anyone who asks: only with
   * DEV_OUTBOX=true, on a loopback HOST, outside production.
   */
  devOutbox: boolean;
  /** Real e-mail through SMTP when set; otherwise the dev outbox. */
  smtpUrl: string | undefined;
  emailFrom: string;
  /** Key for HMACs (verification codes); from SECRET_KEY, else generated once and kept in the database. */
  secretKey: string | undefined;
  llm: LlmConfig;
  /**
   * A text conversation (SMS, web chat) has no hang-up: it is analysed once it has been quiet this long, and
   * again after each later quiet spell.
   */
  textAnalysisQuietMs: number;
  /** Longest wait for a tool that calls out (the webhook app). */
  toolTimeoutMs: number;
  sms: SmsConfig;
  numbers: NumbersConfig;
  /**
   * Calendars and integrations: the offline sandboxes (default) or the real Google Calendar (OAuth client),
   * Calendly and JobNimbus APIs.
   */
  calendars: {
    mode: "sandbox" | "live";
    google: { clientId: string; clientSecret: string; accountsUrl: string; tokenUrl: string; apiUrl: string };
    calendlyApiUrl: string;
    jobNimbusApiUrl: string;
  };
  /**
   * Calls: Twilio's auth token checks the signature of its voice webhook (whatever SMS_PROVIDER is);
   * offline recognisers and synthesisers run at nice `childNice` (0: not lowered). SIP calls run in
   * `workers` voice worker processes (0: in the API process; default one per core, 0 under NODE_ENV=test);
   * with `workerSipPort`, worker i listens for SIP itself on that port + i (a SIP edge dispatches to them).
   */
  voice: {
    twilioAuthToken: string | undefined;
    /** Twilio's REST API for live calls (a cold transfer updates the call with `<Dial>`); null without a SID and token. */
    twilioRest: { accountSid: string; authToken: string; apiUrl: string } | null;
    childNice: number;
    workers: number;
    workerSipPort: number | undefined;
  };
  /** Requests to addresses users gave (src/http/outbound.ts). */
  outbound: { allowlist: string[] };
  /**
   * Webhook deliveries: the waits (ms) before each retry of a failed attempt, the deliveries in a row that
   * may fail for good before the endpoint is turned off, and the time an attempt may take.
   */
  webhooks: { retryScheduleMs: number[]; disableAfter: number; timeoutMs: number };
  /** Fastify's trustProxy: off unless the operator names the proxies in front of the server. */
  trustProxy: TrustProxy;
  /** Sign-in and sign-up codes one client network may ask for in 15 minutes. */
  signInCodesPerNetwork: number;
  /**
   * Usage debits: how often the sweep charges wallets for metered usage, and the balance below which a debit
   * notifies the organisation (cents).
   */
  usage: { debitIntervalSeconds: number; lowBalanceCents: number };
  /** An OpenAI-compatible embeddings API for the knowledge base's hybrid search; off when no base URL. */
  embeddings: { baseUrl: string; apiKey: string | undefined; model: string } | null;
  /**
   * Money (issue 21): card payments through the offline sandbox (a hosted test-card page, like Stripe's test
   * mode) or Stripe; lightning through the sandbox node (real BOLT11 invoices, a sandbox wallet page) or LND's
   * REST API; the BTC/USD rate from a sandbox market or Coinbase's public rates.
   */
  payments:
    | { provider: "sandbox" }
    | {
        provider: "stripe";
        secretKey: string;
        webhookSecret: string | undefined;
        apiUrl: string | undefined;
      };
  lightning: { provider: "sandbox" } | { provider: "lnd"; restUrl: string; macaroon: string };
  exchangeRates: { provider: "sandbox" } | { provider: "coinbase"; url: string };
  /**
   * Referrals: the share of each payment of a referred organisation (a plan, a card or lightning top-up)
   * its referrer earns, in basis points (1000 = 10 %), from REFERRAL_REWARD_PERCENT.
   */
  referrals: { rewardBasisPoints: number };
  /**
   * Speech for calls (issue 16): offline by default (pocketsphinx, espeak-ng); hosted recognition (Deepgram
   * streaming, an OpenAI-compatible transcription API) and synthesis (OpenAI-compatible, ElevenLabs,
   * Cartesia) when chosen, each with its address, key, model and default voice.
   */
  speech: {
    stt:
      | { provider: "pocketsphinx" }
      | {
          provider: "deepgram" | "openai";
          baseUrl: string;
          apiKey: string;
          model: string;
          language?: string;
        };
    tts:
      | { provider: "espeak" }
      | {
          provider: "openai" | "elevenlabs" | "cartesia";
          baseUrl: string;
          apiKey: string;
          model: string;
          voice: string;
        };
  };
  /** PayPal and Venmo withdrawals: the offline payouts sandbox (default) or PayPal's Payouts REST API. */
  payouts:
    | { provider: "sandbox" }
    | { provider: "paypal"; clientId: string; clientSecret: string; apiUrl: string };
};

/** Values that may hold passwords or keys: named in errors, never echoed. */
const SENSITIVE = new Set([
  "DATABASE_URL",
  "SMTP_URL",
  "SECRET_KEY",
  "LLM_API_KEY",
  "TWILIO_AUTH_TOKEN",
  "TELNYX_API_KEY",
  "GOOGLE_CLIENT_SECRET",
  "EMBEDDINGS_API_KEY",
  "STRIPE_SECRET_KEY",
  "STRIPE_WEBHOOK_SECRET",
  "LND_MACAROON",
  "DEEPGRAM_API_KEY",
  "OPENAI_SPEECH_API_KEY",
  "ELEVENLABS_API_KEY",
  "CARTESIA_API_KEY",
  "PAYPAL_CLIENT_SECRET",
]);

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
  if (v.DEV_OUTBOX === "true" && v.NODE_ENV === "production") {
    throw new ConfigError("Invalid configuration: DEV_OUTBOX cannot be true when NODE_ENV is production");
  }
  if (v.DEV_OUTBOX === "true" && !isLoopbackHost(v.HOST)) {
    throw new ConfigError(
      `Invalid configuration: DEV_OUTBOX=true shows every sign-in code to whoever asks, so HOST must be a loopback address such as 127.0.0.1 (got ${JSON.stringify(v.HOST)})`,
    );
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
  if (v.NUMBER_PROVIDER === "twilio" && (!v.TWILIO_ACCOUNT_SID || !v.TWILIO_AUTH_TOKEN)) {
    throw new ConfigError(
      `Invalid configuration: ${v.TWILIO_ACCOUNT_SID ? "TWILIO_AUTH_TOKEN" : "TWILIO_ACCOUNT_SID"} is required when NUMBER_PROVIDER is twilio`,
    );
  }
  if (v.NUMBER_PROVIDER === "telnyx" && !v.TELNYX_API_KEY) {
    throw new ConfigError("Invalid configuration: TELNYX_API_KEY is required when NUMBER_PROVIDER is telnyx");
  }
  if (v.CALENDARS === "live" && (!v.GOOGLE_CLIENT_ID || !v.GOOGLE_CLIENT_SECRET)) {
    throw new ConfigError(
      `Invalid configuration: ${v.GOOGLE_CLIENT_ID ? "GOOGLE_CLIENT_SECRET" : "GOOGLE_CLIENT_ID"} is required when CALENDARS is live`,
    );
  }
  const speechKey = { deepgram: "DEEPGRAM_API_KEY", openai: "OPENAI_SPEECH_API_KEY" } as const;
  if (v.STT_PROVIDER !== "pocketsphinx" && !v[speechKey[v.STT_PROVIDER]]) {
    throw new ConfigError(
      `Invalid configuration: ${speechKey[v.STT_PROVIDER]} is required when STT_PROVIDER is ${v.STT_PROVIDER}`,
    );
  }
  const voiceKey = {
    openai: "OPENAI_SPEECH_API_KEY",
    elevenlabs: "ELEVENLABS_API_KEY",
    cartesia: "CARTESIA_API_KEY",
  } as const;
  if (v.TTS_PROVIDER !== "espeak" && !v[voiceKey[v.TTS_PROVIDER]]) {
    throw new ConfigError(
      `Invalid configuration: ${voiceKey[v.TTS_PROVIDER]} is required when TTS_PROVIDER is ${v.TTS_PROVIDER}`,
    );
  }
  if (v.TTS_PROVIDER === "cartesia" && !v.CARTESIA_VOICE) {
    throw new ConfigError("Invalid configuration: CARTESIA_VOICE is required when TTS_PROVIDER is cartesia");
  }
  if (v.PAYMENTS === "stripe" && !v.STRIPE_SECRET_KEY) {
    throw new ConfigError("Invalid configuration: STRIPE_SECRET_KEY is required when PAYMENTS is stripe");
  }
  if (v.LIGHTNING === "lnd" && (!v.LND_REST_URL || !v.LND_MACAROON)) {
    throw new ConfigError(
      `Invalid configuration: ${v.LND_REST_URL ? "LND_MACAROON" : "LND_REST_URL"} is required when LIGHTNING is lnd`,
    );
  }
  if (v.PAYOUTS === "paypal" && (!v.PAYPAL_CLIENT_ID || !v.PAYPAL_CLIENT_SECRET)) {
    throw new ConfigError(
      `Invalid configuration: ${v.PAYPAL_CLIENT_ID ? "PAYPAL_CLIENT_SECRET" : "PAYPAL_CLIENT_ID"} is required when PAYOUTS is paypal`,
    );
  }
  // Twilio's REST API with the account's credentials: numbers and a call's hand-over use it alike.
  const twilioRest =
    v.TWILIO_ACCOUNT_SID && v.TWILIO_AUTH_TOKEN
      ? {
          accountSid: v.TWILIO_ACCOUNT_SID,
          authToken: v.TWILIO_AUTH_TOKEN,
          apiUrl: v.TWILIO_API_URL ?? "https://api.twilio.com",
        }
      : null;
  return {
    env: v.NODE_ENV,
    host: v.HOST,
    port: v.PORT,
    sipPort: v.SIP_PORT ?? (v.NODE_ENV === "test" ? 0 : 5060),
    sip: {
      trustLoopback: v.SIP_TRUST_LOOPBACK ? v.SIP_TRUST_LOOPBACK === "true" : v.NODE_ENV !== "production",
      trustedEdge: (v.SIP_TRUSTED_EDGE ?? "")
        .split(",")
        .map((entry) => entry.trim())
        .filter(Boolean),
      publicHost: v.SIP_PUBLIC_HOST ?? (["0.0.0.0", "::"].includes(v.HOST) ? "127.0.0.1" : v.HOST),
      sourceRate: v.SIP_SOURCE_RATE,
      unlistedRate: v.SIP_UNLISTED_RATE,
      captureRetentionHours: v.SIP_CAPTURE_RETENTION_HOURS,
    },
    databaseUrl: v.DATABASE_URL,
    databasePoolSize: v.DATABASE_POOL_SIZE,
    dataDir: path.resolve(v.DATA_DIR),
    publicUrl: (v.PUBLIC_URL ?? `http://${v.HOST === "0.0.0.0" ? "127.0.0.1" : v.HOST}:${v.PORT}`).replace(
      /\/$/,
      "",
    ),
    logLevel: v.LOG_LEVEL,
    bodyLimitBytes: v.BODY_LIMIT_BYTES,
    webDistDir: path.resolve(v.WEB_DIST_DIR ?? defaultWebDist),
    shutdownGraceMs: v.SHUTDOWN_GRACE_MS,
    jobWorkerTimeoutSeconds: v.JOB_WORKER_TIMEOUT_SECONDS,
    secretKey: v.SECRET_KEY,
    demoData: v.DEMO_DATA ? v.DEMO_DATA === "true" : v.NODE_ENV === "development",
    demoCalls: v.DEMO_CALLS ? v.DEMO_CALLS === "true" : v.NODE_ENV !== "test",
    devOutbox: v.DEV_OUTBOX === "true",
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
    textAnalysisQuietMs: v.TEXT_ANALYSIS_QUIET_SECONDS * 1000,
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
    numbers: {
      provider: v.NUMBER_PROVIDER,
      twilio: twilioRest,
      telnyx: v.TELNYX_API_KEY
        ? {
            apiKey: v.TELNYX_API_KEY,
            connectionId: v.TELNYX_CONNECTION_ID,
            apiUrl: v.TELNYX_API_URL ?? "https://api.telnyx.com",
          }
        : null,
      outboundConcurrent: v.OUTBOUND_CALLS_CONCURRENT,
      outboundDaily: v.OUTBOUND_CALLS_DAILY,
    },
    calendars: {
      mode: v.CALENDARS,
      google: {
        clientId: v.GOOGLE_CLIENT_ID ?? "",
        clientSecret: v.GOOGLE_CLIENT_SECRET ?? "",
        accountsUrl: v.GOOGLE_ACCOUNTS_URL ?? "https://accounts.google.com",
        tokenUrl: v.GOOGLE_TOKEN_URL ?? "https://oauth2.googleapis.com/token",
        apiUrl: v.GOOGLE_API_URL ?? "https://www.googleapis.com",
      },
      calendlyApiUrl: v.CALENDLY_API_URL ?? "https://api.calendly.com",
      jobNimbusApiUrl: v.JOBNIMBUS_API_URL ?? "https://app.jobnimbus.com/api1",
    },
    voice: {
      twilioAuthToken: v.TWILIO_AUTH_TOKEN,
      twilioRest,
      childNice: v.VOICE_CHILD_NICE,
      workers: v.VOICE_WORKERS ?? (v.NODE_ENV === "test" ? 0 : availableParallelism()),
      workerSipPort: v.VOICE_WORKER_SIP_PORT,
    },
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
    signInCodesPerNetwork: v.SIGN_IN_CODES_PER_NETWORK,
    usage: {
      debitIntervalSeconds: v.USAGE_DEBIT_INTERVAL_SECONDS,
      lowBalanceCents: Math.round(v.LOW_BALANCE_USD * 100),
    },
    embeddings: v.EMBEDDINGS_BASE_URL
      ? {
          baseUrl: v.EMBEDDINGS_BASE_URL.replace(/\/$/, ""),
          apiKey: v.EMBEDDINGS_API_KEY,
          model: v.EMBEDDINGS_MODEL,
        }
      : null,
    payments:
      v.PAYMENTS === "stripe"
        ? {
            provider: "stripe",
            secretKey: v.STRIPE_SECRET_KEY ?? "",
            webhookSecret: v.STRIPE_WEBHOOK_SECRET,
            apiUrl: v.STRIPE_API_URL,
          }
        : { provider: "sandbox" },
    lightning:
      v.LIGHTNING === "lnd"
        ? {
            provider: "lnd",
            restUrl: (v.LND_REST_URL ?? "").replace(/\/$/, ""),
            macaroon: v.LND_MACAROON ?? "",
          }
        : { provider: "sandbox" },
    exchangeRates:
      v.EXCHANGE_RATES === "coinbase"
        ? {
            provider: "coinbase",
            url: (v.EXCHANGE_RATES_URL ?? "https://api.coinbase.com").replace(/\/$/, ""),
          }
        : { provider: "sandbox" },
    referrals: { rewardBasisPoints: Math.round(v.REFERRAL_REWARD_PERCENT * 100) },
    speech: { stt: sttConfig(v), tts: ttsConfig(v) },
    payouts:
      v.PAYOUTS === "paypal"
        ? {
            provider: "paypal",
            clientId: v.PAYPAL_CLIENT_ID ?? "",
            clientSecret: v.PAYPAL_CLIENT_SECRET ?? "",
            apiUrl: v.PAYPAL_API_URL.replace(/\/$/, ""),
          }
        : { provider: "sandbox" },
  };
}

const trimUrl = (url: string) => url.replace(/\/$/, "");

function sttConfig(v: z.output<typeof envSchema>): Config["speech"]["stt"] {
  const language = v.SPEECH_LANGUAGE ? { language: v.SPEECH_LANGUAGE } : {};
  if (v.STT_PROVIDER === "deepgram")
    return {
      provider: "deepgram",
      baseUrl: trimUrl(v.DEEPGRAM_URL),
      apiKey: v.DEEPGRAM_API_KEY ?? "",
      model: v.DEEPGRAM_MODEL,
      ...language,
    };
  if (v.STT_PROVIDER === "openai")
    return {
      provider: "openai",
      baseUrl: trimUrl(v.OPENAI_SPEECH_URL),
      apiKey: v.OPENAI_SPEECH_API_KEY ?? "",
      model: v.OPENAI_STT_MODEL,
      ...language,
    };
  return { provider: "pocketsphinx" };
}

function ttsConfig(v: z.output<typeof envSchema>): Config["speech"]["tts"] {
  if (v.TTS_PROVIDER === "openai")
    return {
      provider: "openai",
      baseUrl: trimUrl(v.OPENAI_SPEECH_URL),
      apiKey: v.OPENAI_SPEECH_API_KEY ?? "",
      model: v.OPENAI_TTS_MODEL,
      voice: v.OPENAI_TTS_VOICE,
    };
  if (v.TTS_PROVIDER === "elevenlabs")
    return {
      provider: "elevenlabs",
      baseUrl: trimUrl(v.ELEVENLABS_URL),
      apiKey: v.ELEVENLABS_API_KEY ?? "",
      model: v.ELEVENLABS_MODEL,
      voice: v.ELEVENLABS_VOICE,
    };
  if (v.TTS_PROVIDER === "cartesia")
    return {
      provider: "cartesia",
      baseUrl: trimUrl(v.CARTESIA_URL),
      apiKey: v.CARTESIA_API_KEY ?? "",
      model: v.CARTESIA_MODEL,
      voice: v.CARTESIA_VOICE ?? "",
    };
  return { provider: "espeak" };
}

/** Waits before the retries of a webhook delivery, in seconds: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const DEFAULT_WEBHOOK_RETRIES = [5, 300, 1800, 7200, 18_000, 36_000, 36_000];

/** `5,300,1800` -> seconds (fractions allowed, for tests); empty -> the default; undefined when invalid. */
function parseRetrySchedule(value: string): number[] | undefined {
  if (!value.trim()) return DEFAULT_WEBHOOK_RETRIES;
  const waits = value.split(",").map((entry) => Number(entry.trim()));
  return waits.every((wait) => Number.isFinite(wait) && wait >= 0 && wait <= 7 * 86_400) ? waits : undefined;
}
