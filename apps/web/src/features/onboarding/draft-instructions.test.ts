import { describe, expect, it, vi } from "vitest";
import { openBookingPage, openUrlCommand } from "./booking.ts";
import { draftInstructions, fillTemplateVariables } from "./draft-instructions.ts";

describe("draft instructions", () => {
  it("fills the template's {key} variables with the field values", async () => {
    const text = await draftInstructions({
      method: "BUILD_FROM_TEMPLATE",
      templateInstructions:
        "You take reservations for {restaurantName} ({cuisine}); up to {max} guests. {unknown}",
      fields: [
        { key: "restaurantName", value: "Luigi's" },
        { key: "cuisine", value: ["pizza", "pasta"] },
        { key: "max", value: 6 },
        { key: "empty", value: "" },
      ],
    });
    expect(text).toBe("You take reservations for Luigi's (pizza, pasta); up to 6 guests. {unknown}");
  });

  it("from scratch, the owner's description", async () => {
    expect(
      await draftInstructions({
        method: "BUILD_FROM_SCRATCH",
        agentName: "Ana",
        description: "  Answer calls.  ",
      }),
    ).toBe("Answer calls.");
  });

  it("leaves keys without a value", () => {
    expect(fillTemplateVariables("{a} {b}", { a: "1" })).toBe("1 {b}");
  });
});

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
