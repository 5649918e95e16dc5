// Transfer set-up time (issue 35): from the agent's decision (its transferCall accepted) to the destination
// ringing, and from the transfer's start (after the agent's "transferring you" was played) to ringing. The
// caller is the SIP test user agent on loopback (L16/16000) asking "Can I speak to a person?"; the demo's
// Front Desk agent with the sandbox model and offline speech transfers cold to its transfer number, the far
// end not allowing REFER, so the pipeline dials and bridges a new leg:
//   - sandbox: the sandbox carrier's simulated person (rings at once, answers at once);
//   - sip: the organisation's trunk is a SIP server on loopback that answers 180 Ringing, then 200 OK after
//     300 ms (the UAC's INVITE → 180 is the set-up);
//   - warm: the sandbox person again, the agent's instructions asking it to introduce the caller first, so
//     the agent says a summary to the person before the caller joins.
// For each, also the caller's whole wait: the agent's decision to the caller connected to the person.
// N = 8 calls per destination (BENCH_SIZE=smoke: 3). No target: a figure, not a guard.

import { and, eq } from "drizzle-orm";
import { buildApp } from "../apps/server/src/app.ts";
import { toFrames } from "../apps/server/src/audio/pcm.ts";
import { openPglite } from "../apps/server/src/db/client.ts";
import { accounts, agentConfigs, conversationLogs } from "../apps/server/src/db/schema/index.ts";
import { startSipServer } from "../apps/server/src/modules/voice/sip/sip-server.ts";
import { testConfig } from "../apps/server/test/helpers.ts";
import { dialSip } from "../apps/server/test/sip-test-ua.ts";
import { concat, silence, spokenFixture } from "../apps/server/test/voice-fixtures.ts";
import { reportFigure } from "./report.ts";

const SMOKE = process.env.BENCH_SIZE === "smoke";
const N = SMOKE ? 3 : 8;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const app = await buildApp(testConfig({ DEMO_DATA: "true", OUTBOUND_ALLOWLIST: "127.0.0.1:*" }), {
  database: await openPglite(),
});
const db = app.context.database.db;
const rows = await db.select().from(accounts).where(eq(accounts.accountType, "agent"));
const agent = rows.find((r) => (r.details as { agentName?: string }).agentName === "Front Desk");
if (!agent) throw new Error("demo Front Desk agent missing");
const question = toFrames(concat(await spokenFixture("Can I speak to a person?"), silence(1500)));

const sip = await startSipServer({
  host: "127.0.0.1",
  port: 0,
  onCall: (leg) => {
    app.voice.startCallSession(leg, { agentAccountId: agent.id, settings: { idlePromptSeconds: 0 } });
    return undefined;
  },
});
// The loopback "trunk": rings, answers 300 ms later, says nothing, hangs up when the bridge ends.
const trunk = await startSipServer({
  host: "127.0.0.1",
  port: 0,
  onCall: async () => {
    await wait(300);
    return undefined;
  },
});

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

type Figures = { decisionMs: number; setupMs: number; connectedMs: number | null };

async function oneCall(): Promise<Figures | null> {
  const call = await dialSip({ port: sip.port, user: String(agent?.id) });
  await wait(3500); // the greeting
  call.say(question);
  // The question (2 s), the agent's "transferring you" (3-4 s), the set-up, a warm transfer's summary to the
  // person (about 4 s) and a moment of the bridge.
  await wait(14_000);
  await call.hangup().catch(() => {});
  // The transfer's figures are in the call's log row, written once the call has ended.
  const until = performance.now() + 15_000;
  while (performance.now() < until) {
    const [row] = await db.select().from(conversationLogs).where(eq(conversationLogs.callId, call.callId));
    const data = row?.data as
      | {
          callOutcome?: string;
          transfers?: { decisionMs: number | null; setupMs: number | null; connectedMs?: number | null }[];
        }
      | undefined;
    if (data?.callOutcome) {
      const found = data.transfers?.[0];
      return found?.decisionMs != null && found.setupMs != null
        ? { decisionMs: found.decisionMs, setupMs: found.setupMs, connectedMs: found.connectedMs ?? null }
        : null;
    }
    await wait(200);
  }
  return null;
}

/** Asks the agent for warm transfers, as an owner would in its instructions (both stages: calls use either). */
async function askForWarmTransfers() {
  const configs = await db
    .select()
    .from(agentConfigs)
    .where(eq(agentConfigs.agentAccountId, agent?.id ?? 0));
  for (const row of configs) {
    const config = row.config as { agentInstructions?: string };
    await db
      .update(agentConfigs)
      .set({
        config: {
          ...row.config,
          agentInstructions: `${config.agentInstructions ?? ""}\nWhen you transfer, introduce the caller to the person first.`,
        },
      })
      .where(and(eq(agentConfigs.agentAccountId, row.agentAccountId), eq(agentConfigs.stage, row.stage)));
  }
}

for (const destination of ["sandbox", "sip", "warm"] as const) {
  app.numbers.outbound.useTrunkResolver(async () =>
    destination === "sip" ? { host: "127.0.0.1", port: trunk.port, transport: "udp" as const } : null,
  );
  if (destination === "warm") await askForWarmTransfers();
  const decision: number[] = [];
  const setup: number[] = [];
  const connected: number[] = [];
  let failed = 0;
  for (let i = 0; i < N; i++) {
    const result = await oneCall();
    if (!result) failed++;
    else {
      decision.push(result.decisionMs);
      setup.push(result.setupMs);
      if (result.connectedMs !== null) connected.push(result.connectedMs);
    }
  }
  console.log(
    `${destination}: ${decision.length}/${N} transferred; decision → ringing p50 ${quantile(decision, 0.5)} ms, p95 ${quantile(decision, 0.95)} ms; transfer start → ringing p50 ${quantile(setup, 0.5)} ms, p95 ${quantile(setup, 0.95)} ms; decision → caller connected p50 ${quantile(connected, 0.5)} ms, p95 ${quantile(connected, 0.95)} ms`,
  );
  for (const [name, values] of [
    [`${destination} decision to ringing p50`, decision],
    [`${destination} decision to ringing p95`, decision],
    [`${destination} transfer start to ringing p50`, setup],
    [`${destination} transfer start to ringing p95`, setup],
    [`${destination} decision to caller connected p50`, connected],
    [`${destination} decision to caller connected p95`, connected],
  ] as const) {
    reportFigure({
      bench: "transfer",
      name,
      value: quantile(values, name.endsWith("p95") ? 0.95 : 0.5),
      unit: "ms",
      better: "lower",
    });
  }
  if (failed) console.log(`${destination}: ${failed} call(s) did not transfer`);
}

await sip.close();
await trunk.close();
await app.close();
process.exit(0);
