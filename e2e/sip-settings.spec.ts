import { spawn } from "node:child_process";
import dgram from "node:dgram";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DEMO, expect, signInAs, test, within } from "./helpers.ts";

// SIP developer settings (issue #17): the demo owner allows a trunk's range on the SIP allow-list, adds an
// outbound route (its password never shown again), registers Switchboard with a PBX (sipp as the
// registrar, digest authentication) and watches the state turn Registered live, then reads the REGISTERs
// in the SIP captures dialog as a ladder (digest responses redacted) and downloads them as pcap.

const SIPP = "/usr/bin/sipp";
const REGISTRAR = path.resolve(import.meta.dirname, "../apps/server/test/fixtures/sip/registrar-uas.xml");

async function freeUdpPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const socket = dgram.createSocket("udp4");
    const ok = await new Promise<boolean>((resolve) => {
      socket.once("error", () => resolve(false));
      socket.bind(port, "127.0.0.1", () => resolve(true));
    });
    socket.close();
    if (ok) return port;
  }
}

test.skip(!existsSync(SIPP), "sipp (Debian's sip-tester) is not installed");

test("the owner allows a SIP source, adds a route, registers with a PBX and reads the captures", async ({
  page,
}) => {
  test.setTimeout(within(90_000));
  await signInAs(page, DEMO.owner, "/app/developers");
  const octet = 1 + Math.floor(Math.random() * 250);
  const trunk = `E2E trunk ${Date.now().toString(36)}`;

  // Allow-list: a range is added (normalised); a bad address is refused with the message.
  const allow = page.locator('[aria-label="SIP allow-list"]');
  const allowForm = page.getByRole("form", { name: "Allow a SIP source" });
  await allowForm.getByRole("textbox", { name: "IP address or range" }).fill(`198.51.${octet}.9/24`);
  await allowForm.getByRole("textbox", { name: "Label" }).fill("E2E carrier");
  await allowForm.getByRole("button", { name: "Allow address" }).click();
  const allowRow = allow.getByTestId("sip-allow-row").filter({ hasText: `198.51.${octet}.0/24` });
  await expect(allowRow).toContainText(`198.51.${octet}.0/24`);
  // A bad address is named at its field before anything is sent (no 400 is allowed here), in words without
  // the field's key.
  const ipField = allowForm.getByRole("textbox", { name: "IP address or range" });
  await ipField.fill("300.1.1.1");
  await allowForm.getByRole("button", { name: "Allow address" }).click();
  await expect(ipField).toHaveAccessibleDescription(
    "Enter an IP address (203.0.113.7) or a CIDR range (203.0.113.0/24).",
  );
  await expect(allow.getByText(/ip: Enter/)).toHaveCount(0);

  // Outbound route: the password is stored, shown only masked.
  const routes = page.locator('[aria-label="Outbound routes"]');
  const routeForm = page.getByRole("form", { name: "Add an outbound route" });
  await routeForm.getByRole("textbox", { name: "Name", exact: true }).fill(trunk);
  await routeForm.getByRole("textbox", { name: "Host" }).fill("sip.carrier.example");
  await routeForm.getByRole("textbox", { name: "User name" }).fill("acme");
  await routeForm.getByRole("textbox", { name: "Password", exact: true }).fill("trunk-secret-42");
  // Prefixes no journey dials: the other journeys call +1 numbers from this organisation meanwhile, and a
  // route for them would send those calls to this made-up carrier (and keep doing so if this one failed
  // before tidying up).
  await routeForm.getByRole("textbox", { name: "Number prefixes" }).fill("+4420, +4471");
  await routeForm.getByRole("button", { name: "Add route" }).click();
  const routeRow = routes.getByTestId("sip-route-row").filter({ hasText: trunk });
  await expect(routeRow).toContainText("udp:sip.carrier.example:5060");
  await expect(routeRow).toContainText("+4420, +4471");
  await expect(routeRow).toContainText("acme ••••");
  await expect(page.getByText("trunk-secret-42")).toHaveCount(0);

  // Registration with a sipp registrar on loopback (the e2e server allows 127.0.0.1 as the operator).
  const port = await freeUdpPort();
  const cwd = mkdtempSync(path.join(tmpdir(), "sipp-e2e-"));
  const sipp = spawn(
    SIPP,
    [
      "-sf",
      REGISTRAR,
      "-i",
      "127.0.0.1",
      "-p",
      String(port),
      "-m",
      "1",
      "-nostdin",
      "-timeout",
      "50s",
      "-timeout_error",
    ],
    { cwd, stdio: "ignore" },
  );
  const exited = new Promise<number | null>((resolve) => sipp.on("exit", resolve));
  try {
    const registration = page.locator('[aria-label="SIP registration"]');
    await expect(registration.getByText("Not registered with a PBX.")).toBeVisible();
    const form = page.getByRole("form", { name: "Register with a PBX" });
    await form.getByRole("textbox", { name: "Registrar host" }).fill("127.0.0.1");
    await form.getByRole("textbox", { name: "Registrar port" }).fill(String(port));
    await form.getByRole("textbox", { name: "Extension", exact: true }).fill("1001");
    await form.getByRole("textbox", { name: "Extension password", exact: true }).fill("s3cret-pbx");
    await form.getByRole("textbox", { name: "SIP domain" }).fill("pbx.test");
    await form.getByRole("button", { name: "Register" }).click();
    // Live over the realtime socket: no reload.
    await expect(registration.getByLabel("Registration state")).toHaveText("Registered", {
      timeout: within(10_000),
    });
    await expect(registration).toContainText("1001@pbx.test");
    // The registrar granted 2 s: the refresh keeps it registered, until 60 s from the second one.
    await page.waitForTimeout(2500);
    await expect(registration.getByLabel("Registration state")).toHaveText("Registered");
    await registration.getByRole("button", { name: "Unregister" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Unregister" }).click();
    await expect(page.getByText("Unregistered.")).toBeVisible();
    await expect(registration.getByText("Not registered with a PBX.")).toBeVisible();
    expect(await exited).toBe(0);
  } finally {
    sipp.kill();
    rmSync(cwd, { recursive: true, force: true });
  }

  // The captures: the REGISTER dialog as a ladder, the digest response redacted, downloadable as pcap.
  const captures = page.locator('[aria-label="SIP captures"]').first();
  await captures.getByRole("button", { name: "Refresh" }).click();
  const row = captures.getByTestId("sip-capture-row").filter({ hasText: "REGISTER" }).first();
  await expect(row).toContainText("sip:pbx.test");
  await row.getByRole("button", { name: /View/ }).click();
  const dialog = page.getByRole("dialog", { name: "SIP captures" });
  await expect(dialog.getByRole("img", { name: "SIP ladder diagram" })).toBeVisible();
  await expect(
    dialog.getByRole("button", { name: "Received SIP/2.0 401 Unauthorized" }).first(),
  ).toBeVisible();
  // Each REGISTER sent (the first without credentials, the answer to the 401 with them, then the refreshes
  // and the unregister, in the order the registrar's timing gave them): the digest is never shown.
  const sent = dialog.getByRole("button", { name: "Sent REGISTER sip:pbx.test" });
  const messages: string[] = [];
  for (let i = 0; i < (await sent.count()); i++) {
    await sent.nth(i).click();
    messages.push((await dialog.getByLabel("SIP message").textContent()) ?? "");
  }
  expect(messages.some((message) => message.includes('response="[redacted]"'))).toBe(true);
  expect(messages.filter((message) => message.includes("s3cret-pbx"))).toEqual([]);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    dialog.getByRole("button", { name: "Download pcap" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^sip-capture-.*\.pcap$/);
  const file = readFileSync(await download.path());
  expect(file.readUInt32LE(0)).toBe(0xa1b2c3d4);
  expect(file.readUInt32LE(20)).toBe(1); // Ethernet
  expect(file.toString("latin1")).toContain("REGISTER sip:pbx.test SIP/2.0");

  // Tidy up what this journey added to the demo organisation.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await routeRow.getByRole("button", { name: "Remove" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove" }).click();
  await expect(routeRow).toBeHidden();
  await allowRow.getByRole("button", { name: "Remove" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove" }).click();
  await expect(allowRow).toBeHidden();
});
