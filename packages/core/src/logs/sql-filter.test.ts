import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Filters } from "../filters/normalize.ts";
import { normalizeLogFilters } from "./log-query.ts";
import { buildLogFilterSql, LogFilterError, renderLogFilterSql, translateLogFilters } from "./sql-filter.ts";

const NOW = Date.UTC(2024, 4, 15, 12);
const DAY = 86_400_000;
const sql = (filters: Filters, options: Partial<Parameters<typeof buildLogFilterSql>[1]> = {}) =>
  buildLogFilterSql(filters, { now: NOW, ...options });
const refused = (filters: Filters, options: Partial<Parameters<typeof buildLogFilterSql>[1]> = {}) => {
  try {
    sql(filters, options);
  } catch (error) {
    expect(error).toBeInstanceOf(LogFilterError);
    return error as LogFilterError;
  }
  throw new Error("expected a LogFilterError");
};

describe("translateLogFilters", () => {
  it("maps fixed fields to conversation_logs columns and other keys to data", () => {
    const { clauses } = translateLogFilters(
      { fromNumber: { value: "+1555", op: "is" }, booked: { value: "yes", op: "is" } },
      { now: NOW },
    );
    expect(clauses).toEqual([
      {
        field: "fromNumber",
        column: { kind: "fixed", field: "fromNumber", name: "from_number", sqlType: "text" },
        valueType: "string",
        operator: "is",
        params: ["+1555"],
      },
      {
        field: "booked",
        column: { kind: "data", key: "booked" },
        valueType: "string",
        operator: "is",
        params: ["yes"],
      },
    ]);
  });

  it("resolves values by type", () => {
    const params = (filters: Filters, fieldTypes = {}) =>
      translateLogFilters(filters, { now: NOW, fieldTypes }).clauses.map((clause) => clause.params);
    expect(params({ duration: { value: ["90", 30], op: "between" } })).toEqual([[30, 90]]);
    expect(params({ duration: { value: [1, 2, 3], op: "eq" } })).toEqual([[1, 2, 3]]);
    expect(params({ score: { value: "4.5", op: "gt" } }, { score: "integer" })).toEqual([[4.5]]);
    expect(params({ timestamp: { value: "2024-05-01", op: "on" } })).toEqual([
      ["2024-05-01T00:00:00.000Z", "2024-05-02T00:00:00.000Z"],
    ]);
    expect(params({ timestamp: { value: "2024-05-01T18:30:00Z", op: "before" } })).toEqual([
      ["2024-05-01T00:00:00.000Z"],
    ]);
    expect(params({ timestamp: { value: ["2024-05-03", "2024-05-01"], op: "between" } })).toEqual([
      ["2024-05-01T00:00:00.000Z", "2024-05-04T00:00:00.000Z"],
    ]);
    expect(params({ timestamp: { value: "7 day", op: "last" } })).toEqual([
      [new Date(NOW - 7 * DAY).toISOString(), new Date(NOW).toISOString()],
    ]);
    expect(params({ timestamp: { value: "1 month", op: "beforeLast" } })).toEqual([
      ["2024-04-15T12:00:00.000Z"],
    ]);
    expect(params({ timestamp: { value: "2 week", op: "inNext" } })).toEqual([
      [new Date(NOW).toISOString(), new Date(NOW + 14 * DAY).toISOString()],
    ]);
    expect(params({ cnam: { value: true, op: "isSet" } })).toEqual([[]]);
  });

  it("puts day boundaries at the user's offset", () => {
    const { clauses } = translateLogFilters(
      { timestamp: { value: "2024-05-01", op: "on" } },
      { now: NOW, utcOffsetMinutes: -300 },
    );
    expect(clauses[0]?.params).toEqual(["2024-05-01T05:00:00.000Z", "2024-05-02T05:00:00.000Z"]);
  });
});

