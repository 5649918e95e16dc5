import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { within } from "../../../vitest.time-limits.ts";
import { ConfigError, loadConfig } from "./config.ts";

describe("loadConfig", () => {
  it("has working defaults: port 3000 on loopback, PGlite under ./data", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ env: "development", host: "127.0.0.1", port: 3000, logLevel: "info" });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.databasePoolSize).toBe(10);
    expect(config.dataDir).toBe(path.resolve("./data"));
    expect(config.publicUrl).toBe("http://127.0.0.1:3000");
  });

  it("reads every variable", () => {
    const config = loadConfig({
      NODE_ENV: "production",
      HOST: "0.0.0.0",
      PORT: "8080",
      DATABASE_URL: "postgres://u@db:5432/sb",
      DATABASE_POOL_SIZE: "25",
      DATA_DIR: "/var/lib/sb",
      PUBLIC_URL: "https://calls.example.com/",
      LOG_LEVEL: "warn",
      BODY_LIMIT_BYTES: "2048",
      SHUTDOWN_GRACE_MS: "500",
      SECRET_KEY: "k".repeat(40),
      SMTP_URL: "smtps://user:pass@mail.example.com:465",
      EMAIL_FROM: "Calls <calls@example.com>",
    });
    expect(config).toMatchObject({
      env: "production",
      host: "0.0.0.0",
      port: 8080,
      databaseUrl: "postgres://u@db:5432/sb",
      databasePoolSize: 25,
      dataDir: "/var/lib/sb",
      publicUrl: "https://calls.example.com",
      logLevel: "warn",
      bodyLimitBytes: 2048,
      shutdownGraceMs: 500,
      secretKey: "k".repeat(40),
      smtpUrl: "smtps://user:pass@mail.example.com:465",
      emailFrom: "Calls <calls@example.com>",
    });
  });

  it("chooses the money providers: sandboxes by default, Stripe, LND and Coinbase when set", () => {
    expect(loadConfig({})).toMatchObject({
      payments: { provider: "sandbox" },
      lightning: { provider: "sandbox" },
      exchangeRates: { provider: "sandbox" },
    });
    expect(
      loadConfig({
        PAYMENTS: "stripe",
        STRIPE_SECRET_KEY: "sk_test_1",
        STRIPE_WEBHOOK_SECRET: "whsec_1",
        LIGHTNING: "lnd",
        LND_REST_URL: "https://127.0.0.1:8080/",
        LND_MACAROON: "0201abcd",
        EXCHANGE_RATES: "coinbase",
      }),
    ).toMatchObject({
      payments: { provider: "stripe", secretKey: "sk_test_1", webhookSecret: "whsec_1" },
      lightning: { provider: "lnd", restUrl: "https://127.0.0.1:8080", macaroon: "0201abcd" },
      exchangeRates: { provider: "coinbase", url: "https://api.coinbase.com" },
    });
  });

  it("chooses the speech providers: offline by default, hosted ones with their keys", () => {
    expect(loadConfig({}).speech).toEqual({ stt: { provider: "pocketsphinx" }, tts: { provider: "espeak" } });
    expect(
      loadConfig({
        STT_PROVIDER: "deepgram",
        DEEPGRAM_API_KEY: "dg",
        SPEECH_LANGUAGE: "en-US",
        TTS_PROVIDER: "elevenlabs",
        ELEVENLABS_API_KEY: "el",
      }).speech,
    ).toEqual({
      stt: {
        provider: "deepgram",
        baseUrl: "https://api.deepgram.com",
        apiKey: "dg",
        model: "nova-3",
        language: "en-US",
      },
      tts: {
        provider: "elevenlabs",
        baseUrl: "https://api.elevenlabs.io",
        apiKey: "el",
        model: "eleven_flash_v2_5",
        voice: "21m00Tcm4TlvDq8ikWAM",
      },
    });
  });

  it("treats an empty value as unset", () => {
    expect(loadConfig({ PORT: "", DATABASE_URL: "" })).toMatchObject({ port: 3000, databaseUrl: undefined });
  });

  it.each([
    [{ PORT: "abc" }, 'Invalid configuration: PORT must be a whole number from 0 to 65535 (got "abc")'],
    [{ PORT: "70000" }, 'Invalid configuration: PORT must be a whole number from 0 to 65535 (got "70000")'],
    [
      { DATABASE_URL: "mysql://x" },
      "Invalid configuration: DATABASE_URL must start with postgres:// or postgresql://",
    ],
    [
      { PUBLIC_URL: "nope" },
      'Invalid configuration: PUBLIC_URL must be an absolute URL such as http://127.0.0.1:3000 (got "nope")',
    ],
    [
      { LOG_LEVEL: "loud" },
      'Invalid configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
    ],
    [
      { NODE_ENV: "prod" },
      'Invalid configuration: NODE_ENV must be development, test or production (got "prod")',
    ],
    [{ SMTP_URL: "mail.example.com" }, "Invalid configuration: SMTP_URL must start with smtp:// or smtps://"],
    [{ SECRET_KEY: "short" }, "Invalid configuration: SECRET_KEY must be at least 32 characters"],
    [{ NODE_ENV: "production" }, "Invalid configuration: SECRET_KEY is required when NODE_ENV is production"],
    [{ PAYMENTS: "paypal" }, 'Invalid configuration: PAYMENTS must be sandbox or stripe (got "paypal")'],
    [{ PAYMENTS: "stripe" }, "Invalid configuration: STRIPE_SECRET_KEY is required when PAYMENTS is stripe"],
    [{ LIGHTNING: "lnd" }, "Invalid configuration: LND_REST_URL is required when LIGHTNING is lnd"],
    [
      { STT_PROVIDER: "openai" },
      "Invalid configuration: OPENAI_SPEECH_API_KEY is required when STT_PROVIDER is openai",
    ],
    [
      { TTS_PROVIDER: "cartesia" },
      "Invalid configuration: CARTESIA_API_KEY is required when TTS_PROVIDER is cartesia",
    ],
    [
      { TTS_PROVIDER: "cartesia", CARTESIA_API_KEY: "c" },
      "Invalid configuration: CARTESIA_VOICE is required when TTS_PROVIDER is cartesia",
    ],
    [
      { LIGHTNING: "lnd", LND_REST_URL: "https://127.0.0.1:8080" },
      "Invalid configuration: LND_MACAROON is required when LIGHTNING is lnd",
    ],
    [
      { BODY_LIMIT_BYTES: "-1" },
      'Invalid configuration: BODY_LIMIT_BYTES must be a positive number of bytes (got "-1")',
    ],
    [
      { DATABASE_POOL_SIZE: "1" },
      'Invalid configuration: DATABASE_POOL_SIZE must be a whole number of connections from 2 (one listens for notifications) (got "1")',
    ],
  ])("refuses %j with one line naming the variable", (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
    expect(message).not.toContain("\n");
  });

  it("stops the server at start-up with that one line and exit code 1", { timeout: within(20_000) }, () => {
    const result = spawnSync(
      process.execPath,
      ["--import", "tsx", path.resolve(import.meta.dirname, "server.ts")],
      {
        env: { ...process.env, PORT: "not-a-port", DATABASE_URL: "" },
        encoding: "utf8",
        // Loading the server through tsx takes seconds alone, and more on a busy machine.
        timeout: within(15_000),
      },
    );
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(
      'Invalid configuration: PORT must be a whole number from 0 to 65535 (got "not-a-port")',
    );
  });
});
