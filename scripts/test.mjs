#!/usr/bin/env node
// `npm test`: the static checks, the Vitest suites (server on PGlite) and the browser journeys, in two lanes
// side by side, one per core of a small machine: the static checks then the browser journeys, and the unit
// suites. More at once only makes every process wait for a core (timeouts, not speed). With
// TEST_POSTGRES_URL set (CI), the server's database tests also run on that PostgreSQL server: the real-time
// ones (calls on the clock: they wait more than they compute) in a third lane from the start, the rest after
// the browser journeys. `TEST_LANES=unit,e2e` runs only those parts.
import { runLanes } from "./run-lanes.mjs";

// By then the unit lane is in its own real-time files, which leave a core free: two files at once.
const postgres = process.env.TEST_POSTGRES_URL
  ? (project, workers) => [
      `VITEST_WORKERS=${workers} DATABASE_URL=${process.env.TEST_POSTGRES_URL} npm run test:postgres -- --project ${project}`,
    ]
  : () => [];
const parts = {
  static: ["npm run typecheck", "npm run lint"],
  unit: ["npm run test:unit"],
  e2e: ["npm run test:e2e"],
  postgres: postgres("server", 2),
  "postgres-realtime": postgres("server-realtime", 1),
};
const only = process.env.TEST_LANES?.split(",").map((name) => name.trim());
const pick = (...names) => names.filter((name) => parts[name].length > 0 && (!only || only.includes(name)));
const lanes = [pick("static", "e2e", "postgres"), pick("unit"), pick("postgres-realtime")]
  .filter((names) => names.length > 0)
  .map((names) => ({ name: names.join("+"), steps: names.flatMap((name) => parts[name]), keepGoing: true }));
await runLanes(lanes);
