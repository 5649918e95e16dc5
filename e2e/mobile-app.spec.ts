import { DEMO, expect, signInAs, test, within } from "./helpers.ts";

// The native mobile app's screens (issue 22, README "The mobile app's contract"): inside the app the Settings
// page has "This phone". A stand-in for the native side answers the bridge's commands as the app would: it
// fetches the contacts from the path it was given with the page's session, and grants (or refuses) push.

test.use({ viewport: { width: 390, height: 844 } });

async function installNativeApp(page: import("@playwright/test").Page, push: "granted" | "denied") {
  await page.addInitScript((pushAnswer) => {
    const sent: unknown[] = [];
    (window as unknown as { nativeSent: unknown[] }).nativeSent = sent;
    (window as unknown as { ReactNativeWebView: { postMessage(text: string): void } }).ReactNativeWebView = {
      postMessage(text: string) {
        const message = JSON.parse(text) as { command: string; requestId?: string; path?: string };
        sent.push(message);
        const reply = (data: unknown) =>
          setTimeout(() => {
            const bridge = (
              window as unknown as { SwitchboardBridge?: { reply(id: string, data: unknown): void } }
            ).SwitchboardBridge;
            bridge?.reply(message.requestId as string, data);
          }, 50);
        if (message.command === "syncContacts") {
          const token = window.localStorage.getItem("token") ?? "";
          void fetch(`${message.path}?token=${encodeURIComponent(token)}`)
            .then((response) => response.json())
            .then((body: { contacts: unknown[] }) => reply({ synced: body.contacts.length }));
        }
        if (message.command === "registerPush")
          reply(pushAnswer === "granted" ? { token: "expo-push-token-e2e" } : { denied: true });
      },
    };
  }, push);
}

test("in the mobile app the owner syncs contacts to the phone and turns notifications on", async ({
  page,
}) => {
  await installNativeApp(page, "granted");
  await signInAs(page, DEMO.owner, "/app/settings?mobileApp=true&platform=iOS&appVersion=2.1.0");
  const card = page.getByRole("region", { name: "This phone" });
  const contacts = await page.request
    .get(
      `/api/v1/mobileContacts?token=${encodeURIComponent(await page.evaluate(() => localStorage.getItem("token") ?? ""))}`,
    )
    .then(async (response) => ((await response.json()) as { contacts: unknown[] }).contacts.length);
  expect(contacts).toBeGreaterThan(0);

  await card.getByRole("button", { name: "Sync contacts to this phone" }).click();
  await expect(
    card.getByText(
      `Synced ${contacts.toLocaleString("en-US")} ${contacts === 1 ? "contact" : "contacts"} to this phone.`,
    ),
  ).toBeVisible();
  // A run before this one on the same server may have registered the phone already.
  await card.getByRole("button", { name: /^(Turn on notifications|Register this phone again)$/ }).click();
  await expect(card.getByText(/^Notifications are on for this phone \(since /)).toBeVisible();
  await expect(card.getByRole("button", { name: "Register this phone again" })).toBeVisible();
  const sent = await page.evaluate(
    () => (window as unknown as { nativeSent: { command: string }[] }).nativeSent,
  );
  expect(sent.map((message) => message.command)).toEqual(["syncContacts", "registerPush"]);

  // Recorded as check-ins: after a reload the card says when.
  await page.reload();
  await expect(card.getByText(/^Last synced /)).toBeVisible();
  await expect(card.getByText(/^Notifications are on for this phone/)).toBeVisible();
});

test("outside the app there is no phone card; a refused push permission says what to do", async ({
  page,
}) => {
  await signInAs(page, DEMO.admin, "/app/settings");
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "This phone" })).toHaveCount(0);

  await installNativeApp(page, "denied");
  await page.goto("/app/settings?mobileApp=true&platform=Android");
  await page.getByRole("button", { name: "Turn on notifications" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "Notifications are turned off for this app. Allow them in the phone's settings.",
  );
});

test("in the mobile app a texter's number is looked up in the phone's contacts and saved by name", async ({
  page,
}) => {
  await installNativeApp(page, "granted");
  const handset = `+1503558${String(Math.floor(1000 + Math.random() * 8999))}`;
  const name = `Pat Phone${Date.now().toString(36)}`;
  await page.addInitScript(
    ([number, known]) => {
      const native = (window as unknown as { ReactNativeWebView: { postMessage(text: string): void } })
        .ReactNativeWebView;
      const next = native.postMessage.bind(native);
      native.postMessage = (text: string) => {
        const message = JSON.parse(text) as { command: string; value?: string; requestId?: string };
        if (message.command !== "searchContact") return next(text);
        const bridge = (
          window as unknown as { SwitchboardBridge?: { reply(id: string, data: unknown): void } }
        ).SwitchboardBridge;
        setTimeout(
          () => bridge?.reply(message.requestId as string, { name: message.value === number ? known : null }),
          50,
        );
      };
    },
    [handset, name],
  );
  await signInAs(page, DEMO.owner, "/app/inbox?mobileApp=true&platform=Android");
  // A text from a number the organisation does not know yet (the phone simulator's API).
  const token = await page.evaluate(() => localStorage.getItem("token") ?? "");
  const agents = (await (
    await page.request.get(`/api/v2/listAccounts?token=${encodeURIComponent(token)}&pagination=false`)
  ).json()) as { accounts: { displayName: string; switchboardPhoneNumber: string | null }[] };
  const agentNumber = agents.accounts.find((a) => a.displayName === "Front Desk")?.switchboardPhoneNumber;
  expect(agentNumber, "the Front Desk agent's number").toBeTruthy();
  const sent = await page.request.post(`/api/v1/sandbox/sms/inbound?token=${encodeURIComponent(token)}`, {
    data: { from: handset, to: agentNumber, text: "Can I move my appointment?" },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  const { roomId } = (await sent.json()) as { roomId: string };

  // Opened as a notification's link would open it.
  await page.goto(`/app/inbox?active=${roomId}`);
  await expect(page.getByRole("heading", { name: /558-/ })).toBeVisible();
  await page.getByRole("button", { name: "Conversation actions" }).click();
  await page.getByRole("menuitem", { name: "Look up in phone contacts" }).click();
  await expect(page.getByText(`Saved ${name} as a contact.`)).toBeVisible();
  await expect(page.getByLabel(`Conversation with ${name}`)).toBeVisible({ timeout: within(10_000) });
});
