import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderAt } from "../../test/render.tsx";
import { confirm, resetConfirmStore } from "./confirm-store.ts";

afterEach(() => {
  act(() => resetConfirmStore());
});

describe("ConfirmHost (mounted by Providers)", () => {
  it("shows title, details and the default labels; Cancel resolves false without acting", async () => {
    renderAt("/app", null); // Providers mount the ConfirmHost
    const onConfirm = vi.fn();
    let result: Promise<boolean> = Promise.resolve(true);
    act(() => {
      result = confirm({ title: "Delete the agent?", details: "This cannot be undone.", onConfirm });
    });
    const dialog = await screen.findByRole("dialog", { name: "Delete the agent?" });
    expect(dialog.textContent).toContain("This cannot be undone.");
    expect(screen.getByRole("button", { name: "Okay" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Close" })).toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    });
    await expect(result).resolves.toBe(false);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it("shows loading on the confirm button while onConfirm runs, then closes", async () => {
    renderAt("/app", null); // Providers mount the ConfirmHost
    let finish: () => void = () => {};
    let result: Promise<boolean> = Promise.resolve(false);
    act(() => {
      result = confirm({
        title: "Publish?",
        confirmText: "Publish",
        cancelText: "Not now",
        withCloseButton: true,
        onConfirm: () =>
          new Promise<void>((resolve) => {
            finish = resolve;
          }),
      });
    });
    await screen.findByRole("dialog", { name: "Publish?" });
    expect(screen.getByRole("button", { name: "Close" })).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Publish" }));
    });
    const button = screen.getByRole("button", { name: "Publish" });
    expect(button.getAttribute("data-loading")).toBe("true");
    expect((screen.getByRole("button", { name: "Not now" }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => {
      finish();
    });
    await expect(result).resolves.toBe(true);
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Publish?" })).toBeNull());
  });
});
