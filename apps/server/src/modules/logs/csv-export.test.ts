import http from "node:http";
import type { AddressInfo } from "node:net";
import { DAY_MS, parseCsv } from "@switchboard/core";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildHierarchy } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { conversationLogs } from "../../db/schema/index.ts";
import { CopyCsvLines, csvLine } from "./csv.ts";
import { insertGeneratedLogs } from "./insert-generated-logs.ts";
import { createLogsRepository, dataFieldSql, fixedFieldSql } from "./logs.repository.ts";
import { queryRows } from "./sql.ts";

/**
 * The CSV export as a download sees it, on both databases: on a PostgreSQL server it streams
 * `COPY (SELECT …) TO STDOUT (FORMAT csv)` with the filter's values written in as literals, on PGlite the
 * lines built in SQL. Its bytes are the same either way, hostile values included.
 */

let app: FastifyInstance;
let base: string;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
const onServer = process.env.DATABASE_URL !== undefined && process.env.DATABASE_URL !== "";
const NOW = Date.now();

/** Cell texts that need quoting, defusing, both or neither, and look-alikes of the COPY markers. */
const HOSTILE = [
  "plain",
  "a,b",
  'say "hi"',
  '"',
  '""',
  '"\r',
  'a"\rb',
  ',"\r"',
  "one\ntwo",
  "ends\n",
  "cr\rhere",
  "\r",
  "\rstarts",
  "=1+1",
  "+1 555",
  "-cmd",
  "@SUM(A1)",
  "\tx",
  '=HYPERLINK("x","y")',
  "+15035550100",
  "-12",
  "-1.5",
  "+.5",
  "",
  "'quoted'",
  "\\.",
  "\\N",
  "back\\slash\\",
  "Ω≈ç√ 😀 \u202e",
  "it's; DROP TABLE conversation_logs; --",
  "$1",
  " lead and trail ",
  "x".repeat(70_000),
  `${'"'.repeat(40_000)}\n${",".repeat(30_000)}`,
];
const FIELDS = "uuid,note,cnam,fromNumber,duration,timestamp,accountId,agentId,reason";

