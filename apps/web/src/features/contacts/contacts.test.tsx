import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { within as withinMs } from "../../../../../vitest.time-limits.ts";
import { type FetchCall, json, signInAs } from "../../test/accounts.ts";
import { routes } from "../../test/app-routes.ts";
import { renderAt } from "../../test/render.tsx";
import { CONTACT_NAMES_KEY } from "./display-names.ts";

const LOAD = { timeout: withinMs(15_000) };

const maria = {
  id: 5,
  displayName: "Maria Lopez",
  addresses: ["+15035550142"],
  createdAt: 1_700_000_000_000,
  updatedAt: 1_700_000_000_000,
  firstName: "Maria",
  lastName: "Lopez",
  phone: "+15035550142",
  insurance: { provider: "Delta", member: "X123", visits: 3 },
  notes: "Prefers morning visits.",
};
const zed = {
  id: 6,
  displayName: "Zed Zimmer",
  addresses: ["+15035550402", "zed@example.com"],
  createdAt: 1_700_000_000_000,
  updatedAt: 1_700_000_000_000,
  name: "Zed Zimmer",
  phoneNumbers: ["+15035550402"],
  emails: ["zed@example.com"],
};

beforeEach(() => window.localStorage.clear());

describe("contacts page", () => {
  it("lists the contacts, caches their names, searches, and says when nothing matches", async () => {
    const calls = signInAs(undefined, {
      "GET /api/v2/contact": (call: FetchCall) => {
        const q = call.url.searchParams.get("q");
        if (q === "nobody") return { success: true, contacts: [], total: 0 };
        if (q === "zim") return { success: true, contacts: [zed], total: 1 };
        return { success: true, contacts: [maria, zed], total: 2 };
      },
    });
    renderAt("/app/contacts", null, { routes });
    const table = await screen.findByRole("table", { name: "Contacts" }, LOAD);
    expect(within(table).getByText("Maria Lopez")).toBeTruthy();
    expect(within(table).getByText("+1 (503) 555-0142")).toBeTruthy();
    expect(within(table).getByText("zed@example.com")).toBeTruthy();
    await waitFor(() =>
      expect(JSON.parse(window.localStorage.getItem(CONTACT_NAMES_KEY) ?? "{}")).toEqual({
        "+15035550142": "Maria Lopez",
        "+15035550402": "Zed Zimmer",
        "zed@example.com": "Zed Zimmer",
      }),
    );

    fireEvent.change(screen.getByRole("textbox", { name: "Search contacts" }), { target: { value: "zim" } });
    await waitFor(() => expect(screen.queryByText("Maria Lopez")).toBeNull(), { timeout: withinMs(3000) });
    expect(screen.getByText("Zed Zimmer")).toBeTruthy();
    expect(
      calls.some((c) => c.url.pathname === "/api/v2/contact" && c.url.searchParams.get("q") === "zim"),
    ).toBe(true);

    fireEvent.change(screen.getByRole("textbox", { name: "Search contacts" }), {
      target: { value: "nobody" },
    });
    expect(
      await screen.findByText("No contacts match “nobody”.", {}, { timeout: withinMs(3000) }),
    ).toBeTruthy();
  });

  it("shows the server's message when the account has no organisation", async () => {
    signInAs(undefined, {
      "GET /api/v2/contact": () => json({ success: false, message: "No token or orgAccountId" }, 400),
    });
    renderAt("/app/contacts", null, { routes });
    expect(await screen.findByText("No token or orgAccountId", {}, LOAD)).toBeTruthy();
    expect(screen.getByText("The contacts could not be loaded")).toBeTruthy();
  });
});