describe("rendered SQL", () => {
  it("numbers placeholders from the given index and casts every one", () => {
    const result = sql(
      {
        direction: { value: "inbound", op: "is" },
        duration: { value: 60, op: "gt" },
        timestamp: { value: "2024-05-01", op: "on" },
      },
      { startIndex: 3 },
    );
    expect(result).toEqual({
      text:
        '("direction" = $3::text) AND ("duration" > $4::bigint) AND ' +
        '(("timestamp" >= $5::timestamptz AND "timestamp" < $6::timestamptz))',
      values: ["inbound", 60, "2024-05-01T00:00:00.000Z", "2024-05-02T00:00:00.000Z"],
      nextIndex: 7,
    });
  });

  it("is TRUE without filters", () => {
    expect(sql({})).toEqual({ text: "TRUE", values: [], nextIndex: 1 });
  });

  it.each<[string, Filters, string]>([
    [
      "isNot matches missing values",
      { direction: { value: "x", op: "isNot" } },
      '(("direction" IS NULL OR NOT ("direction" = $1::text)))',
    ],
    [
      "lists are any-of",
      { direction: { value: ["a", "b"], op: "is" } },
      '(("direction" = $1::text OR "direction" = $2::text))',
    ],
    [
      "contains is literal and case-insensitive",
      { cnam: { value: "%_", op: "contains" } },
      '(strpos(lower("cnam"), lower($1::text)) > 0)',
    ],
    ["isSet", { cnam: { value: true, op: "isSet" } }, `(("cnam" IS NOT NULL AND "cnam" <> ''))`],
    ["isNotSet", { cnam: { value: true, op: "isNotSet" } }, `(("cnam" IS NULL OR "cnam" = ''))`],
    [
      "integer between",
      { duration: { value: [1, 2], op: "between" } },
      '(("duration" BETWEEN $1::bigint AND $2::bigint))',
    ],
    ["data string", { booked: { value: "yes", op: "is" } }, `(("data" ->> 'booked') = $1::text)`],
  ])("%s", (_, filters, text) => {
    expect(sql(filters).text).toBe(text);
  });

  it("reads numbers out of text columns and data without cast errors", () => {
    const transfer = sql({ transfer: { value: 1, op: "eq" } });
    expect(transfer.text).toContain(`CASE WHEN "transfer" ~ '^[[:space:]]*[-+]?`);
    expect(transfer.text).toContain(`THEN ("transfer")::numeric END) = $1::numeric`);
    const score = sql({ score: { value: 2.5, op: "lte" } }, { fieldTypes: { score: "integer" } });
    expect(score.text).toContain(`(("data" ->> 'score'))::numeric END) <= $1::numeric`);
    const when = sql(
      { followUp: { value: "2024-05-01", op: "since" } },
      { fieldTypes: { followUp: "date" } },
    );
    expect(when.text).toContain(`(("data" ->> 'followUp'))::timestamptz`);
    expect(when.text).toContain("substr(");
  });
});

