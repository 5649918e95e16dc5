import { describe, expect, it, vi } from "vitest";
import { openBookingPage, openUrlCommand } from "./booking.ts";

describe("booking page", () => {
  it("opens a new tab, or posts openUrl with a request id to the mobile app", () => {
    const open = vi.fn();
    openBookingPage("https://book.example/x", "newTab", { open, bridge: undefined });
    expect(open).toHaveBeenCalledWith("https://book.example/x");
    const postMessage = vi.fn();
    openBookingPage("https://book.example/x", "inAppUrlOpener", { open, bridge: { postMessage } });
    expect(JSON.parse(postMessage.mock.calls[0]?.[0] as string)).toMatchObject({
      command: "openUrl",
      url: "https://book.example/x",
      requestId: expect.any(String),
    });
    expect(JSON.parse(openUrlCommand("u", "r1"))).toEqual({ command: "openUrl", url: "u", requestId: "r1" });
  });
});
