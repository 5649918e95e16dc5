import { describe, expect, it } from "vitest";
import { fillPlaceholders } from "./placeholders.ts";

describe("fillPlaceholders", () => {
  it("fills keys without case and keeps unknown ones", () => {
    expect(
      fillPlaceholders("Hi {Name}, {first_name} { name } {missing}", { name: "Pat", first_name: "P" }),
    ).toBe("Hi Pat, P Pat {missing}");
  });
});
