import { DEMO, expect, signInAs, test, within } from "./helpers.ts";

// Issue 32 item 20: the offline sandbox's bitcoin rate is made up (no market): the wallet says so instead of
// showing it as a price.

test("the wallet labels the sandbox's bitcoin rate", async ({ page }) => {
  await signInAs(page, DEMO.owner, "/app/wallet");
  const sats = page.getByTestId("wallet-sats");
  await expect(sats).toContainText("at the sandbox rate of $", { timeout: within(15_000) });
  await expect(sats).toContainText("(made up for testing, not a market price)");
});
