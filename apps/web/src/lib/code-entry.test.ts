import { describe, expect, it } from "vitest";
import { isCompleteCode, normaliseCode } from "./code-entry.ts";

describe("the code-entry rule (spec §5)", () => {
  it("allows submission only with exactly 6 characters", () => {
    expect(isCompleteCode("")).toBe(false);
    expect(isCompleteCode("12345")).toBe(false);
    expect(isCompleteCode("123456")).toBe(true);
    expect(isCompleteCode("1234567")).toBe(false);
  });

  it("keeps digits only, at most six", () => {
    expect(normaliseCode(" 12-34 56 ")).toBe("123456");
    expect(normaliseCode("12345678")).toBe("123456");
    expect(normaliseCode("abc")).toBe("");
    expect(normaliseCode("012345")).toBe("012345");
  });
});
