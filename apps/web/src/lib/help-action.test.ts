import { describe, expect, it } from "vitest";
import { resolveHelpAction } from "./help-action.ts";
import { MAIN_HOST_PROFILE } from "./host-profile.ts";

describe("resolveHelpAction", () => {
  it("opens the support URL of a white-label host in a new tab", () => {
    expect(resolveHelpAction({ isMainHost: false, supportUrl: "https://help.partner.example" })).toEqual({
      kind: "url",
      url: "https://help.partner.example",
    });
    expect(
      resolveHelpAction({ isMainHost: false, supportUrl: "https://help.partner.example" }, "billing"),
    ).toEqual({
      kind: "url",
      url: "https://help.partner.example",
    });
  });

  it("opens the help overlay in the main product", () => {
    expect(resolveHelpAction(MAIN_HOST_PROFILE)).toEqual({ kind: "overlay", name: "help" });
  });

  it("opens docsPage in the main product when a docs page is given", () => {
    expect(resolveHelpAction(MAIN_HOST_PROFILE, "numbers")).toEqual({
      kind: "overlay",
      name: "docsPage",
      value: "numbers",
    });
  });

  it("opens the support form otherwise", () => {
    expect(resolveHelpAction({ isMainHost: false })).toEqual({
      kind: "overlay",
      name: "form",
      value: "get-support",
    });
    expect(resolveHelpAction({ isMainHost: false, supportUrl: "  " }, "numbers")).toEqual({
      kind: "overlay",
      name: "form",
      value: "get-support",
    });
  });

  it("prefers the main-product rule on the main host even with a support URL", () => {
    expect(resolveHelpAction({ isMainHost: true, supportUrl: "https://support.example" })).toEqual({
      kind: "overlay",
      name: "help",
    });
  });
});
