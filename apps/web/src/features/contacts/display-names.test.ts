import { beforeEach, describe, expect, it } from "vitest";
import {
  addressKey,
  CONTACT_NAMES_KEY,
  contactNameFor,
  forgetContactNames,
  readContactNames,
  rememberContactNames,
} from "./display-names.ts";

beforeEach(() => window.localStorage.clear());

describe("contact-display-names cache", () => {
  it("keys addresses as the server does", () => {
    expect(addressKey("(503) 555-0142")).toBe("+15035550142");
    expect(addressKey("1 503 555 0142")).toBe("+15035550142");
    expect(addressKey("+44 20 7946 0958")).toBe("+442079460958");
    expect(addressKey(" Maria@Example.com ")).toBe("maria@example.com");
    expect(addressKey("Maria")).toBeNull();
    expect(addressKey("not@mail")).toBeNull();
  });

  it("stores address -> name under contact-display-names and finds a name however the number is typed", () => {
    rememberContactNames([
      { displayName: "Maria Lopez", addresses: ["+15035550142", "maria@example.com"] },
      { displayName: "Zed Zimmer", addresses: ["+15035550402"] },
    ]);
    expect(JSON.parse(window.localStorage.getItem(CONTACT_NAMES_KEY) ?? "{}")).toEqual({
      "+15035550142": "Maria Lopez",
      "maria@example.com": "Maria Lopez",
      "+15035550402": "Zed Zimmer",
    });
    expect(contactNameFor("503-555-0142")).toBe("Maria Lopez");
    expect(contactNameFor("MARIA@example.com")).toBe("Maria Lopez");
    expect(contactNameFor("+1 503 555 0999")).toBeNull();
  });

  it("a renamed contact replaces its name; forgetting drops only the given addresses", () => {
    rememberContactNames([{ displayName: "Maria Lopez", addresses: ["+15035550142", "maria@example.com"] }]);
    rememberContactNames([{ displayName: "Maria Lopez-Garcia", addresses: ["+15035550142"] }]);
    forgetContactNames(["maria@example.com"]);
    expect(readContactNames()).toEqual({ "+15035550142": "Maria Lopez-Garcia" });
  });

  it("a broken stored value reads as empty and is replaced on the next write", () => {
    window.localStorage.setItem(CONTACT_NAMES_KEY, "{not json");
    expect(readContactNames()).toEqual({});
    window.localStorage.setItem(CONTACT_NAMES_KEY, JSON.stringify({ "+15035550142": 5, a: "Ann" }));
    expect(readContactNames()).toEqual({ a: "Ann" });
    rememberContactNames([{ displayName: "Zed", addresses: ["+15035550402"] }]);
    expect(readContactNames()).toEqual({ a: "Ann", "+15035550402": "Zed" });
  });
});
