// Security issue #14 §4: the schema fuzz of the whole route table (test/route-fuzz.ts) at a small size,
// on the database of the run (PGlite, or PostgreSQL with DATABASE_URL). No answer may be 5xx or missing,
// and the server must still answer afterwards. FUZZ_PER_ROUTE and FUZZ_SEED change the size and the
// inputs; bench/route-fuzz.bench.ts runs it at ≥300 inputs per route.
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import { within } from "../../../vitest.time-limits.ts";
import { apiCaller } from "./api-call.ts";
import { buildHierarchy } from "./fixtures.ts";
import { buildTestApp, logCapture } from "./helpers.ts";
import { describeFailures, fuzzRoutes } from "./route-fuzz.ts";

const PER_ROUTE = Number(process.env.FUZZ_PER_ROUTE ?? 8);
const SEED = Number(process.env.FUZZ_SEED ?? 14);

const logs = logCapture();
let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp({ LOG_LEVEL: "error" }, { logDestination: logs.stream });
});
afterAll(async () => {
  await app.close();
});

it("answers every route's generated and hostile input below 500 and stays up", {
  timeout: within(120_000),
}, async () => {
  const result = await fuzzRoutes(app, { perRoute: PER_ROUTE, seed: SEED });
  // The server's own account of a failure (error and stack), when there is one.
  const serverLog = result.failures.length ? `\n\nserver log:\n${logs.text().slice(0, 4000)}` : "";
  expect(describeFailures(result.failures, 50) + serverLog).toBe("");
  expect(result.routes).toBeGreaterThanOrEqual(120);
  expect(result.requests).toBe(result.routes * PER_ROUTE);
  // The inputs are not all refused at the door: a fair share of routes answered some of them with success.
  expect(result.routesWithSuccess).toBeGreaterThan(result.routes / 5);

  const ready = await app.inject({ method: "GET", url: "/readyz" });
  expect(ready.statusCode).toBe(200);
  const world = await buildHierarchy(app);
  const account = await apiCaller(app)("GET", "/api/v1/account", { token: world.members.o1Owner.token });
  expect(account.status).toBe(200);
  expect(account.body.account.id).toBe(world.accounts.O1.id);
});
