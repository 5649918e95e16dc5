import { describe, expect, it } from "vitest";
import { outboundOpening } from "./outbound-opening.ts";

const base = { agentName: "Ava", organizationName: "Bluebird Dental", channel: "call" as const, values: {} };

describe("outboundOpening", () => {
  it("opens as the one calling, with the reason when the call has one", () => {
    expect(outboundOpening(base)).toBe("Hi, this is Ava from Bluebird Dental.");
    expect(outboundOpening({ ...base, values: { About: "your check-up on Friday." } })).toBe(
      "Hi, this is Ava from Bluebird Dental, calling about your check-up on Friday.",
    );
    expect(outboundOpening({ ...base, channel: "text", values: { reason: "your invoice" } })).toBe(
      "Hi, this is Ava from Bluebird Dental, texting about your invoice.",
    );
    expect(outboundOpening({ ...base, agentName: "bluebird dental" })).toBe("Hi, this is Bluebird Dental.");
  });

  it("uses the owner's outbound greeting, filled in, when there is one", () => {
    expect(
      outboundOpening({ ...base, greeting: "Hi {name}, this is Bluebird Dental.", values: { name: "Ann" } }),
    ).toBe("Hi Ann, this is Bluebird Dental.");
    expect(outboundOpening({ ...base, greeting: "{missing}" })).toBe("Hi, this is Ava from Bluebird Dental.");
  });
});
