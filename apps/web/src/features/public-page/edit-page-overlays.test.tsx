import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { within as withinMs } from "../../../../../vitest.time-limits.ts";
import { createQueryClient } from "../../app/providers.tsx";
import { fakeAccount, signInAs } from "../../test/accounts.ts";
import { routes } from "../../test/app-routes.ts";
import { renderAt } from "../../test/render.tsx";

const LOAD = { timeout: withinMs(15_000) };

const linksAnswer = (
  links: { id: number; title: string; url: string }[],
  linksConfig = { bio: "Family dentistry in Portland.", published: true },
) => ({
  success: true,
  username: "bluebird-dental",
  linksConfig,
  links: links.map((link, position) => ({ ...link, position, clicks: link.id === 1 ? 3 : 0 })),
});

beforeEach(() => window.localStorage.clear());

describe("the link page's editors", () => {
  it("editPage adds, reorders and saves the links, keeping the ids of those that stay", async () => {
    const calls = signInAs(undefined, {
      "GET /api/v1/account/links": () => linksAnswer([{ id: 1, title: "Book", url: "https://book.example" }]),
      "POST /api/v1/account/links": (call) => {
        const body = call.body as { links: { id?: number; title: string; url: string }[] };
        return linksAnswer(body.links.map((link, i) => ({ id: link.id ?? 10 + i, ...link })));
      },
    });
    renderAt("/app/settings?editPage=true", null, { routes });
    const dialog = await screen.findByRole("dialog", { name: "Edit your page's links" }, LOAD);
    expect(await within(dialog).findByDisplayValue("Book", {}, LOAD)).toBeTruthy();
    expect(within(dialog).queryByText(/not built yet/)).toBeNull();
    expect(within(dialog).getByLabelText("Link 1 clicks").textContent).toBe("3 clicks");

    fireEvent.click(within(dialog).getByRole("button", { name: "Add link" }));
    fireEvent.change(within(dialog).getByLabelText("Link 2 title"), { target: { value: "Prices" } });
    fireEvent.change(within(dialog).getByLabelText("Link 2 address"), {
      target: { value: "prices.example" },
    });
    fireEvent.click(within(dialog).getByRole("button", { name: "Move link 2 up" }));
    fireEvent.click(within(dialog).getByRole("button", { name: "Save public page" }));

    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true), LOAD);
    const saved = calls.find((c) => c.method === "POST" && c.url.pathname === "/api/v1/account/links");
    expect(saved?.body).toEqual({
      links: [
        { title: "Prices", url: "prices.example" },
        { id: 1, title: "Book", url: "https://book.example" },
      ],
      linksConfig: { published: true },
    });
    // Saved: the overlay closes.
    await waitFor(
      () => expect(screen.queryByRole("dialog", { name: "Edit your page's links" })).toBeNull(),
      LOAD,
    );
  });

  it("editPage keeps a link the owner added when the saved links arrive again", async () => {
    let visits = 0;
    const calls = signInAs(undefined, {
      // Each answer differs (the page is being visited): a new answer is new data for the form.
      "GET /api/v1/account/links": () => ({
        ...linksAnswer([{ id: 1, title: "Book", url: "https://book.example" }]),
        username: `bluebird-dental-${visits++}`,
      }),
    });
    const queryClient = createQueryClient();
    renderAt("/app/settings?editPage=true", null, { routes, queryClient });
    const dialog = await screen.findByRole("dialog", { name: "Edit your page's links" }, LOAD);
    await within(dialog).findByDisplayValue("Book", {}, LOAD);
    fireEvent.click(within(dialog).getByRole("button", { name: "Add link" }));
    fireEvent.change(within(dialog).getByLabelText("Link 2 title"), { target: { value: "Prices" } });

    // A background refetch (the page was cached, or another change invalidated it) answers afterwards.
    const fetches = () =>
      calls.filter((c) => c.method === "GET" && c.url.pathname === "/api/v1/account/links");
    const before = fetches().length;
    await queryClient.invalidateQueries();
    await waitFor(() => expect(fetches().length).toBeGreaterThan(before), LOAD);
    expect((within(dialog).getByLabelText("Link 2 title") as HTMLInputElement).value).toBe("Prices");
    expect(within(dialog).getByDisplayValue("Book")).toBeTruthy();
  });

  it("editPageProfile saves the name on the page and the bio, and leaves the links as they are", async () => {
    const calls = signInAs(undefined, {
      "GET /api/v1/account/links": () => linksAnswer([{ id: 1, title: "Book", url: "https://book.example" }]),
      "POST /api/v1/account/links": () =>
        linksAnswer([{ id: 1, title: "Book", url: "https://book.example" }], {
          bio: "Open late on Thursdays.",
          published: true,
        }),
      "POST /api/v1/account": (call) => ({
        success: true,
        account: {
          ...fakeAccount(),
          displayName: (call.body as { name: string }).name,
        },
      }),
    });
    renderAt("/app/settings?editPageProfile=true", null, { routes });
    const dialog = await screen.findByRole("dialog", { name: "Edit your page's profile" }, LOAD);
    const name = await within(dialog).findByLabelText("Name on the page", {}, LOAD);
    expect((name as HTMLInputElement).value).toBe("Bluebird Dental");
    expect((within(dialog).getByLabelText("Bio") as HTMLTextAreaElement).value).toBe(
      "Family dentistry in Portland.",
    );
    fireEvent.change(name, { target: { value: "Bluebird Dental Care" } });
    fireEvent.change(within(dialog).getByLabelText("Bio"), { target: { value: "Open late on Thursdays." } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save" }));

    await waitFor(
      () => expect(screen.queryByRole("dialog", { name: "Edit your page's profile" })).toBeNull(),
      LOAD,
    );
    expect(calls.find((c) => c.method === "POST" && c.url.pathname === "/api/v1/account")?.body).toEqual({
      name: "Bluebird Dental Care",
    });
    expect(
      calls.find((c) => c.method === "POST" && c.url.pathname === "/api/v1/account/links")?.body,
    ).toEqual({
      links: [{ id: 1, title: "Book", url: "https://book.example" }],
      linksConfig: { bio: "Open late on Thursdays." },
    });
  });
});
