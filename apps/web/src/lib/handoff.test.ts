import { describe, expect, it } from "vitest";
import { checkOneTimeAnswer, HANDOFF_MESSAGES, resolveHandoff, searchWithoutHandoff } from "./handoff.ts";

describe("resolveHandoff", () => {
  it("finds nothing in an ordinary address", () => {
    expect(resolveHandoff("", false)).toEqual({ kind: "none" });
    expect(resolveHandoff("?help=true", true)).toEqual({ kind: "none" });
  });

  it("exchanges ?oneTimeToken= on any /app address", () => {
    expect(resolveHandoff("?oneTimeToken=abc&help=true", false)).toEqual({
      kind: "oneTime",
      oneTimeToken: "abc",
    });
  });

  it("says No auth token provided for an empty one-time token", () => {
    expect(resolveHandoff("?oneTimeToken=", false)).toEqual({
      kind: "error",
      message: "No auth token provided",
    });
    expect(resolveHandoff("?oneTimeToken=%20", true)).toEqual({
      kind: "error",
      message: HANDOFF_MESSAGES.noToken,
    });
  });

  it("takes the mobile app's hand-off with token, cloudId and username", () => {
    expect(resolveHandoff("?token=t1&cloudId=42&username=bluebird", true)).toEqual({
      kind: "session",
      token: "t1",
      id: 42,
      username: "bluebird",
    });
  });

  it.each([
    "?token=t1&cloudId=42",
    "?token=t1&username=bluebird",
    "?cloudId=42&username=bluebird",
    "?token=&cloudId=42&username=bluebird",
    "?token=t1&cloudId=abc&username=bluebird",
  ])("says Unable to authenticate user for a mobile hand-off lacking a part: %s", (search) => {
    expect(resolveHandoff(search, true)).toEqual({ kind: "error", message: "Unable to authenticate user" });
  });

  it("ignores token parameters outside the mobile app", () => {
    expect(resolveHandoff("?token=t1&cloudId=42&username=bluebird", false)).toEqual({ kind: "none" });
  });
});

describe("checkOneTimeAnswer", () => {
  it("accepts an answer with token and username", () => {
    expect(checkOneTimeAnswer({ token: "t", username: "u", id: 3 })).toEqual({
      token: "t",
      username: "u",
      id: 3,
    });
  });

  it.each([null, {}, { token: "t" }, { username: "u" }, { token: "", username: "u" }])(
    "fails with Could not authenticate with token: %j",
    (answer) => {
      expect(() => checkOneTimeAnswer(answer)).toThrow("Could not authenticate with token");
    },
  );
});

describe("searchWithoutHandoff", () => {
  it("drops the hand-off parameters and keeps the rest", () => {
    expect(searchWithoutHandoff("?oneTimeToken=x&members=true")).toBe("?members=true");
    expect(searchWithoutHandoff("?token=a&cloudId=1&username=u&mobileApp=true")).toBe("?mobileApp=true");
    expect(searchWithoutHandoff("?oneTimeToken=x")).toBe("");
  });
});
