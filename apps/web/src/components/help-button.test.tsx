import { act, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderAt } from "../test/render.tsx";
import { HelpButton } from "./help-button.tsx";

afterEach(() => {
  vi.restoreAllMocks();
});

async function press() {
  await act(async () => {
    fireEvent.click(screen.getByRole("button", { name: "Help" }));
  });
}

describe("HelpButton", () => {
  it("opens the help overlay in the main product", async () => {
    const { router } = renderAt("/app/org/42", <HelpButton />);
    await press();
    expect(router.state.location.pathname).toBe("/app/org/42");
    expect(router.state.location.search).toBe("?help=true");
  });

  it("opens docsPage when a docs page is given", async () => {
    const { router } = renderAt("/app", <HelpButton docsPage="numbers" />);
    await press();
    expect(router.state.location.search).toBe("?docsPage=numbers");
  });

  it("opens a white-label host's support URL in a new tab", async () => {
    const open = vi.spyOn(window, "open").mockReturnValue(null);
    const { router } = renderAt("/app", <HelpButton />, {
      hostProfile: { isMainHost: false, supportUrl: "https://support.partner.example" },
    });
    await press();
    expect(open).toHaveBeenCalledWith("https://support.partner.example", "_blank", "noopener,noreferrer");
    expect(router.state.location.search).toBe("");
  });

  it("opens the support form on a white-label host without a support URL", async () => {
    const { router } = renderAt("/app", <HelpButton />, { hostProfile: { isMainHost: false } });
    await press();
    expect(router.state.location.search).toBe("?form=get-support");
  });
});
