import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { renderAt } from "../../test/render.tsx";
import { ConfirmPanel } from "./confirm-panel.tsx";

function panel(action: { isPending: boolean; error: unknown }) {
  const onCancel = vi.fn();
  const onConfirm = vi.fn();
  renderAt(
    "/app",
    <ConfirmPanel confirmLabel="Delete agent" action={action} onCancel={onCancel} onConfirm={onConfirm}>
      Delete <b>Front Desk</b>?
    </ConfirmPanel>,
  );
  return { onCancel, onConfirm };
}

describe("ConfirmPanel", () => {
  it("asks the question and answers Cancel and the confirm button", () => {
    const { onCancel, onConfirm } = panel({ isPending: false, error: null });
    expect(screen.getByText("Front Desk").tagName).toBe("B");
    expect(screen.queryByRole("alert")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole("button", { name: "Delete agent" }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it("holds both buttons while the action runs and shows its error", () => {
    panel({ isPending: true, error: new Error("Agent not found") });
    expect((screen.getByRole("button", { name: "Cancel" }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole("button", { name: "Delete agent" }).getAttribute("data-loading")).toBe("true");
    expect(screen.getByRole("alert").textContent).toContain("Agent not found");
  });
});
