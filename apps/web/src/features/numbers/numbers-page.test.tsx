import type { PhoneNumber } from "@switchboard/api";
import { fireEvent, screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { within as withinMs } from "../../../../../vitest.time-limits.ts";
import { fakeAccountView, permissions, signInAs } from "../../test/accounts.ts";
import { routes } from "../../test/app-routes.ts";
import { renderAt } from "../../test/render.tsx";

const LOAD = { timeout: withinMs(15_000) };
const DEC_29 = Date.UTC(2026, 11, 29, 9, 30);
const NOV_29 = Date.UTC(2026, 10, 29, 9, 30);
const DAY = 24 * 60 * 60 * 1000;

const number = (id: number, digits: string, billing: PhoneNumber["billing"]): PhoneNumber => ({
  id,
  number: digits,
  country: "US",
  region: "OR",
  locality: "Portland",
  kind: "marketplace",
  provider: "sandbox",
  byoMethod: null,
  carrier: null,
  agentId: null,
  agentName: null,
  forwardingVerifiedAt: null,
  capabilities: { voice: true, sms: true },
  createdAt: NOV_29 - 30 * DAY,
  billing,
});

const numbers = [
  number(1, "+15035550101", { monthlyPriceCents: 0, renewsAt: DEC_29, pastDue: null }),
  number(2, "+13035550102", { monthlyPriceCents: 300, renewsAt: DEC_29, pastDue: null }),
  number(3, "+13035550103", {
    monthlyPriceCents: 300,
    renewsAt: NOV_29,
    pastDue: { since: NOV_29, amountCents: 300, releaseAt: NOV_29 + 7 * DAY },
  }),
];

const rowOf = async (digits: string) => {
  const table = await screen.findByRole("table", { name: "Your phone numbers" }, LOAD);
  const row = table.querySelector(`tr[data-number="${digits}"]`);
  if (!(row instanceof HTMLElement)) throw new Error(`no row for ${digits}`);
  return row;
};

beforeEach(() => window.localStorage.clear());

describe("numbers page: what each number costs a month", () => {
  it("shows included, priced and past-due numbers, and Add funds opens the top-up", async () => {
    signInAs(undefined, { "GET /api/v2/phoneNumber": () => ({ success: true, numbers }) });
    renderAt("/app/numbers", null, { routes });
    expect((await rowOf("+15035550101")).textContent).toContain("Included in your plan");
    expect((await rowOf("+13035550102")).textContent).toContain("$3.00/mo, renews Dec 29");
    const pastDue = await rowOf("+13035550103");
    expect(pastDue.textContent).toContain("Past due");
    expect(pastDue.textContent).toContain(
      "$3.00 due Nov 29 is unpaid: the wallet is short. It is released on Dec 6 unless paid.",
    );
    fireEvent.click(within(pastDue).getByRole("button", { name: "Add funds" }));
    expect(await screen.findByRole("dialog", { name: "Add funds" }, LOAD)).toBeTruthy();
  });

  it("tells someone who cannot manage billing to ask an owner", async () => {
    signInAs(fakeAccountView({ permissions: permissions((flag) => flag !== "canManageBilling") }), {
      "GET /api/v2/phoneNumber": () => ({ success: true, numbers }),
    });
    renderAt("/app/numbers", null, { routes });
    const pastDue = await rowOf("+13035550103");
    expect(pastDue.textContent).toContain("Ask an owner of your organisation");
    expect(within(pastDue).queryByRole("button", { name: "Add funds" })).toBeNull();
  });
});
