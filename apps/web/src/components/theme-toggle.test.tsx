import { act, fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderAt } from "../test/render.tsx";
import { ThemeToggle } from "./theme-toggle.tsx";

describe("ThemeToggle", () => {
  it("switches to dark, stores it in localStorage theme, and keeps it on the next start", async () => {
    const first = renderAt("/app", <ThemeToggle />);
    const toggle = screen.getByRole("button", { name: "Dark theme" });
    expect(toggle.getAttribute("aria-pressed")).toBe("false");
    await act(async () => {
      fireEvent.click(toggle);
    });
    expect(window.localStorage.getItem("theme")).toBe("dark");
    expect(document.documentElement.getAttribute("data-mantine-color-scheme")).toBe("dark");
    expect(screen.getByRole("button", { name: "Dark theme" }).getAttribute("aria-pressed")).toBe("true");
    first.unmount();

    renderAt("/app", <ThemeToggle />);
    expect(screen.getByRole("button", { name: "Dark theme" }).getAttribute("aria-pressed")).toBe("true");
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Dark theme" }));
    });
    expect(window.localStorage.getItem("theme")).toBe("light");
  });
});
