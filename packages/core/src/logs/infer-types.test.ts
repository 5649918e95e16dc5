import { describe, expect, it } from "vitest";
import { inferFieldType, inferLogFieldTypes, inferValueType } from "./infer-types.ts";

describe("inferValueType", () => {
  it.each([
    [12, "integer"],
    [4.5, "integer"],
    ["42", "integer"],
    ["-3.25", "integer"],
    ["0", "integer"],
    ["02134", "string"],
    ["+15551234567", "string"],
    ["2024-05-01", "date"],
    ["2024-05-01T10:00:00Z", "date"],
    ["2024-05-01 10:00", "date"],
    ["2024-13-01", "string"],
    [new Date(0), "date"],
    ["yes", "string"],
    [true, "string"],
    [{ a: 1 }, "string"],
    [Number.NaN, "string"],
    [null, null],
    [undefined, null],
    ["  ", null],
  ])("%j -> %s", (value, type) => {
    expect(inferValueType(value)).toBe(type);
  });
});

describe("inferFieldType", () => {
  it("needs every informative sample to agree", () => {
    expect(inferFieldType([1, "2", null, ""])).toBe("integer");
    expect(inferFieldType(["2024-01-01", undefined, "2024-02-01T00:00:00Z"])).toBe("date");
    expect(inferFieldType([1, "2024-01-01"])).toBe("string");
    expect(inferFieldType([1, 2, "n/a"])).toBe("string");
    expect(inferFieldType([null, ""])).toBe("string");
    expect(inferFieldType([])).toBe("string");
  });
});

describe("inferLogFieldTypes", () => {
  it("keeps fixed types and infers dynamic fields, top level or under data", () => {
    expect(
      inferLogFieldTypes([
        { accountId: 1, transfer: "1", timestamp: "2024-05-01T00:00:00Z", booked: "yes", data: { score: 3 } },
        { accountId: "2", transfer: "0", booked: null, data: { score: "4.5", followUp: "2024-06-01" } },
      ]),
    ).toEqual({
      accountId: "integer",
      transfer: "string",
      timestamp: "date",
      booked: "string",
      score: "integer",
      followUp: "date",
    });
  });
});
