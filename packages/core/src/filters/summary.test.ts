import { describe, expect, it } from "vitest";
import { describeFilters, humanizeFieldName } from "./summary.ts";

describe("filter summary", () => {
  it("reads Where <Field> <operator> <value> and ...", () => {
    expect(
      describeFilters({
        direction: { value: "inbound", op: "is" },
        duration: { value: 60, op: "gt" },
        fromNumber: { value: "+1555", op: "isNot" },
      }),
    ).toBe("Where Direction is inbound and Duration is greater than 60 and From Number is not +1555");
  });

  it("reads ranges, lists, relative dates and value-less operators", () => {
    expect(describeFilters({ duration: { value: [10, 20], op: "between" } })).toBe(
      "Where Duration is between 10 and 20",
    );
    expect(describeFilters({ direction: { value: ["inbound", "outbound"], op: "is" } })).toBe(
      "Where Direction is inbound or outbound",
    );
    expect(describeFilters({ timestamp: { value: "7 day", op: "last" } })).toBe(
      "Where Timestamp is in the last 7 days",
    );
    expect(describeFilters({ timestamp: { value: "1 week", op: "inNext" } })).toBe(
      "Where Timestamp is in the next 1 week",
    );
    expect(describeFilters({ timestamp: { value: "2024-05-01", op: "on" } })).toBe(
      "Where Timestamp is on 2024-05-01",
    );
    expect(describeFilters({ cnam: { value: true, op: "isSet" } })).toBe("Where Cnam is set");
  });

  it("uses given labels and is empty without filters", () => {
    expect(
      describeFilters({ cnam: { value: "Ann", op: "contains" } }, { labels: { cnam: "Caller Name" } }),
    ).toBe("Where Caller Name contains Ann");
    expect(describeFilters({})).toBe("");
  });

  it.each([
    ["direction", "Direction"],
    ["fromNumber", "From Number"],
    ["call_id", "Call ID"],
    ["appointment-booked", "Appointment Booked"],
    ["amdDecisionMs", "AMD Decision Time (ms)"],
    ["outboundCallId", "Outbound Call ID"],
    ["firstTokenMs", "First Token (ms)"],
    ["smsUrl", "SMS URL"],
  ])("humanises %s", (field, label) => {
    expect(humanizeFieldName(field)).toBe(label);
  });
});
