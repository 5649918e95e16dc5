import { LogFilterError, type LogFilterTranslation } from "@switchboard/core";
import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../../test/helpers.ts";
import type { DatabaseHandle } from "../../db/client.ts";
import { dataTextSql, logFilterSql } from "./filter-sql.ts";
import { dataFieldSql } from "./logs.repository.ts";
import { metricAggregateSql } from "./metric-sql.ts";
import { compile, queryRows } from "./sql.ts";

/**
 * A data key is a value: it reaches the statement as a parameter (`data ->> $n`), or is refused by the key
 * rule, and never changes the statement's text. Each check below fails if the key were pasted into SQL.
 */
const HOSTILE_KEYS = [
  "it's",
  "x') OR 1=1 --",
  "'); drop table conversation_logs; --",
  "back\\slash\\'",
  'double"quote',
  "ключ'); DELETE FROM accounts; --",
  "emoji 🙂' || pg_sleep(1) || '",
  "k$1 OR TRUE",
  "nul\u0000byte",
];
const BENIGN = "reason";

const dataClause = (key: string, values: string[]): LogFilterTranslation => ({
  clauses: [
    {
      field: key,
      column: { kind: "data", key },
      valueType: "string",
      operator: "is",
      params: values,
    },
  ],
});

let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

/** The expression over one row whose `data` is `row`. */
async function over(row: Record<string, unknown>, expression: SQL): Promise<unknown> {
  const [result] = await queryRows<{ v: unknown }>(
    database,
    sql`SELECT ${expression} AS v FROM (SELECT ${JSON.stringify(row)}::jsonb AS data) t`,
  );
  return result?.v;
}

describe("a hostile data key cannot change a log statement", () => {
  it("reads any key as a parameter: same text for every key, the key among the values", async () => {
    const reference = compile(dataTextSql(BENIGN));
    for (const key of HOSTILE_KEYS.filter((k) => !k.includes("\u0000"))) {
      for (const expression of [dataTextSql(key), dataFieldSql(key, true), dataFieldSql(key, false)]) {
        const compiled = compile(expression);
        expect(compiled.values).toContain(key);
        expect(compiled.text).not.toContain(key);
      }
      expect(compile(dataTextSql(key)).text).toBe(reference.text);
      // Run: the key is looked up as it is, and the statement does nothing else.
      expect(await over({ [key]: "found", [BENIGN]: "other" }, dataTextSql(key))).toBe("found");
      expect(await over({ [key]: { a: 1 } }, dataFieldSql(key, false))).toEqual({ a: 1 });
    }
    const [table] = await queryRows<{ n: number }>(
      database,
      sql`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'conversation_logs'`,
    );
    expect(table?.n).toBe(1);
  });

  it("refuses a filter on a key outside the key rule, and passes an allowed key and its values as parameters", () => {
    for (const key of HOSTILE_KEYS) {
      expect(() => logFilterSql(dataClause(key, ["1"]))).toThrow(LogFilterError);
    }
    const hostileValue = "'); drop table conversation_logs; --";
    const filter = compile(logFilterSql(dataClause(BENIGN, [hostileValue, "it's"])));
    expect(filter.text).not.toContain(BENIGN);
    expect(filter.text).not.toContain("drop table");
    expect(filter.values).toEqual(expect.arrayContaining([BENIGN, hostileValue, "it's"]));
    // The same statement for another allowed key: only the parameters differ.
    expect(compile(logFilterSql(dataClause("appointmentBooked", [hostileValue, "it's"]))).text).toBe(
      filter.text,
    );
  });

  it("a filter built from clauses counts the rows it should", async () => {
    const where = logFilterSql(dataClause(BENIGN, ["it's", "Cleaning"]));
    const count = (data: Record<string, unknown>) => over(data, sql`CASE WHEN ${where} THEN 1 ELSE 0 END`);
    expect(await count({ reason: "it's" })).toBe(1);
    expect(await count({ reason: "Cleaning" })).toBe(1);
    expect(await count({ reason: "other" })).toBe(0);
    expect(await count({})).toBe(0);
  });

  it("reads text as a number as before: plain digits by the quick test, the rest by the pattern", async () => {
    const equalsOne = logFilterSql({
      clauses: [
        {
          field: "score",
          column: { kind: "data", key: "score" },
          valueType: "integer",
          operator: "eq",
          params: [1],
        },
      ],
    });
    const matches = (score: unknown) => over({ score }, sql`CASE WHEN ${equalsOne} THEN 1 ELSE 0 END`);
    for (const one of ["1", "01", "000000000000000000000000000001", " 1 ", "+1", "1.0", "1.", 1])
      expect(await matches(one), JSON.stringify(one)).toBe(1);
    // 31 digits, empty, words, signs alone and exponents are not numbers (the field reads as missing).
    for (const other of ["0000000000000000000000000000001", "", "one", "+", "1e0", "1 1", "0", null])
      expect(await matches(other), JSON.stringify(other)).toBe(0);
  });

  it("a metric reads a data key as a parameter, and leaves a key outside the rule to the evaluator", async () => {
    const metric = metricAggregateSql(
      `${BENIGN} = "'); drop table conversation_logs; --"`,
      "count",
      sql`TRUE`,
    );
    expect(metric).not.toBeNull();
    const compiled = compile(metric?.numerator ?? sql``);
    expect(compiled.text).not.toContain(BENIGN);
    expect(compiled.text).not.toContain("drop table");
    expect(compiled.values).toContain(BENIGN);
    expect(await over({ reason: "'); drop table conversation_logs; --" }, metric?.numerator ?? sql``)).toBe(
      1,
    );
    expect(await over({ reason: "Cleaning" }, metric?.numerator ?? sql``)).toBe(0);
    // A name the formula language reads but the key rule refuses is not translated to SQL at all.
    expect(metricAggregateSql("ключ > 1", "sum", sql`TRUE`)).toBeNull();
  });
});
