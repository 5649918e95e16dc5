import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { accounts } from "./accounts.ts";

/**
 * An agent's test scenarios: what a simulated caller says (its lines, one per turn; its persona in plain
 * words) and the checks its call must meet. `checks` is the API's scenario check list, checked by the API.
 */
export const agentTestScenarios = pgTable(
  "agent_test_scenarios",
  {
    id: serial("id").primaryKey(),
    orgId: integer("org_id").notNull(),
    agentAccountId: integer("agent_account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    persona: text("persona").notNull().default(""),
    lines: jsonb("lines").$type<string[]>().notNull(),
    checks: jsonb("checks").$type<Record<string, unknown>[]>().notNull(),
    required: boolean("required").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("agent_test_scenarios_org_idx").on(t.orgId, t.agentAccountId)],
);

/**
 * One run of an agent's scenarios, against the staging copy at `revision` (a save without a change, such as
 * the one before a publish, makes a new revision of the same configuration: `config_hash` tells them apart).
 */
export const agentTestRuns = pgTable(
  "agent_test_runs",
  {
    id: serial("id").primaryKey(),
    orgId: integer("org_id").notNull(),
    agentAccountId: integer("agent_account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    /** The tested configuration's fingerprint (agent-tests/config-fingerprint.ts): what publishing compares. */
    configHash: text("config_hash").notNull(),
    status: text("status").$type<"running" | "done" | "failed">().notNull().default("running"),
    total: integer("total").notNull(),
    error: text("error"),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [index("agent_test_runs_org_idx").on(t.orgId, t.agentAccountId, t.startedAt)],
);

/**
 * A scenario's result in a run: its verdict, each check's, the call's transcript and timings (the API's
 * result shape, in `detail`). Kept per revision, so the change that broke a scenario shows.
 */
export const agentTestResults = pgTable(
  "agent_test_results",
  {
    id: serial("id").primaryKey(),
    orgId: integer("org_id").notNull(),
    runId: integer("run_id")
      .notNull()
      .references(() => agentTestRuns.id, { onDelete: "cascade" }),
    scenarioId: integer("scenario_id")
      .notNull()
      .references(() => agentTestScenarios.id, { onDelete: "cascade" }),
    agentAccountId: integer("agent_account_id").notNull(),
    revision: integer("revision").notNull(),
    configHash: text("config_hash").notNull(),
    verdict: text("verdict").$type<"passed" | "failed" | "error">().notNull(),
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("agent_test_results_org_idx").on(t.orgId, t.runId),
    index("agent_test_results_scenario_idx").on(t.scenarioId, t.configHash),
  ],
);
