import { describe, expect, it } from "vitest";
import {
  defaultOperatorOf,
  ENABLED_FILTER_OPERATORS,
  enabledOperatorsOf,
  FILTER_OPERATOR_LABELS,
  FILTER_OPERATORS,
  filterOperatorLabel,
  isFilterOperator,
  isOperatorEnabled,
  isOperatorOfType,
} from "./operators.ts";

describe("filter field types and operators", () => {
  it("enables only is, eq and on, one per type, which are also the defaults", () => {
    expect(ENABLED_FILTER_OPERATORS).toEqual(["is", "eq", "on"]);
    expect(enabledOperatorsOf("string")).toEqual(["is"]);
    expect(enabledOperatorsOf("integer")).toEqual(["eq"]);
    expect(enabledOperatorsOf("date")).toEqual(["on"]);
    expect([defaultOperatorOf("string"), defaultOperatorOf("integer"), defaultOperatorOf("date")]).toEqual([
      "is",
      "eq",
      "on",
    ]);
    expect(isOperatorEnabled("contains")).toBe(false);
  });

  it("labels every operator", () => {
    for (const operators of Object.values(FILTER_OPERATORS)) {
      for (const operator of operators) expect(FILTER_OPERATOR_LABELS[operator]).toMatch(/^[a-z ]+$/);
    }
    expect(filterOperatorLabel("is")).toBe("is");
    expect(filterOperatorLabel("isNot")).toBe("is not");
    expect(filterOperatorLabel("gt")).toBe("is greater than");
    expect(filterOperatorLabel("weird")).toBe("weird");
  });

  it("checks operators against types", () => {
    expect(isOperatorOfType("between", "integer")).toBe(true);
    expect(isOperatorOfType("between", "date")).toBe(true);
    expect(isOperatorOfType("between", "string")).toBe(false);
    expect(isOperatorOfType("contains", "integer")).toBe(false);
    expect(isFilterOperator("inNext")).toBe(true);
    expect(isFilterOperator("toString")).toBe(false);
    expect(isFilterOperator(1)).toBe(false);
  });
});
