import { OVERLAY_NAMES } from "../apps/web/src/overlays/overlay-names.ts";
import { DEMO, expect, signInAs, test, within } from "./helpers.ts";

// Issue 32 item 23: every overlay the spec names (§2.1) opens a real screen — none says "not built yet" or
// fails to load — opened by its name alone (`?name=true`) over the dashboard, as a link would open it.

// In six groups, each its own test (its own time limit, and a failure names fewer suspects).
const GROUPS = 6;
const groupSize = Math.ceil(OVERLAY_NAMES.length / GROUPS);
for (let group = 0; group < GROUPS; group++) {
  const names = OVERLAY_NAMES.slice(group * groupSize, (group + 1) * groupSize);
  test(`every overlay of the spec opens a real screen (${names[0]} to ${names.at(-1)})`, async ({
    page,
    problems,
  }) => {
    test.setTimeout(within(60_000));
    // Opened without the value most of them expect (an id, a room): a refusal of that is the screen's to show.
    problems.allow(/answer 4\d\d /, /request failed net::ERR_ABORTED/);
    await signInAs(page, DEMO.owner, "/app/dashboard");
    const broken: string[] = [];
    for (const name of names) {
      // Opened as a link inside the app opens it (the router follows history), not by reloading the app 89
      // times: the screens are what is under test here, not the app's start-up.
      await page.evaluate((search) => {
        window.history.pushState(null, "", `/app/dashboard?${search}`);
        window.dispatchEvent(new PopStateEvent("popstate"));
      }, `${name}=true`);
      const frame = page.locator(`[data-overlay="${name}"]`);
      const dialog = page.getByRole("dialog").first();
      try {
        await expect(frame).toHaveCount(1, { timeout: within(15_000) });
        await expect(dialog).toBeVisible({ timeout: within(15_000) });
      } catch {
        broken.push(`${name}: no dialog`);
        continue;
      }
      // Its data loaded (a loader names itself "Loading…").
      try {
        await expect(dialog.getByRole("status", { name: "Loading" })).toHaveCount(0, {
          timeout: within(15_000),
        });
        await expect(dialog).not.toContainText(/Loading…/, { timeout: within(15_000) });
      } catch {
        broken.push(`${name}: still loading after ${within(15)} s`);
        continue;
      }
      // Its content (a chunk of its own) has rendered: more than the dialog's title, and no loader (a part of
      // it may load after the rest: "Metric Loading…" was read once after the checks above had passed, and
      // "Loading contacts…" before its list). Judged on the text that passed, not on a second read.
      // biome-ignore lint/performance/useDomNodeTextContent: what the screen shows, hidden text left out
      const content = async () => (await dialog.innerText()).replace(/\s+/g, " ");
      let text = "";
      await expect
        .poll(
          async () => {
            text = await content();
            return /\bLoading\b/.test(text) ? 0 : text.length;
          },
          { timeout: within(10_000) },
        )
        .toBeGreaterThanOrEqual(20)
        .catch(() => {});
      if (/not built yet/i.test(text)) broken.push(`${name}: not built yet`);
      if (/This screen could not be loaded/.test(text)) broken.push(`${name}: could not be loaded`);
      if (text.length < 20) broken.push(`${name}: empty (${text})`);
    }
    expect(broken).toEqual([]);
  });
}
