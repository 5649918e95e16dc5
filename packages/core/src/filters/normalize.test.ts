import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizeFilters, normalizeFilterValue, parseFiltersParam, toScreenFilters } from "./normalize.ts";

describe("normalizeFilterValue", () => {
  it.each([
    ["inbound", "inbound"],
    ["inbound|Inbound call", "inbound"],
    [" a | b | c ", "a"],
    ["|label only", undefined],
    ["", undefined],
    ["   ", undefined],
    [null, undefined],
    [undefined, undefined],
    [42, 42],
    [0, 0],
    [Number.NaN, undefined],
    [false, false],
    [{ value: "x|X", label: "X" }, "x"],
    [{ value: "" }, undefined],
    [{ label: "no value" }, undefined],
    [{ value: { value: 7 } }, 7],
    [
      ["a|A", { value: "b" }, "", null],
      ["a", "b"],
    ],
    [[], undefined],
    [["", null], undefined],
  ])("%j -> %j", (input, expected) => {
    expect(normalizeFilterValue(input)).toEqual(expected);
  });

  it("gives up on absurdly deep nesting instead of recursing", () => {
    let value: unknown = "deep";
    for (let i = 0; i < 10_000; i++) value = { value };
    expect(normalizeFilterValue(value)).toBeUndefined();
  });
});

describe("parseFiltersParam", () => {
  const json = '{"direction":"inbound","directionOp":"is"}';

  it.each([
    ["plain JSON", json],
    ["URL-encoded once", encodeURIComponent(json)],
    ["URL-encoded twice", encodeURIComponent(encodeURIComponent(json))],
  ])("reads %s", (_, raw) => {
    expect(parseFiltersParam(raw)).toEqual({ direction: "inbound", directionOp: "is" });
  });

  it.each(["", "not json", "%E0%A4%A", "[1,2]", "null", "42", '"text"'])("reads %j as no filters", (raw) => {
    expect(parseFiltersParam(raw)).toEqual({});
  });

  it("takes objects as they are and ignores other types", () => {
    expect(parseFiltersParam({ a: 1 })).toEqual({ a: 1 });
    expect(parseFiltersParam(7)).toEqual({});
    expect(parseFiltersParam(null)).toEqual({});
  });
});

describe("normalizeFilters", () => {
  it("pairs <key>Op operators with their keys", () => {
    expect(
      normalizeFilters({
        direction: "inbound|Inbound",
        directionOp: "isNot",
        duration: 60,
        durationOp: "gt",
      }),
    ).toEqual({ direction: { value: "inbound", op: "isNot" }, duration: { value: 60, op: "gt" } });
  });

  it("defaults the operator by field type: is, eq, on", () => {
    expect(
      normalizeFilters(
        { direction: "in", duration: "5", transfer: 1, when: "2024-01-01", whenTyped: "x" },
        {
          fieldTypes: { when: "date" },
        },
      ),
    ).toEqual({
      direction: { value: "in", op: "is" },
      duration: { value: "5", op: "eq" },
      transfer: { value: 1, op: "eq" },
      when: { value: "2024-01-01", op: "on" },
      whenTyped: { value: "x", op: "is" },
    });
  });

  it("drops empty values with their operators and ignores orphan operators", () => {
    expect(normalizeFilters({ a: "", aOp: "is", b: null, c: "|x", d: [], eOp: "is", f: "kept" })).toEqual({
      f: { value: "kept", op: "is" },
    });
  });

  it("keeps value-less operators", () => {
    expect(normalizeFilters({ cnamOp: "isSet", cnam: "" })).toEqual({ cnam: { value: true, op: "isSet" } });
  });

  it("reads the entry form of the log request and is idempotent", () => {
    const once = normalizeFilters({ direction: { value: "out|Out", op: "isNot" }, duration: { value: 3 } });
    expect(once).toEqual({ direction: { value: "out", op: "isNot" }, duration: { value: 3, op: "eq" } });
    expect(normalizeFilters(once)).toEqual(once);
  });

  it("lets a <key>Op key win over an entry's own op", () => {
    expect(normalizeFilters({ a: { value: "x", op: "contains" }, aOp: "isNot" })).toEqual({
      a: { value: "x", op: "isNot" },
    });
  });

  it("reads encoded JSON text", () => {
    const raw = encodeURIComponent(JSON.stringify({ direction: "inbound", directionOp: "is" }));
    expect(normalizeFilters(raw)).toEqual({ direction: { value: "inbound", op: "is" } });
  });

  it("keeps a field named __proto__ as plain data", () => {
    const filters = normalizeFilters(JSON.parse('{"__proto__":"x","__proto__Op":"is"}'));
    expect(Object.getPrototypeOf(filters)).toBe(Object.prototype);
    expect(Object.keys(filters)).toEqual(["__proto__"]);
  });

  it("round-trips through the screen form", () => {
    const entry = fc.record({
      value: fc.oneof(
        fc.stringMatching(/^[a-z0-9 ]*[a-z0-9][a-z0-9 ]*$/).map((text) => text.trim()),
        fc.integer(),
        fc.array(fc.integer(), { minLength: 1, maxLength: 3 }),
      ),
      op: fc.constantFrom("is", "isNot", "eq", "gt", "on", "between"),
    });
    fc.assert(
      fc.property(
        fc.dictionary(
          // A field whose name ends in Op cannot be told from an operator key, by the rule itself.
          fc.stringMatching(/^[a-z][a-zA-Z]{0,8}[a-z]$/).filter((field) => !field.endsWith("Op")),
          entry,
        ),
        (filters) => {
          const screen = toScreenFilters(filters);
          expect(normalizeFilters(JSON.stringify(screen))).toEqual(filters);
        },
      ),
    );
  });
});
