import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderAt } from "../../test/render.tsx";
import type { UploadAnswer } from "./upload.ts";
import { CheckResult, UploadResult } from "./upload-result.tsx";

const answer = (rows: number, errorCount: number): UploadAnswer => ({
  success: true,
  list: null,
  rows,
  imported: rows - errorCount,
  errorCount,
  errors: [],
  columns: [],
  preview: [],
});

const noop = () => {};

/** Issue 32 item 22: counts take the right number ("1 row was left out", not "1 rows were"). */
describe("the upload's counts", () => {
  it("says one row in the singular", async () => {
    renderAt("/", <UploadResult answer={answer(1, 1)} onAnother={noop} onClose={noop} />);
    expect((await screen.findByRole("status")).textContent).toBe("Imported 0 of 1 row. 1 row was left out.");
  });

  it("says several rows in the plural", async () => {
    renderAt("/", <UploadResult answer={answer(3, 2)} onAnother={noop} onClose={noop} />);
    expect((await screen.findByRole("status")).textContent).toBe(
      "Imported 1 of 3 rows. 2 rows were left out.",
    );
  });

  it("checks a file in the same words", async () => {
    renderAt("/", <CheckResult answer={answer(1, 1)} />);
    expect((await screen.findByRole("status")).textContent).toBe(
      "0 of 1 row can be imported. 1 row would be left out.",
    );
  });
});
