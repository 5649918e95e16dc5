import {
  checkA11y,
  codeFor,
  DEMO,
  expect,
  outboxMark,
  signInAs,
  test,
  uniqueEmail,
  within,
} from "./helpers.ts";

// Referrals and refunds (issue 21): a new organisation signs up through the demo owner's referral link and
// tops up by sandbox card; the owner sees the reward on the Wallet page and claims it into the wallet. Then
// a super admin refunds the new organisation, whose owner sees the refund in the wallet's transactions.
// Other journeys share the demo data: the owner's figures are compared with what they were before.

const dollars = (text: string | null) => Math.round(Number((text ?? "").replace(/[^0-9.-]/g, "")) * 100);
const usd = (cents: number) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);

test("sign up through a referral link, earn and claim the reward; a super admin refunds", async ({
  page,
  browser,
}) => {
  test.setTimeout(within(120_000));
  await signInAs(page, DEMO.owner, "/app/wallet");
  const section = page.getByRole("region", { name: "Referrals" });
  await expect(section.getByRole("heading", { name: "Referrals" })).toBeVisible();
  const linkField = section.getByLabel("Your referral link");
  await expect(linkField).toHaveValue(/\/signup\?target=/);
  const link = await linkField.inputValue();
  await expect(section.getByRole("button", { name: "Copy link" })).toBeVisible();
  const earnedBefore = dollars(await section.getByTestId("rewards-earned").textContent());
  const referredBefore = Number(
    ((await section.getByTestId("referred-count").textContent()) ?? "").replace(/\D/g, ""),
  );

  // A new organisation signs up through the link, in a browser of its own.
  const newcomer = await browser.newContext({ baseURL: new URL(page.url()).origin });
  const referred = await newcomer.newPage();
  const email = uniqueEmail("referred");
  const business = `Referred ${Date.now().toString(36)}`;
  await referred.goto(link);
  await referred.getByLabel("E-mail address").fill(email);
  await referred.getByLabel("Business name").fill(business);
  const mark = await outboxMark(referred.request);
  await referred.getByRole("button", { name: "Send code" }).click();
  await referred.getByLabel("6-digit code").fill(await codeFor(referred.request, email, mark));
  await referred.getByRole("button", { name: "Create account" }).click();
  await expect(referred.getByTestId("account-name")).toHaveText(business, { timeout: within(15_000) });
  const referredId = Number(await referred.evaluate(() => localStorage.getItem("id")));
  expect(referredId).toBeGreaterThan(0);

  // It tops up $20 by card through the sandbox checkout.
  await referred.goto("/app/wallet");
  await expect(referred.getByTestId("wallet-balance")).toHaveText("$0.00");
  await referred.getByRole("button", { name: "Add funds" }).first().click();
  const addFunds = referred.getByRole("dialog", { name: "Add funds" });
  await addFunds.getByLabel("Amount (USD)").fill("20");
  await addFunds.getByRole("button", { name: "Continue to card payment" }).click();
  await expect(referred).toHaveURL(/\/sandbox\/checkout\/cs_sandbox_/);
  await referred.getByLabel("Card number").fill("4242 4242 4242 4242");
  await referred.getByLabel("Expiry (MM / YY)").fill("12 / 34");
  await referred.getByLabel("CVC").fill("123");
  await referred.getByLabel("Name on card").fill("Rae Referred");
  await referred.getByRole("button", { name: "Pay $20.00" }).click();
  await expect(referred.getByText("$20.00 was added to your wallet.")).toBeVisible();

  // The referrer sees the organisation and its reward (10 % of $20), and claims what is claimable.
  await page.reload();
  await expect(section.getByTestId("referred-count")).toHaveText(`${referredBefore + 1} referred`);
  await expect(section.getByTestId("rewards-earned")).toHaveText(usd(earnedBefore + 200));
  const reward = section.getByTestId("referral-reward").filter({ hasText: business });
  await expect(reward).toContainText("Card top-up $20.00");
  await expect(reward).toContainText("$2.00");
  await expect(reward).toContainText("Claimable");
  await checkA11y(page, "the Wallet page's Referrals section");
  const claimable = dollars(await section.getByTestId("rewards-claimable").textContent());
  expect(claimable).toBeGreaterThanOrEqual(200);
  await section.getByRole("button", { name: "Claim rewards" }).click();
  await expect(section.getByRole("status")).toHaveText(
    `${usd(claimable)} of rewards was added to your wallet.`,
  );
  await expect(section.getByTestId("rewards-claimable")).toHaveText("$0.00");
  await expect(section.getByRole("button", { name: "Claim rewards" })).toBeDisabled();
  await expect(reward).toContainText("Claimed");
  const claimRow = page
    .getByTestId("wallet-transaction")
    .filter({ hasText: "Referral rewards claimed" })
    .first();
  await expect(claimRow).toContainText(`+${usd(claimable)}`);

  // A super admin refunds the new organisation $3.21, after confirming.
  await signInAs(page, DEMO.superAdmin, `/app?orgAdmin=${referredId}`);
  const admin = page.getByRole("dialog", { name: "Administer organization" });
  await expect(admin.getByTestId("summary-name")).toHaveText(business, { timeout: within(15_000) });
  await checkA11y(page, "the refund form");
  await admin.getByLabel("Refund amount (USD)").fill("3.215");
  await admin.getByRole("button", { name: "Refund", exact: true }).click();
  await expect(admin.getByText("usdAmount: from $0.01 to $10,000 with at most two decimals.")).toBeVisible();
  await admin.getByLabel("Refund amount (USD)").fill("3.21");
  await admin.getByRole("button", { name: "Refund", exact: true }).click();
  const confirmDialog = page.getByRole("dialog", { name: "Refund $3.21?" });
  await confirmDialog.getByRole("button", { name: "Refund", exact: true }).click();
  await expect(admin.getByRole("status")).toHaveText(
    "The refund for the issue has been processed. $3.21 was added to the wallet.",
  );

  // The organisation's owner sees it in the wallet.
  await referred.goto("/app/wallet");
  await expect(referred.getByTestId("wallet-balance")).toHaveText("$23.21");
  const refundRow = referred.getByTestId("wallet-transaction").filter({ hasText: "Refund" }).first();
  await expect(refundRow).toContainText("+$3.21");
  await newcomer.close();
});
