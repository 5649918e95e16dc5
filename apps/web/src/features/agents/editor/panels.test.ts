import { describe, expect, it } from "vitest";
import { panelFromValue, panelValue, templateVariables } from "./panels.ts";

describe("editor panels", () => {
  it("reads the panel from the editAgent value and writes it back", () => {
    expect(panelFromValue("12")).toBe("prompt");
    expect(panelFromValue("12/versions")).toBe("versions");
    expect(panelFromValue("12/nonsense")).toBe("prompt");
    expect(panelValue(12, "versions")).toBe("12/versions");
    expect(panelValue(12, "prompt")).toBe("12");
  });

  it("finds the template variables of the instructions and greeting once each", () => {
    expect(templateVariables("Hi {name}, call {phone}. {name}!", "Welcome to {business}", null)).toEqual([
      "name",
      "phone",
      "business",
    ]);
    expect(templateVariables('JSON like {"a": 1} is not a variable')).toEqual([]);
  });
});
