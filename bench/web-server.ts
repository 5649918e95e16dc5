// The web benches' server: the production build of apps/web (built when missing, or always with
// BENCH_BUILD=1) served by the real server (apps/server/src/server.ts) on a free loopback port, on a fresh
// embedded database of its own with the demo data (NODE_ENV unset seeds it), as `npm start` runs it.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "..");
export const DIST = path.join(ROOT, "apps/web/dist");
export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
/** The flags this machine's Chromium needs (the same as e2e/playwright.config.ts). */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Builds the web app (with its .gz/.br files) unless a build is there and BENCH_BUILD is not 1. */
export function ensureBuild(): void {
  if (existsSync(path.join(DIST, "index.html")) && process.env.BENCH_BUILD !== "1") return;
  const build = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
  if (build.status !== 0) throw new Error("npm run build failed");
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export type WebServer = { origin: string; stop: () => Promise<void> };

/** Starts the real server on a free loopback port and waits until /readyz answers. */
export async function startWebServer(): Promise<WebServer> {
  ensureBuild();
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "switchboard-bench-web-"));
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "apps/server/src/server.ts"], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
    // No demo calls: their speech processes would share the cores with the page being measured.
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      DEMO_CALLS: "false",
      // Sign-in codes are read from the dev outbox.
      DEV_OUTBOX: "true",
    },
  });
  const origin = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${origin}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGTERM");
      throw new Error("the server did not become ready in 90 s");
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    origin,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A session of a demo person: sign-in code from the dev outbox, as the e2e journeys do. */
export async function demoSession(
  origin: string,
  email: string,
): Promise<{ token: string; id: number; username: string }> {
  const outbox = async () =>
    (
      (await (await fetch(`${origin}/api/dev/outbox?limit=50`)).json()) as {
        messages: { id: number; to: string; subject: string | null; body: string }[];
      }
    ).messages;
  const mark = (await outbox())[0]?.id ?? 0;
  const asked = await fetch(`${origin}/api/v1/signin/email`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email }),
  });
  if (!asked.ok) throw new Error(`sign-in code for ${email}: ${asked.status} ${await asked.text()}`);
  let code: string | undefined;
  for (let attempt = 0; attempt < 40 && !code; attempt++) {
    const message = (await outbox()).find((m) => m.id > mark && m.to.toLowerCase() === email);
    code = message ? /\b(\d{6})\b/.exec(`${message.subject ?? ""} ${message.body}`)?.[1] : undefined;
    if (!code) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (!code) throw new Error(`no sign-in code for ${email} in the dev outbox`);
  const verified = await fetch(`${origin}/api/v1/email/verify`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, verificationCode: code }),
  });
  if (!verified.ok) throw new Error(`sign-in of ${email}: ${verified.status} ${await verified.text()}`);
  return (await verified.json()) as { token: string; id: number; username: string };
}
