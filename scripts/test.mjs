#!/usr/bin/env node
// `npm test`: the static checks, the Vitest suites (server on PGlite) and the browser journeys. Two lanes
// side by side, one per core of a small machine: the static checks then the browser journeys, and the unit
// suites. More at once only makes every process wait for a core (timeouts, not speed). `TEST_LANES=unit,e2e`
// runs only those parts.
import { runLanes } from "./run-lanes.mjs";

const parts = {
  static: ["npm run typecheck", "npm run lint"],
  unit: ["npm run test:unit"],
  e2e: ["npm run test:e2e"],
};
const only = process.env.TEST_LANES?.split(",").map((name) => name.trim());
const pick = (...names) => names.filter((name) => !only || only.includes(name));
const lanes = [pick("static", "e2e"), pick("unit")]
  .filter((names) => names.length > 0)
  .map((names) => ({ name: names.join("+"), steps: names.flatMap((name) => parts[name]), keepGoing: true }));
await runLanes(lanes);