async function download(path: string, query: Record<string, string>, token: string) {
  const search = new URLSearchParams({ token, ...query });
  const res = await fetch(`${base}${path}?${search}`);
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** The lines the PGlite path builds (csvLineSql), for the same fields, rows and order as the export. */
async function builtInSql(orgId: number, fields: string[], start: Date, end: Date): Promise<string> {
  const repo = createLogsRepository(app.context.database);
  const cells = fields.map((field) =>
    ["uuid", "cnam", "fromNumber", "duration", "timestamp", "accountId", "agentId"].includes(field)
      ? {
          sql: fixedFieldSql(field as "uuid", true),
          plain: ["duration", "timestamp", "accountId", "agentId"].includes(field),
        }
      : { sql: dataFieldSql(field, true), plain: false },
  );
  const where = {
    scope: { orgIds: [orgId], agentId: null },
    channels: ["voice" as const],
    start,
    end,
    filter: { sql: sql`TRUE` },
  };
  let text = csvLine(fields);
  for await (const part of repo.csvSlices(where, cells, 5, 2)) text += part;
  return text;
}

/** Rows of the export's statements still running on the server (COPY or the slices). */
async function exportsRunning(): Promise<number> {
  if (!onServer) return 0;
  const [row] = await queryRows<{ n: number }>(
    app.context.database,
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database()
      AND pid <> pg_backend_pid() AND state = 'active' AND query LIKE 'COPY (SELECT%'`,
  );
  return Number(row?.n ?? 0);
}

async function until(check: () => Promise<boolean>, what: string, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  app = await buildTestApp();
  world = await buildHierarchy(app, "csv33");
  const { O1, U } = world.accounts;
  const db = app.context.database.db;
  await db.insert(conversationLogs).values(
    HOSTILE.map((note, i) => ({
      orgId: O1.id,
      accountId: O1.id,
      accountName: "Org",
      timestamp: new Date(NOW - (i + 1) * 60_000),
      duration: i,
      direction: "inbound",
      transfer: "0",
      uuid: `hostile-${i}`,
      roomId: `room-${i}`,
      callId: `call-${i}`,
      cnam: HOSTILE[(i + 1) % HOSTILE.length] ?? null,
      fromNumber: i % 5 === 0 ? null : (HOSTILE[(i + 2) % HOSTILE.length] ?? null),
      data: { note, reason: HOSTILE[(i + 3) % HOSTILE.length], seen: i },
    })),
  );
  // Rows of a generated organisation, for whole exports.
  await insertGeneratedLogs(db, {
    orgId: U.id,
    accountName: "U",
    agentIds: [U.id],
    count: 15_000,
    days: 10,
  });
  // On a server, wide rows too (30 MB in all): more than the sockets between the database, this server
  // and the download hold, so a paused download keeps the COPY waiting.
  if (onServer)
    await db.execute(sql`INSERT INTO conversation_logs (org_id, account_id, account_name, "timestamp", duration,
    direction, transfer, uuid, room_id, call_id, data)
    SELECT ${U.id}, ${U.id}, 'U', now() - make_interval(secs => i), 0, 'inbound', '0', 'wide-' || i, 'room', 'call',
      jsonb_build_object('note', repeat(md5(i::text), 320)) FROM generate_series(1, 3000) i`);
  await app.listen({ host: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  await app.close();
});

describe("CSV export bytes", () => {
  it("are the lines csvLine writes, hostile cells included, whatever the chunks", () => {
    // COPY's own form of the hostile cells: a record per line, LF-terminated, cells to defuse marked.
    const copyCell = (text: string | null) => {
      if (text === null || text === "") return "";
      const value = /^[=+\-@\t\r]/.test(text) ? `\r${text}` : text;
      return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
    };
    const rows = HOSTILE.map((text, i) => [text, HOSTILE[(i + 5) % HOSTILE.length] ?? null, null, "7"]);
    const copied = Buffer.from(rows.map((row) => `${row.map(copyCell).join(",")}\n`).join(""));
    const expected = rows.map((row) => csvLine(row)).join("");
    expect(Buffer.concat([new CopyCsvLines().push(copied)]).toString()).toBe(expected);
    // Split at every position of the short rows' bytes (two and three chunks).
    const short = Buffer.from(
      rows
        .filter((row) => (row[0]?.length ?? 0) < 100 && (row[1]?.length ?? 0) < 100)
        .map((row) => `${row.map(copyCell).join(",")}\n`)
        .join(""),
    );
    const shortExpected = new CopyCsvLines().push(short).toString();
    for (let cut = 0; cut <= short.length; cut++) {
      const lines = new CopyCsvLines();
      const a = lines.push(short.subarray(0, cut));
      const b = lines.push(short.subarray(cut, cut + 7));
      const c = lines.push(short.subarray(cut + 7));
      expect(Buffer.concat([a, b, c]).toString(), `cut at ${cut}`).toBe(shortExpected);
    }
  });

  it("are byte-identical to the lines built in SQL, on this database's export path", async () => {
    const { O1 } = world.accounts;
    const start = new Date(NOW - DAY_MS);
    const end = new Date(NOW + 60_000);
    const query = {
      format: "csv",
      fields: FIELDS,
      start: start.toISOString(),
      end: end.toISOString(),
    };
    const got = await download("/api/v2/logs", query, world.members.o1Owner.token);
    expect(got.status).toBe(200);
    const text = got.bytes.toString("utf8");
    expect(text).toBe(await builtInSql(O1.id, FIELDS.split(","), start, end));
    // And what a spreadsheet reads back: every note as it was stored, newest first.
    const rows = parseCsv(text);
    expect(rows.slice(1).map((row) => row[0])).toEqual(HOSTILE.map((_, i) => `hostile-${i}`));
    const defused = (value: string) =>
      /^[=+\-@\t\r]/.test(value) && !/^[+-]?\d+(?:\.\d+)?$/.test(value) ? `'${value}` : value;
    expect(rows.slice(1).map((row) => row[1])).toEqual(HOSTILE.map(defused));
    // A page of the export takes the same path.
    const page = await download(
      "/api/v2/logs",
      { ...query, page: "2", pageSize: "10" },
      world.members.o1Owner.token,
    );
    const lines = text.split("\r\n");
    expect(parseCsv(page.bytes.toString()).map((row) => row[0])).toEqual([
      "uuid",
      ...HOSTILE.slice(10, 20).map((_, i) => `hostile-${i + 10}`),
    ]);
    expect(lines.length).toBeGreaterThan(HOSTILE.length);
  });
});

