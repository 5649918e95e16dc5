#!/usr/bin/env node
// `npm run dev`: the server (restarting on change) on :3000 and Vite with hot reload on :5173, which
// proxies the API to the server. Open http://127.0.0.1:5173/app.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const host = process.env.HOST || "127.0.0.1";
const local =
  ["127.0.0.1", "localhost", "::1", "[::1]"].includes(host) && process.env.NODE_ENV !== "production";
const children = [
  spawn(process.execPath, ["--import", "tsx", "--watch", "apps/server/src/server.ts"], {
    cwd: root,
    stdio: "inherit",
    // Sign-in codes at /api/dev/outbox, as with `npm start`: for a server on this machine only.
    env: { ...process.env, DEV_OUTBOX: process.env.DEV_OUTBOX || (local ? "true" : "false") },
  }),
  spawn("npm", ["run", "dev", "-w", "@switchboard/web", "--", "--host", "127.0.0.1"], {
    cwd: root,
    stdio: "inherit",
  }),
];
const stop = (signal) => {
  for (const child of children) child.kill(signal);
};
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));
for (const child of children) {
  child.on("exit", (code) => {
    stop("SIGTERM");
    process.exitCode = code ?? 0;
  });
}
