import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The one place that sorts the server's test files into lanes, by what a file does:
 * - real time: it makes calls on the clock (dials over SIP, calls a simulated callee, drives a call leg frame
 *   by frame, runs sipp or Kamailio) or kills a server mid-work. These measure latencies and pacing, so
 *   they run two files at a time, after the rest, on a machine that is otherwise quieter (the
 *   `server-realtime` project);
 * - PostgreSQL: it opens a database (the test harness or `DATABASE_URL` directly), so CI runs it on a
 *   PostgreSQL server too. The rest (parsers, providers, SIP framing, pure rules) run no SQL, so a second
 *   database adds nothing to them. A real-time file runs there too only when it takes a path of its own on
 *   PostgreSQL (it names `DATABASE_URL`: workers and servers sharing one database, a second instance): the
 *   others test timing and the call path, and their SQL is the repositories' that the database files test on
 *   both. Running them twice cost the PostgreSQL lane most of its time.
 */
const REAL_TIME =
  /\b(dialSip|createFakeCallLeg|setSandboxCallee|sipp|kamailio|SIGKILL|demoCallsJob|agentTestRunJob)\b/;
const OPENS_A_DATABASE = /\b(createTestDatabase|buildTestApp|createSharedTestDatabase|DATABASE_URL)\b/;
const OWN_POSTGRES_PATH = /\bDATABASE_URL\b/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : testFiles(full);
    return entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

/** The server's test files (relative to apps/server) with the lanes they belong to. */
function serverTestFiles(serverRoot: string): { file: string; realTime: boolean; postgres: boolean }[] {
  return ["src", "test"]
    .flatMap((dir) => testFiles(path.join(serverRoot, dir)))
    .sort()
    .map((full) => {
      const text = readFileSync(full, "utf8");
      const realTime = REAL_TIME.test(text) || full.includes(`${path.sep}modules${path.sep}voice${path.sep}`);
      return {
        file: path.relative(serverRoot, full),
        realTime,
        postgres: OPENS_A_DATABASE.test(text) && (!realTime || OWN_POSTGRES_PATH.test(text)),
      };
    });
}

/** The files of one server project: real-time or not, and under SERVER_LANE=postgres only those of that lane. */
export function serverProjectFiles(serverRoot: string, realTime: boolean): string[] {
  const postgresLane = process.env.SERVER_LANE === "postgres";
  return serverTestFiles(serverRoot)
    .filter((entry) => entry.realTime === realTime && (!postgresLane || entry.postgres))
    .map((entry) => entry.file);
}