describe("contact overlays", () => {
  it("editContact changes a nested field and sends the whole merged object as newData", async () => {
    let saved: unknown;
    const calls = signInAs(undefined, {
      "GET /api/v2/contact": () => ({ success: true, contacts: [maria], total: 1 }),
      "GET /api/v2/contact/5": () => ({ success: true, contact: maria, rooms: [] }),
      "POST /api/v2/contact": (call: FetchCall) => {
        saved = call.body;
        const { newData } = call.body as { newData: Record<string, unknown> };
        return { success: true, contact: { ...maria, ...newData, id: 5 } };
      },
    });
    renderAt("/app/contacts?editContact=5", null, { routes });
    const dialog = await screen.findByRole("dialog", { name: "Edit contact" }, LOAD);
    const provider = await within(dialog).findByRole("textbox", { name: "Insurance provider" }, LOAD);
    expect((provider as HTMLInputElement).value).toBe("Delta");
    expect(
      (within(dialog).getByRole("textbox", { name: "Insurance visits" }) as HTMLInputElement).value,
    ).toBe("3");
    fireEvent.change(provider, { target: { value: "Cigna" } });
    // A field of one's own: a key and a value.
    fireEvent.click(within(dialog).getByRole("button", { name: "Add field" }));
    fireEvent.change(within(dialog).getByRole("textbox", { name: "Field name" }), {
      target: { value: "company" },
    });
    fireEvent.change(within(dialog).getByRole("textbox", { name: "Company" }), {
      target: { value: "Bluebird" },
    });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole("button", { name: "Save contact" }));
    });
    await waitFor(() => expect(saved).toBeDefined());
    expect(saved).toEqual({
      id: 5,
      newData: {
        firstName: "Maria",
        lastName: "Lopez",
        phone: "+15035550142",
        insurance: { provider: "Cigna", member: "X123", visits: 3 },
        notes: "Prefers morning visits.",
        company: "Bluebird",
      },
    });
    expect(await screen.findByText("Maria Lopez saved.")).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Edit contact" })).toBeNull());
    expect(calls.filter((c) => c.method === "POST")).toHaveLength(1);
  });

  it("createContact shows the server's refusal of an empty contact and keeps the form open", async () => {
    signInAs(undefined, {
      "GET /api/v2/contact": () => ({ success: true, contacts: [], total: 0 }),
      "POST /api/v2/contact": () =>
        json(
          { success: false, message: "Give the contact a name, a phone number or an e-mail address." },
          400,
        ),
    });
    renderAt("/app/contacts?createContact=true", null, { routes });
    const dialog = await screen.findByRole("dialog", { name: "New contact" }, LOAD);
    const add = await within(dialog).findByRole("button", { name: "Add contact" }, LOAD);
    expect(within(dialog).getByRole("textbox", { name: "Name" })).toBeTruthy();
    expect(within(dialog).getByRole("textbox", { name: "Phone number" })).toBeTruthy();
    await act(async () => {
      fireEvent.click(add);
    });
    expect(
      await within(dialog).findByText("Give the contact a name, a phone number or an e-mail address."),
    ).toBeTruthy();
  });

  it("previewContact links each conversation to the inbox; deleteContact confirms and forgets the name", async () => {
    window.localStorage.setItem(CONTACT_NAMES_KEY, JSON.stringify({ "+15035550142": "Maria Lopez" }));
    let deleted: unknown;
    signInAs(undefined, {
      "GET /api/v2/contact": () => ({ success: true, contacts: [maria], total: 1 }),
      "GET /api/v2/contact/5": () => ({
        success: true,
        contact: maria,
        rooms: [{ roomId: "room-1", lastMessage: "Thank you so much.", lastMessageAt: 1_700_000_000_000 }],
      }),
      "DELETE /api/v2/contact": (call: FetchCall) => {
        deleted = call.body;
        return { success: true, id: 5 };
      },
    });
    const { router } = renderAt("/app/contacts?previewContact=5", null, { routes });
    const dialog = await screen.findByRole("dialog", { name: "Contact" }, LOAD);
    expect(await within(dialog).findByText("Thank you so much.", {}, LOAD)).toBeTruthy();
    expect(within(dialog).getByText("Prefers morning visits.")).toBeTruthy();
    expect(within(dialog).getByText("Delta")).toBeTruthy();
    expect(within(dialog).getByRole("link", { name: "Open in inbox" }).getAttribute("href")).toBe(
      "/app/inbox?active=room-1",
    );

    fireEvent.click(within(dialog).getByRole("button", { name: "Delete" }));
    const confirm = await screen.findByRole("dialog", { name: "Delete contact" }, LOAD);
    expect(router.state.location.search).toBe("?deleteContact=5");
    const remove = await within(confirm).findByRole("button", { name: "Delete contact" }, LOAD);
    await act(async () => {
      fireEvent.click(remove);
    });
    await waitFor(() => expect(deleted).toEqual({ id: 5 }));
    expect(await screen.findByText("Maria Lopez deleted.", {}, LOAD)).toBeTruthy();
    expect(JSON.parse(window.localStorage.getItem(CONTACT_NAMES_KEY) ?? "{}")).toEqual({});
  });
});

vi.setConfig({ testTimeout: withinMs(30_000) });
