import * as api from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildHierarchy } from "../../test/fixtures.ts";
import { buildTestApp } from "../../test/helpers.ts";

/**
 * Dates at the end of the range the database stores (9999-12-31T23:59:59.999Z): a route whose window runs
 * past it (a default span, a booking's length, a day) answers 400 with the reason, never 500. Run on both
 * databases (DATABASE_URL for PostgreSQL).
 */

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
const LAST_MS = api.TIME_MAX_MS;

beforeAll(async () => {
  app = await buildTestApp();
  world = await buildHierarchy(app);
});
afterAll(async () => {
  await app.close();
});

async function call(method: "GET" | "POST", url: string, payload?: object) {
  const separator = url.includes("?") ? "&" : "?";
  const res = await app.inject({
    method,
    url: `${url}${separator}token=${world.members.o1Owner.token}`,
    ...(payload ? { payload } : {}),
  });
  return { status: res.statusCode, message: res.json().message as string | undefined };
}

const refused = (message: string) => ({ status: 400, message });

describe("windows that would end after 9999-12-31", () => {
  it("the schedule's default 366 days from start", async () => {
    expect(await call("GET", `/api/v1/schedule?start=${LAST_MS}`)).toEqual(
      refused("start: without an end, the 366 days shown from start must end by 9999-12-31."),
    );
    expect((await call("GET", `/api/v1/schedule?start=${LAST_MS - api.SCHEDULE_SPAN_MS}`)).status).toBe(200);
    expect((await call("GET", `/api/v1/schedule?start=${LAST_MS - 1}&end=${LAST_MS}`)).status).toBe(200);
  });

  it("a booking that would end after it", async () => {
    const agentId = world.accounts.A1.id;
    expect(await call("POST", "/api/v1/schedule", { agentId, start: LAST_MS, name: "Late" })).toEqual(
      refused("start: the booking must end by 9999-12-31."),
    );
    expect(
      await call("POST", "/api/v1/schedule", {
        agentId,
        start: LAST_MS - 60 * 60_000,
        durationMinutes: 480,
        name: "Late",
      }),
    ).toEqual(refused("start: the booking must end by 9999-12-31."));
  });

  it.each(["9999-12-31", "12-31-9999", "1969-12-31"])("a day's campaign statistics for %s", async (day) => {
    expect(await call("GET", `/api/v1/stats/campaigns/${day}`)).toEqual(
      refused("date: Enter a date from 1970-01-01 to 9999-12-30."),
    );
    expect(
      await call("POST", "/api/v1/stats/campaigns", { dateString: day, campaignId: world.accounts.A1.id }),
    ).toEqual(refused("dateString: Enter a date from 1970-01-01 to 9999-12-30."));
  });

  it("the last day whose window fits, and days that do not exist", async () => {
    const last = await app.inject({
      method: "GET",
      url: `/api/v1/stats/campaigns/9999-12-30?token=${world.members.o1Owner.token}`,
    });
    expect(last.statusCode).toBe(200);
    expect(last.json().date).toBe("9999-12-30");
    expect(await call("GET", "/api/v1/stats/campaigns/2023-02-29")).toEqual(
      refused("date: Use a date as YYYY-MM-DD or MM-DD-YYYY."),
    );
  });

  it("a JobNimbus team's day", async () => {
    expect(await call("POST", "/api/jobnimbus/team", { targetDate: "9999-12-31" })).toEqual(
      refused("targetDate: Enter a date from 1970-01-01 to 9999-12-30."),
    );
  });
});
