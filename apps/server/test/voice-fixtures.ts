import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rename } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { parseWav } from "../src/audio/pcm.ts";
import { accounts, memberships, users } from "../src/db/schema/index.ts";
import { issueSessionToken } from "../src/modules/auth/sessions.ts";

const run = promisify(execFile);
const dir = path.join(tmpdir(), "switchboard-voice-fixtures");

/**
 * A spoken question for voice tests: festival's HTS voice (the offline recogniser knows it best), resampled
 * to 16 kHz mono PCM16 by sox. Made at test time and kept in the temp folder by text. Needs the Debian tools
 * scripts/ensure-voice-tools.mjs installs.
 */
export async function spokenFixture(text: string, options: { tempo?: number } = {}): Promise<Int16Array> {
  await mkdir(dir, { recursive: true });
  const key = createHash("sha1")
    .update(`${text}|${options.tempo ?? 1}`)
    .digest("hex")
    .slice(0, 16);
  const file = path.join(dir, `${key}.wav`);
  if (!existsSync(file)) {
    const raw = path.join(dir, `${key}.${process.pid}.raw.wav`);
    const out = path.join(dir, `${key}.${process.pid}.wav`);
    const child = run("text2wave", ["-eval", "(voice_cmu_us_slt_arctic_hts)", "-o", raw]);
    child.child.stdin?.end(text);
    await child;
    const effects = options.tempo ? ["tempo", String(options.tempo)] : [];
    await run("sox", [raw, "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", out, ...effects]);
    await rename(out, file);
  }
  const wav = parseWav(await readFile(file));
  if (wav.sampleRate !== 16_000 || wav.channels !== 1) throw new Error(`bad fixture ${file}`);
  return wav.samples;
}

/** `ms` of silence (or quiet noise at `level`) at 16 kHz. */
export function silence(ms: number, level = 0): Int16Array {
  const samples = new Int16Array((16_000 * ms) / 1000);
  if (level > 0)
    for (let i = 0; i < samples.length; i++) samples[i] = Math.round((Math.random() - 0.5) * level);
  return samples;
}

export function concat(...parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The demo data's Front Desk agent, its organisation and a session of the organisation's owner. */
export async function demoFrontDesk(app: FastifyInstance) {
  const db = app.context.database.db;
  const rows = await db.select().from(accounts).where(eq(accounts.accountType, "agent"));
  const agent = rows.find((r) => (r.details as { agentName?: string }).agentName === "Front Desk");
  if (!agent?.organizationId) throw new Error("demo Front Desk agent missing");
  const orgId = agent.organizationId;
  const [owner] = await db
    .select({ id: users.id })
    .from(users)
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .where(eq(memberships.accountId, orgId));
  if (!owner) throw new Error("demo owner missing");
  return { agent, orgId, ownerToken: await issueSessionToken(db, owner.id, orgId) };
}
