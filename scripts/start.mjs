#!/usr/bin/env node
// `npm start`: builds the web app when its sources are newer than the last build, then runs the server
// on the embedded database (or DATABASE_URL when set).
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const build = spawnSync(process.execPath, [path.join(root, "scripts/build-web-if-changed.mjs")], {
  cwd: root,
  stdio: "inherit",
});
if (build.status !== 0) process.exit(build.status ?? 1);

// Voice calls need Debian's speech tools: installed here when missing (as root), like the tests do. Without
// them the product still starts; calls then say which tool is missing.
const voiceTools = spawnSync(process.execPath, [path.join(root, "scripts/ensure-voice-tools.mjs")], {
  cwd: root,
  stdio: "inherit",
});
if (voiceTools.status !== 0) console.log("Starting without voice calls (see the line above).");

// The demo's sign-in codes are listed at /api/dev/outbox: on by default here, for a server on this machine
// only (the server refuses DEV_OUTBOX=true on any other HOST, and in production).
const host = process.env.HOST || "127.0.0.1";
const local =
  ["127.0.0.1", "localhost", "::1", "[::1]"].includes(host) && process.env.NODE_ENV !== "production";
const server = spawn(process.execPath, ["--import", "tsx", "apps/server/src/server.ts"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, DEV_OUTBOX: process.env.DEV_OUTBOX || (local ? "true" : "false") },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
