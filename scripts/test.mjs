#!/usr/bin/env node
// `npm test`: the static checks, the Vitest suites (server on PGlite) and the browser journeys, in two lanes
// side by side, one per core of a small machine: the static checks then the browser journeys, and the unit
// suites. More at once only makes every process wait for a core (timeouts, not speed). With
// TEST_POSTGRES_URL set (CI), the first lane then runs the server's database tests on that PostgreSQL
// server, one file at a time. `TEST_LANES=unit,e2e` runs only those parts.
import { runLanes } from "./run-lanes.mjs";

const postgresUrl = process.env.TEST_POSTGRES_URL;
const parts = {
  static: ["npm run typecheck", "npm run lint"],
  unit: ["npm run test:unit"],
  e2e: ["npm run test:e2e"],
  postgres: postgresUrl ? [`DATABASE_URL=${postgresUrl} npm run test:postgres`] : [],
};
const only = process.env.TEST_LANES?.split(",").map((name) => name.trim());
const pick = (...names) => names.filter((name) => parts[name].length > 0 && (!only || only.includes(name)));
const lanes = [pick("static", "e2e", "postgres"), pick("unit")]
  .filter((names) => names.length > 0)
  .map((names) => ({ name: names.join("+"), steps: names.flatMap((name) => parts[name]), keepGoing: true }));
await runLanes(lanes);
