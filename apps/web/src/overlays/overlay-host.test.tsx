import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderAt } from "../test/render.tsx";
import { OverlayHost } from "./overlay-host.tsx";
import { OverlayScope } from "./use-overlays.tsx";

describe("OverlayHost", () => {
  it("renders an open registered overlay lazily, with a Close control that removes it from the query", async () => {
    const { router } = renderAt("/app?help=true", <OverlayHost />);
    const dialog = await screen.findByRole("dialog", { name: "Help" });
    expect(await screen.findByRole("button", { name: "Read the documentation" })).toBeTruthy();
    expect(dialog).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Close" }));
    });
    expect(router.state.location.search).toBe("");
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Help" })).toBeNull());
  });

  it("switches from help to info", async () => {
    const { router } = renderAt("/app?help=true", <OverlayHost />);
    await act(async () => {
      fireEvent.click(await screen.findByRole("button", { name: "About Switchboard" }));
    });
    expect(router.state.location.search).toBe("?info=true");
    expect(await screen.findByRole("dialog", { name: "About Switchboard" })).toBeTruthy();
  });

  it("opens a real screen for every overlay of the spec, with no placeholder", async () => {
    renderAt("/app?info=true", <OverlayHost />);
    expect(await screen.findByRole("dialog", { name: "About Switchboard" })).toBeTruthy();
    expect(screen.queryByText(/is not built yet/)).toBeNull();
  });

  it("renders nothing for names outside the allowed set", () => {
    renderAt(
      "/app?debug=true&bogus=1",
      <OverlayScope allowed={["help"]}>
        <OverlayHost />
      </OverlayScope>,
    );
    expect(screen.queryByRole("dialog")).toBeNull();
  });
});
