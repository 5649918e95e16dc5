import { checkA11y, expect, signUpOwner, test, within } from "./helpers.ts";

// Withdrawals (issue 21): a new organisation's owner tops up $25 by card through the sandbox checkout, then
// withdraws by lightning (the sandbox lightning wallet makes an invoice, the platform's node pays it, the
// wallet page shows the payment received) and by PayPal (the payouts sandbox pays it after a few seconds),
// each shown on hold, then paid out; a payout to an unknown receiver fails and the funds come back. At 550 px.

test.use({ viewport: { width: 550, height: 900 } });

test("withdraw by lightning and by PayPal (sandbox), held then paid out; a failed payout is returned", async ({
  page,
}) => {
  test.setTimeout(within(120_000));
  await signUpOwner(page, "Withdraw Works", "withdraw");
  await page.goto("/app/wallet");
  await expect(page.getByTestId("wallet-balance")).toHaveText("$0.00");

  // An empty wallet: nothing to withdraw.
  await page.getByRole("button", { name: "Withdraw", exact: true }).first().click();
  const dialog = page.getByRole("dialog", { name: "Withdraw" });
  await expect(dialog.getByText("The wallet is empty: there is nothing to withdraw.")).toBeVisible();
  await page.keyboard.press("Escape");

  // $25 by card (4242…).
  await page.getByRole("button", { name: "Add funds" }).first().click();
  const addFunds = page.getByRole("dialog", { name: "Add funds" });
  await addFunds.getByLabel("Amount (USD)").fill("25");
  await addFunds.getByRole("button", { name: "Continue to card payment" }).click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\/cs_sandbox_/);
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM / YY)").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel("Name on card").fill("Rosa Owner");
  await page.getByRole("button", { name: "Pay $25.00" }).click();
  await expect(page.getByText("$25.00 was added to your wallet.")).toBeVisible();
  await page.getByRole("link", { name: "Go to the wallet" }).click();
  await expect(page.getByTestId("wallet-balance")).toHaveText("$25.00");

  // Lightning: the sandbox wallet makes an invoice of 10,000 sats to receive.
  await page.getByRole("button", { name: "Withdraw", exact: true }).first().click();
  await expect(page).toHaveURL(/withdraw=true/);
  await expect(dialog.getByTestId("withdraw-available")).toHaveText("$25.00");
  const walletUrl = await dialog.getByRole("link", { name: "sandbox lightning wallet" }).getAttribute("href");
  const sandboxWallet = await page.context().newPage();
  await sandboxWallet.goto(walletUrl as string);
  await sandboxWallet.getByLabel("Amount (sats)").fill("10000");
  await sandboxWallet.getByRole("button", { name: "Create invoice" }).click();
  const invoice = (await sandboxWallet.getByTestId("new-invoice").textContent())?.trim() ?? "";
  expect(invoice).toMatch(/^lnbcrt100000n1[02-9ac-hj-np-z]+$/);
  await checkA11y(sandboxWallet, "the sandbox lightning wallet (receive)");

  await dialog.getByLabel(/Lightning invoice/).fill(invoice);
  await dialog.getByRole("button", { name: "Withdraw", exact: true }).click();
  const status = dialog.getByTestId("withdrawal-status");
  await expect(status).toHaveText(/On hold|Paid out/);
  await expect(status).toHaveText("Paid out", { timeout: within(20_000) });
  await expect(dialog.getByTestId("withdrawal-progress")).toContainText("10,000 sats");
  // The money arrived in the sandbox wallet.
  await sandboxWallet.reload();
  await expect(sandboxWallet.getByTestId("received-row").first()).toContainText("10,000 sats");
  await expect(sandboxWallet.getByTestId("received-row").first()).toContainText("Received");
  await sandboxWallet.close();
  const afterLightning = (await page.getByTestId("wallet-balance").textContent()) ?? "";
  expect(afterLightning).toMatch(/^\$2[01]\.\d\d$/);

  // PayPal: $5 to an email, held, then paid by the payouts sandbox.
  await dialog.getByRole("button", { name: "New withdrawal" }).click();
  await dialog.getByText("PayPal", { exact: true }).click();
  await dialog.getByLabel("PayPal email").fill("rosa@example.com");
  await dialog.getByLabel("Amount (USD)").fill("5");
  await dialog.getByRole("button", { name: "Withdraw", exact: true }).click();
  await expect(status).toHaveText("On hold");
  await expect(status).toHaveText("Paid out", { timeout: within(30_000) });
  const payoutUrl = await dialog
    .getByRole("link", { name: "See this payout in the payouts sandbox" })
    .getAttribute("href");
  const payoutPage = await page.context().newPage();
  await payoutPage.goto(payoutUrl as string);
  await expect(payoutPage.getByTestId("payout-status")).toContainText("SUCCESS");
  await expect(payoutPage.getByText("rosa@example.com")).toBeVisible();
  await payoutPage.close();

  // Venmo to a receiver the sandbox cannot pay: held, then returned.
  await dialog.getByRole("button", { name: "New withdrawal" }).click();
  await dialog.getByText("Venmo", { exact: true }).click();
  await dialog.getByLabel("Venmo email or mobile number").fill("nobody@example.invalid");
  await dialog.getByLabel("Amount (USD)").fill("3");
  await dialog.getByRole("button", { name: "Withdraw", exact: true }).click();
  await expect(status).toHaveText("Failed: funds returned", { timeout: within(30_000) });
  await expect(dialog.getByRole("alert")).toContainText("RECEIVER_UNREGISTERED");
  await page.keyboard.press("Escape");

  // The transactions: holds, payouts and the return, with the balance $5 lower than after lightning.
  const cents = (text: string) => Math.round(Number(text.replace(/[$,]/g, "")) * 100);
  await expect(page.getByTestId("wallet-balance")).toHaveText(
    `$${((cents(afterLightning) - 500) / 100).toFixed(2)}`,
  );
  await page.getByRole("button", { name: "All transactions" }).click();
  const transactions = page.getByRole("dialog", { name: "Transactions" });
  await expect(transactions.getByText("Withdrawal failed: funds returned")).toBeVisible();
  await expect(transactions.getByText("Withdrawal paid out")).toHaveCount(2);
  await expect(transactions.getByTestId("transactions-count")).toHaveText("7 shown");
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Balances" }).click();
  await expect(page.getByRole("dialog", { name: "Balances" }).getByTestId("balances-held")).toHaveText(
    "$0.00",
  );
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Withdrawals" }).click();
  await expect(page.getByRole("dialog", { name: "Wallet" }).getByTestId("withdrawal-row")).toHaveCount(3);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await page.mouse.move(0, 0);
  await page.waitForTimeout(400); // the overlay's fade-out
  await checkA11y(page, "the wallet page after withdrawals");
  await page.waitForLoadState("networkidle");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