describe("CSV export filters with hostile values", () => {
  it("match the rows holding those values, and inject nothing", async () => {
    const token = world.members.o1Owner.token;
    const window = { start: new Date(NOW - DAY_MS).toISOString(), end: new Date(NOW + 60_000).toISOString() };
    const hostile = [
      "it's; DROP TABLE conversation_logs; --",
      "back\\slash\\",
      '"',
      "$1",
      "Ω≈ç√ 😀 \u202e",
      "\\N",
      "'quoted'",
    ];
    for (const value of hostile) {
      const got = await download(
        "/api/v2/logs",
        {
          format: "csv",
          fields: "uuid,note",
          filters: JSON.stringify({ note: { value, op: "is" } }),
          ...window,
        },
        token,
      );
      expect(got.status, value).toBe(200);
      const rows = parseCsv(got.bytes.toString()).slice(1);
      expect(
        rows.map((row) => row[0]),
        value,
      ).toEqual(HOSTILE.flatMap((note, i) => (note === value ? [`hostile-${i}`] : [])));
    }
    // contains: the value's % _ and \ are literal text, not patterns.
    const contains = await download(
      "/api/v2/logs",
      {
        format: "csv",
        fields: "uuid",
        filters: JSON.stringify({ note: { value: "slash\\", op: "contains" } }),
        ...window,
      },
      token,
    );
    expect(parseCsv(contains.bytes.toString()).slice(1)).toEqual([
      [`hostile-${HOSTILE.indexOf("back\\slash\\")}`],
    ]);
    // A value with NUL is refused before any statement; the table is still there, every row in it.
    const nul = await download(
      "/api/v2/logs",
      { format: "csv", fields: "uuid", filters: JSON.stringify({ note: { value: "a\u0000b", op: "is" } }) },
      token,
    );
    expect(nul.status).toBe(400);
    const all = await download("/api/v2/logs", { format: "csv", fields: "uuid", ...window }, token);
    expect(parseCsv(all.bytes.toString()).slice(1)).toHaveLength(HOSTILE.length);
  });
});

describe.runIf(onServer)("CSV export by COPY on a PostgreSQL server", () => {
  const exportUrl = () => {
    const search = new URLSearchParams({
      token: world.members.uOwner.token,
      format: "csv",
      channel: "all",
      dateFilter: "365 day",
    });
    return `${base}/api/v2/logs?${search}`;
  };
  /** Starts a download and pauses it after its first chunk. */
  function pausedDownload(): Promise<{ request: http.ClientRequest; response: http.IncomingMessage }> {
    return new Promise((resolve, reject) => {
      const request = http.get(exportUrl(), (response) => {
        response.once("data", () => {
          response.pause();
          resolve({ request, response });
        });
      });
      request.on("error", reject);
    });
  }
  const pool = () => {
    const driver = app.context.database.driver;
    if (driver.kind !== "postgres") throw new Error("not on a server");
    return driver.pool;
  };

  it("waits while the download is full, and a closed download ends its COPY and frees the connection", async () => {
    const poolSize = (pool().options as { max?: number }).max ?? 10;
    // Connections out of the pool before (the server's own LISTEN connection): the same number after.
    const held = () => pool().totalCount - pool().idleCount;
    const heldBefore = held();
    for (let i = 0; i < poolSize + 2; i++) {
      const { request, response } = await pausedDownload();
      await until(async () => (await exportsRunning()) === 1, "the COPY to run");
      // Backpressure: the statement waits to write to this server, which waits for the download.
      if (i === 0) {
        await until(async () => {
          const [waiting] = await queryRows<{ wait: string | null }>(
            app.context.database,
            `SELECT wait_event AS wait FROM pg_stat_activity WHERE datname = current_database()
              AND state = 'active' AND query LIKE 'COPY (SELECT%'`,
          );
          return waiting?.wait === "ClientWrite";
        }, "the COPY to wait on its client");
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(await exportsRunning()).toBe(1);
      }
      response.destroy();
      request.destroy();
      await until(async () => (await exportsRunning()) === 0, "the COPY to end");
    }
    // No connection was kept (more downloads were closed than the pool holds), and a whole export runs.
    await until(async () => held() === heldBefore, "the pool's connections to be back");
    expect(pool().waitingCount).toBe(0);
    const whole = await download(
      "/api/v2/logs",
      { format: "csv", channel: "all", dateFilter: "365 day", fields: "uuid" },
      world.members.uOwner.token,
    );
    expect(whole.status).toBe(200);
    expect(parseCsv(whole.bytes.toString()).slice(1)).toHaveLength(18_000);
  });

  it("ends the download, not the process, when the database fails mid-stream", async () => {
    const { request, response } = await pausedDownload();
    await until(async () => (await exportsRunning()) === 1, "the COPY to run");
    const ended = new Promise<string>((resolve) => {
      response.on("error", () => resolve("error"));
      response.on("aborted", () => resolve("aborted"));
      response.on("end", () => resolve(response.complete ? "complete" : "cut"));
      response.on("close", () => resolve(response.complete ? "complete" : "cut"));
    });
    await queryRows(
      app.context.database,
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database()
        AND state = 'active' AND query LIKE 'COPY (SELECT%'`,
    );
    response.resume();
    // The download stops short of the whole file (no last chunk): the process goes on.
    expect(await ended).not.toBe("complete");
    request.destroy();
    await until(async () => (await exportsRunning()) === 0, "the COPY to end");
    const whole = await download(
      "/api/v2/logs",
      { format: "csv", channel: "all", dateFilter: "365 day", fields: "uuid" },
      world.members.uOwner.token,
    );
    expect(parseCsv(whole.bytes.toString()).slice(1)).toHaveLength(18_000);
  });
});
