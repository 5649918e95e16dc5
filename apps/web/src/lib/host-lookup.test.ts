import { describe, expect, it, vi } from "vitest";
import { json, stubFetch } from "../test/accounts.ts";
import { offContract } from "../test/contract.ts";
import { applyAppScripts, hostProfileFromLookup, lookupHost } from "./host-lookup.ts";
import { MAIN_HOST_PROFILE } from "./host-profile.ts";

const profile = {
  id: 2,
  name: "Acme Voice",
  details: { image: "https://cdn.acme.example/logo.png" },
  settings: {
    supportUrl: "https://support.acmevoice.example",
    smsMessaging: true,
    allowEmbeds: false,
    appScripts: ["https://cdn.acme.example/widget.js"],
  },
  host: "voice.acme.example",
};

describe("the host's white-label profile", () => {
  it("reads name, image, support URL and settings", () => {
    expect(hostProfileFromLookup({ success: true, profile })).toEqual({
      isMainHost: false,
      profileId: 2,
      name: "Acme Voice",
      image: "https://cdn.acme.example/logo.png",
      supportUrl: "https://support.acmevoice.example",
      settings: {
        supportUrl: "https://support.acmevoice.example",
        smsMessaging: true,
        allowEmbeds: false,
        appScripts: ["https://cdn.acme.example/widget.js"],
      },
    });
  });

  it.each([null, {}, { success: true }, { success: false, profile }, { profile }])(
    "fails with Invalid domain data: %j",
    (answer) => {
      expect(() => hostProfileFromLookup(answer)).toThrow("Invalid domain data");
    },
  );

  it("looks up the page's host and falls back to the main host", async () => {
    const calls = stubFetch({ "POST /api/v1/domain/lookup": () => ({ success: true, profile }) });
    expect((await lookupHost("voice.acme.example")).name).toBe("Acme Voice");
    expect(calls[0]?.body).toEqual({ domain: "voice.acme.example" });

    // The product's own host: answered without an error, and nothing logged (issue #23 item 10).
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    stubFetch({ "POST /api/v1/domain/lookup": () => ({ success: true, mainHost: true, profile: null }) });
    expect(await lookupHost("127.0.0.1")).toEqual(MAIN_HOST_PROFILE);
    expect(logged).not.toHaveBeenCalled();
    logged.mockRestore();

    stubFetch({
      "POST /api/v1/domain/lookup": () => json({ success: false, message: "Invalid domain data" }, 404),
    });
    expect(await lookupHost("app.switchboard.example")).toEqual(MAIN_HOST_PROFILE);

    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    stubFetch({
      "POST /api/v1/domain/lookup": () =>
        offContract({ success: true }, "an answer without its profile falls back to the main host"),
    });
    expect(await lookupHost("odd.example")).toEqual(MAIN_HOST_PROFILE);
    expect(error).toHaveBeenCalledWith("Invalid domain data");
    error.mockRestore();
  });

  it("loads https app scripts once", () => {
    applyAppScripts(["https://cdn.example/a.js", "http://insecure.example/b.js", "https://cdn.example/a.js"]);
    const scripts = [...document.head.querySelectorAll("script[data-app-script]")].map((s) =>
      s.getAttribute("src"),
    );
    expect(scripts).toEqual(["https://cdn.example/a.js"]);
  });
});
