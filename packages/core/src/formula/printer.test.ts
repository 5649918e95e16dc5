import { describe, expect, it } from "vitest";
import { parseFormula } from "./parser.ts";
import { printFormula, quoteFormulaString } from "./printer.ts";
import type { FormulaNode } from "./types.ts";

const reprint = (text: string) => printFormula(parseFormula(text));

describe("printFormula", () => {
  it.each([
    ["1+2*3", "1 + 2 * 3"],
    ["(1+2)*3", "(1 + 2) * 3"],
    ["1-(2-3)", "1 - (2 - 3)"],
    ["(1-2)-3", "1 - 2 - 3"],
    ["-(a+b)", "-(a + b)"],
    ["- -a", "--a"],
    ["not (a and b)", "not (a and b)"],
    ["(not a) and b", "not a and b"],
    ["-(not a)", "-(not a)"],
    ["a == b && c <> d || e", "a = b and c != d or e"],
    ["x NOT IN [1,2]", "not x in [1, 2]"],
    ["(a = b) in [1]", "a = b in [1]"],
    ["a = (b in [1])", "a = (b in [1])"],
    ["x between (1 and 2) and 3", "x between (1 and 2) and 3"],
    ["x IS NOT NULL", "x is not null"],
    ["(a + b).c", "(a + b).c"],
    ["SUM(x, [1, {k: 2, 'a b': 3}])", "SUM(x, [1, {k: 2, 'a b': 3}])"],
    ["'it''s'", "'it''s'"],
    ['"say ""hi"""', "'say \"hi\"'"],
    ["1e21 + 0.5", "1e+21 + 0.5"],
    ["=TRUE or Null", "true or null"],
    ["a like b like c", "a like b like c"],
    ["a like (b like c)", "a like (b like c)"],
  ])("%s prints as %s", (text, printed) => {
    expect(reprint(text)).toBe(printed);
    expect(parseFormula(printed)).toEqual(parseFormula(text));
  });

  it("quotes strings with single quotes, doubling inner ones", () => {
    expect(quoteFormulaString("a'b")).toBe("'a''b'");
    expect(printFormula({ type: "string", value: "x\\d" })).toBe("'x\\d'");
  });

  it("prints number keys and other non-identifier object keys as strings", () => {
    const node: FormulaNode = { type: "object", properties: [{ key: "1a", value: { type: "null" } }] };
    expect(printFormula(node)).toBe("{'1a': null}");
    expect(parseFormula(printFormula(node))).toEqual(node);
  });
});