describe("refusals", () => {
  it.each([
    "data->>'x'",
    "x'; DROP TABLE conversation_logs; --",
    'a"b',
    "a b",
    "1abc",
    "dirección",
    "a".repeat(65),
    "",
    "data.x",
    "x)--",
  ])("refuses field %j with a clear message", (field) => {
    const error = refused({ [field]: { value: "1", op: "is" } });
    expect(error.code).toBe("INVALID_FIELD");
    expect(error.field).toBe(field);
    expect(error.message).toMatch(/^Filter field ".*" is not allowed/s);
  });

  it("accepts data keys up to 64 characters", () => {
    expect(sql({ [`_${"a".repeat(63)}`]: { value: "1", op: "is" } }).values).toEqual(["1"]);
  });

  it.each([
    ["direction", "gt"],
    ["duration", "is"],
    ["timestamp", "eq"],
    ["direction", "is; DROP TABLE x"],
    ["direction", "toString"],
    ["direction", "__proto__"],
    ["booked", "eq"],
  ])("refuses operator %s %j", (field, op) => {
    const error = refused({ [field]: { value: "1", op } });
    expect(error.code).toBe("INVALID_OPERATOR");
    expect(error.message).toMatch(/^Filter operator ".*" is not allowed for (string|integer|date) field "/);
  });

  it("restricts operators on request", () => {
    expect(
      refused({ direction: { value: "x", op: "contains" } }, { operators: ["is", "eq", "on"] }).code,
    ).toBe("INVALID_OPERATOR");
    expect(sql({ direction: { value: "x", op: "is" } }, { operators: ["is", "eq", "on"] }).values).toEqual([
      "x",
    ]);
  });

  it.each<[string, Filters, RegExp]>([
    ["text for a number", { duration: { value: "ten", op: "gt" } }, /must be a number/],
    ["a fraction for an integer column", { duration: { value: 1.5, op: "eq" } }, /must be a whole number/],
    ["one value for between", { duration: { value: 5, op: "between" } }, /needs two values/],
    ["two values for gt", { duration: { value: [1, 2], op: "gt" } }, /takes one value/],
    ["a bad date", { timestamp: { value: "2024-02-30", op: "on" } }, /must be a date/],
    ["a bad relative range", { timestamp: { value: "soon", op: "last" } }, /relative range/],
    [
      "too many values",
      { direction: { value: Array.from({ length: 51 }, (_, i) => `v${i}`), op: "is" } },
      /more than 50/,
    ],
  ])("refuses %s", (_, filters, message) => {
    const error = refused(filters);
    expect(error.code).toBe("INVALID_VALUE");
    expect(error.message).toMatch(message);
  });

  it("re-checks hand-made clauses when rendering", () => {
    expect(() =>
      renderLogFilterSql({
        clauses: [
          {
            field: "x",
            column: { kind: "data", key: "x') OR 1=1 --" },
            valueType: "string",
            operator: "is",
            params: ["1"],
          },
        ],
      }),
    ).toThrow(LogFilterError);
    expect(() =>
      renderLogFilterSql({
        clauses: [
          {
            field: "uuid",
            column: { kind: "fixed", field: "uuid", name: "uuid; DROP", sqlType: "text" },
            valueType: "string",
            operator: "is",
            params: ["1"],
          },
        ],
      }),
    ).toThrow(LogFilterError);
    expect(() => renderLogFilterSql({ clauses: [] }, 0)).toThrow(RangeError);
  });
});

describe("values never reach the SQL text", () => {
  const hostile = [
    "'; DROP TABLE conversation_logs; --",
    "' OR '1'='1",
    "data->>'x'",
    "$$; SELECT pg_sleep(10); $$",
    "\\'; SELECT 1; --",
    "Ω≈ç√ 😀 \u0000 \u202e",
  ];

  it.each(hostile)("%j travels as a parameter", (value) => {
    const result = sql(
      normalizeLogFilters({ accountName: value, cnam: value, cnamOp: "contains", note: [value, "x"] }),
    );
    expect(result.values).toEqual([value, value, value, "x"]);
    expect(result.text).not.toContain(value);
  });

  it("for any filters, the text is built only from whitelisted pieces", () => {
    const fieldArb = fc.oneof(
      fc.constantFrom("accountName", "direction", "cnam", "note", "booked", "_x1"),
      fc.string(),
    );
    const valueArb = fc.oneof(fc.string(), fc.array(fc.string(), { minLength: 1, maxLength: 3 }));
    fc.assert(
      fc.property(
        fc.dictionary(
          fieldArb,
          fc.record({ value: valueArb, op: fc.constantFrom("is", "isNot", "contains") }),
        ),
        (raw) => {
          let result: ReturnType<typeof sql>;
          try {
            result = sql(normalizeLogFilters(raw));
          } catch (error) {
            expect(error).toBeInstanceOf(LogFilterError);
            return;
          }
          const stripped = result.text
            .replace(/"[a-z_]+"/g, "")
            .replace(/'[A-Za-z_][A-Za-z0-9_]{0,63}'/g, "")
            .replace(/\$\d+::text/g, "");
          expect(stripped).toMatch(/^[\s()=<>,A-Za-z0-9-]*$/);
          expect(stripped).not.toMatch(/'/);
        },
      ),
    );
  });
});
