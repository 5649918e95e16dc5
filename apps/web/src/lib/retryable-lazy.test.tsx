import { act, fireEvent, render, screen } from "@testing-library/react";
import { Suspense } from "react";
import { describe, expect, it } from "vitest";
import { ErrorBoundary } from "../components/error-boundary.tsx";
import { retryableLazy } from "./retryable-lazy.ts";

function Greeting({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

describe("retryableLazy", () => {
  it("loads again when Try again follows a failed load, and keeps what loaded", async () => {
    let loads = 0;
    const Lazy = retryableLazy(async () => {
      loads += 1;
      if (loads === 1) throw new Error("network down");
      return Greeting;
    });
    const view = () => (
      <ErrorBoundary
        fallback={(_error, reset) => (
          <button
            type="button"
            onClick={() => {
              Lazy.retry();
              reset();
            }}
          >
            Try again
          </button>
        )}
      >
        <Suspense fallback={<p>Loading</p>}>
          <Lazy name="Ada" />
        </Suspense>
      </ErrorBoundary>
    );
    const { rerender } = render(view());
    const retry = await screen.findByRole("button", { name: "Try again" });
    await act(async () => {
      fireEvent.click(retry);
    });
    expect(await screen.findByText("Hello Ada")).toBeTruthy();
    rerender(view());
    expect(screen.getByText("Hello Ada")).toBeTruthy();
    expect(loads).toBe(2);
  });
});
