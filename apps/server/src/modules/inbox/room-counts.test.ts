import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { createTestDatabase, testConfig } from "../../../test/helpers.ts";
import { buildApp } from "../../app.ts";
import type { DatabaseHandle } from "../../db/client.ts";
import { rooms } from "../../db/schema/index.ts";
import { createInboxRepository } from "./inbox.repository.ts";

// The inbox list's total comes from room_counts, kept by triggers on rooms (migration 0028): it must always
// equal counting the rooms, whatever happens to them.

let database: DatabaseHandle;
let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildApp(testConfig(), { database });
  world = await buildHierarchy(app);
});
afterAll(async () => {
  await app?.close();
});

/** The list's total next to a count of the rooms, for the organisation or one agent, per folder. */
async function totals(agentId: number | null, folder: "priority" | "agent", archived: boolean) {
  const orgId = world.accounts.O1.id;
  const repo = createInboxRepository(database.db);
  const listed = await repo.listRooms({
    orgId,
    agentId,
    userId: 1,
    folder,
    unread: false,
    archived,
    page: 0,
    pageSize: 5,
  });
  const counted = await database.db.execute(sql`
    select count(*)::int as n from rooms where org_id = ${orgId} and kind = 'live' and folder = ${folder}
      and ${archived ? sql`status = 'archived'` : sql`status <> 'archived'`}
      ${agentId === null ? sql`` : sql`and agent_account_id = ${agentId}`}`);
  const rows = (counted as unknown as { rows: { n: number }[] }).rows;
  return { listed: listed.total, counted: rows[0]?.n ?? -1 };
}

async function expectTotalsRight() {
  for (const agentId of [null, world.accounts.A1.id])
    for (const folder of ["priority", "agent"] as const)
      for (const archived of [false, true]) {
        const { listed, counted } = await totals(agentId, folder, archived);
        expect(listed, `${agentId ?? "org"} ${folder} archived=${archived}`).toBe(counted);
      }
}

describe("room counts", () => {
  it("follow rooms created, archived, moved, given a message, and deleted; test chats do not count", async () => {
    const orgId = world.accounts.O1.id;
    const agent = world.accounts.A1.id;
    const id = (n: number) => `room-count-${n}-${Date.now().toString(36)}`;
    const ids = Array.from({ length: 6 }, (_, n) => id(n));
    await database.db.insert(rooms).values(
      ids.map((roomId, n) => ({
        id: roomId,
        orgId,
        agentAccountId: agent,
        channel: "sms" as const,
        kind: n === 5 ? ("test" as const) : ("live" as const),
        externalAddress: `+1503555010${n}`,
      })),
    );
    const before = await totals(null, "priority", false);
    expect(before.listed).toBeGreaterThanOrEqual(5);
    await expectTotalsRight();

    await database.db.execute(sql`update rooms set status = 'archived' where id = ${ids[0]}`);
    await database.db.execute(sql`update rooms set folder = 'agent' where id = ${ids[1]}`);
    await database.db.execute(sql`update rooms set status = 'closed' where id = ${ids[2]}`);
    await database.db.execute(
      sql`update rooms set last_message_text = 'hi', last_message_at = now() where id = ${ids[3]}`,
    );
    await database.db.execute(sql`update rooms set kind = 'live' where id = ${ids[5]}`);
    await expectTotalsRight();
    expect((await totals(null, "priority", false)).listed).toBe(before.listed - 2 + 1);

    await database.db.execute(sql`delete from rooms where id in (${ids[3]}, ${ids[4]})`);
    await database.db.execute(sql`update rooms set status = 'open' where id = ${ids[0]}`);
    await expectTotalsRight();
  });
});
