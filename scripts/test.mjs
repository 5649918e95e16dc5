#!/usr/bin/env node
// `npm test`: the static checks, the Vitest suites (server on PGlite) and the browser journeys, as three
// lanes side by side. `TEST_LANES=unit,e2e` runs only those.
import { runLanes } from "./run-lanes.mjs";

const lanes = [
  { name: "static", steps: ["npm run typecheck", "npm run lint"] },
  { name: "unit", steps: ["npm run test:unit"] },
  { name: "e2e", steps: ["npm run test:e2e"] },
];
const only = process.env.TEST_LANES?.split(",").map((name) => name.trim());
await runLanes(only ? lanes.filter((lane) => only.includes(lane.name)) : lanes);
