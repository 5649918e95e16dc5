import { describe, expect, it } from "vitest";
import { formatVariables, fromLocalInput, parseVariables, toLocalInput } from "./task-form-values.ts";

describe("variables as name: value lines", () => {
  it("reads one a line, keeping colons in values and skipping empty lines", () => {
    expect(parseVariables("doctor: Dr. Lee\n\n time : 10:30 ")).toEqual({
      variables: { doctor: "Dr. Lee", time: "10:30" },
    });
  });

  it("names the line without a name", () => {
    expect(parseVariables("doctor: Lee\njust text")).toEqual({
      error: "Line 2: write each variable as name: value.",
    });
    expect(parseVariables(": value")).toEqual({ error: "Line 1: write each variable as name: value." });
  });

  it("writes them back the same way", () => {
    const text = formatVariables({ doctor: "Dr. Lee", time: "10:30" });
    expect(parseVariables(text)).toEqual({ variables: { doctor: "Dr. Lee", time: "10:30" } });
  });
});

describe("datetime-local values", () => {
  it("round-trips a time to the minute in the browser's time zone", () => {
    const at = new Date(2026, 10, 24, 9, 5).getTime();
    expect(toLocalInput(at)).toBe("2026-11-24T09:05");
    expect(fromLocalInput("2026-11-24T09:05")).toBe(at);
    expect(toLocalInput(null)).toBe("");
    expect(fromLocalInput("")).toBeNull();
    expect(fromLocalInput("not a time")).toBeNull();
  });
});
