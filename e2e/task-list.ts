import type { Locator, Page } from "@playwright/test";
import { expect, within } from "./helpers.ts";

/**
 * Waits until every task of a list has ended, then expects `expected` in the list's counts ("2 completed").
 * A list whose tasks ended otherwise fails at once with each task's outcome and error as the Tasks table
 * shows them, instead of waiting out the time limit with only the counts to go by.
 */
export async function expectListDone(
  page: Page,
  list: Locator,
  total: number,
  expected: string,
  timeoutMs: number,
): Promise<void> {
  const counts = list.getByTestId("list-counts");
  await expect(counts).toContainText(`${total} of ${total} done`, { timeout: within(timeoutMs) });
  const text = (await counts.textContent()) ?? "";
  if (text.includes(expected)) return;
  await list.getByRole("button", { name: "Show its tasks" }).click();
  const rows = page.getByRole("table", { name: "Tasks" }).getByTestId("task-row");
  await expect(rows.first()).toBeVisible();
  const outcomes = await rows.allInnerTexts();
  throw new Error(
    `The list ended as "${text}", not "${expected}". Its tasks: ${outcomes.map((row) => row.replace(/\s+/g, " ").trim()).join(" | ")}`,
  );
}
