import { describe, expect, it } from "vitest";
import { parseCsv } from "./csv.ts";

describe("parseCsv", () => {
  it("splits rows at CRLF and cells at commas", () => {
    expect(parseCsv("a,b,c\r\n1,,3\r\n")).toEqual([
      ["a", "b", "c"],
      ["1", "", "3"],
    ]);
  });

  it("reads quoted cells with commas, doubled quotes, CR and LF", () => {
    expect(parseCsv('"a,b","say ""hi""","one\r\ntwo","\'=1+1"\r\n')).toEqual([
      ["a,b", 'say "hi"', "one\r\ntwo", "'=1+1"],
    ]);
  });

  it("keeps a last row without CRLF, and reads nothing from empty text", () => {
    expect(parseCsv('x,"y"')).toEqual([["x", "y"]]);
    expect(parseCsv("x,\r\n,")).toEqual([
      ["x", ""],
      ["", ""],
    ]);
    expect(parseCsv("")).toEqual([]);
  });

  it("leaves a lone LF outside quotes in the cell", () => {
    expect(parseCsv("a\nb,c\r\n")).toEqual([["a\nb", "c"]]);
  });
});
