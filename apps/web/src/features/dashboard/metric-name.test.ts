import { describe, expect, it } from "vitest";
import { metricNameOf } from "./metric-name.ts";

describe("metricNameOf", () => {
  it("makes a key from the title, unique on the dashboard", () => {
    expect(metricNameOf("Long calls", [])).toBe("longCalls");
    expect(metricNameOf("Long calls", ["longCalls"])).toBe("longCalls2");
    expect(metricNameOf("% booked!", [])).toBe("booked");
    expect(metricNameOf("", [])).toBe("metric");
  });
});
