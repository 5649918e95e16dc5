#!/usr/bin/env node
// The server the e2e suite drives: the built web app on a fresh embedded database of its own.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const port = process.env.E2E_PORT || "3100";
const dataDir = path.join(os.tmpdir(), `switchboard-e2e-${port}`);
rmSync(dataDir, { recursive: true, force: true });

const server = spawn(process.execPath, ["--import", "tsx", "apps/server/src/server.ts"], {
  cwd: root,
  stdio: "inherit",
  env: {
    ...process.env,
    PORT: port,
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.LOG_LEVEL || "warn",
    // SIP on a port of this e2e server's own (E2E_PORT + 2000), so parallel suites do not fight over 5060.
    SIP_PORT: process.env.SIP_PORT || String(Number(port) + 2000),
    // The webhook journey's receiver listens on loopback, which only the operator may open.
    OUTBOUND_ALLOWLIST: process.env.OUTBOUND_ALLOWLIST || "127.0.0.1:*",
    // The journeys count the demo's calls and live calls: no simulated callers ringing in meanwhile.
    DEMO_CALLS: process.env.DEMO_CALLS || "false",
    // Calls run in one voice worker process, as under `npm start` (which starts one per core): the journeys
    // make no SIP calls, so one keeps the suite's memory and start-up small.
    VOICE_WORKERS: process.env.VOICE_WORKERS || "1",
    // The journeys sign in with codes read from the dev outbox.
    DEV_OUTBOX: "true",
    // The whole suite signs up and in from one loopback address, where real sign-ups each come from their
    // own network: 20 codes per 15 minutes would refuse the later journeys of a slow run.
    SIGN_IN_CODES_PER_NETWORK: process.env.SIGN_IN_CODES_PER_NETWORK || "500",
    // The usage sweep every few seconds, so the usage journey sees its texts debited while it waits.
    USAGE_DEBIT_INTERVAL_SECONDS: process.env.USAGE_DEBIT_INTERVAL_SECONDS || "3",
  },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
