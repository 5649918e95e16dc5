import * as api from "@switchboard/api";
import { describe, expect, it } from "vitest";
import { checkFixture, routeFor } from "./contract.ts";

describe("fixture answers against the contract", () => {
  it("finds the route of a call, a literal path before one with parameters", () => {
    expect(routeFor("GET", "/api/v2/contact/5")?.id).toBe(api.getContact.id);
    expect(routeFor("GET", "/api/v2/contact")?.id).toBe(api.listContacts.id);
    expect(routeFor("GET", "/api/v1/nothing")).toBeUndefined();
  });

  it("throws for an answer that drifted from the response schema, naming the field", () => {
    expect(() => checkFixture(api.listContacts, { success: true, contacts: [], total: 0 })).not.toThrow();
    expect(() => checkFixture(api.listContacts, { success: true, contacts: [] })).toThrow(/total/);
    expect(() => checkFixture(api.listContacts, { success: false, message: "No" }, 400)).not.toThrow();
    expect(() => checkFixture(api.listContacts, { error: "No" }, 400)).toThrow(/message/);
  });
});
