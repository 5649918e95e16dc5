import { describe, expect, it } from "vitest";
import { breakpointForWidth, minWidthQuery, pxToEm } from "./breakpoints.ts";

describe("breakpointForWidth", () => {
  it("follows the product breakpoints", () => {
    expect(breakpointForWidth(320)).toBe("base");
    expect(breakpointForWidth(550)).toBe("xs");
    expect(breakpointForWidth(767)).toBe("xs");
    expect(breakpointForWidth(768)).toBe("sm");
    expect(breakpointForWidth(1024)).toBe("md");
    expect(breakpointForWidth(1280)).toBe("lg");
    expect(breakpointForWidth(1536)).toBe("xl");
    expect(breakpointForWidth(1836)).toBe("xxl");
    expect(breakpointForWidth(4000)).toBe("xxl");
  });

  it("writes em queries", () => {
    expect(pxToEm(768)).toBe("48em");
    expect(minWidthQuery("md")).toBe("(min-width: 64em)");
  });
});
