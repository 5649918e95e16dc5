import { describe, expect, it } from "vitest";
import { metricChannels } from "../metrics/metric.ts";
import { describeLogChannels, isLogChannel } from "./log-channels.ts";

describe("log channels", () => {
  it("are told in the product's words, in a fixed order", () => {
    expect(describeLogChannels(["voice"])).toBe("calls");
    expect(describeLogChannels(["sms", "voice"])).toBe("calls and texts");
    expect(describeLogChannels(["web", "sms", "voice"])).toBe("calls, texts and web chats");
    expect(describeLogChannels(["fax"])).toBe("");
  });

  it("a metric that names none counts calls; unknown names are dropped", () => {
    expect(metricChannels({})).toEqual(["voice"]);
    expect(metricChannels({ channels: [] })).toEqual(["voice"]);
    expect(metricChannels({ channels: ["web", "fax", "web"] })).toEqual(["web"]);
    expect(isLogChannel("sms")).toBe(true);
    expect(isLogChannel("call")).toBe(false);
  });
});
