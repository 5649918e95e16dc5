import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { within as withinMs } from "../../../../../vitest.time-limits.ts";
import { browserTimeZone } from "../../lib/time-format.ts";
import { fakeAccountView, json, stubFetch } from "../../test/accounts.ts";
import { routes } from "../../test/app-routes.ts";
import { renderAt } from "../../test/render.tsx";

const session = {
  success: true,
  token: "tok",
  authToken: "tok",
  id: 42,
  username: "bluebird-dental",
  accountId: 42,
  accountType: "organization",
};

/** The page is a lazy route: its first load (with zod and the schemas) can take a few seconds in jsdom. */
async function ready(heading: string) {
  await screen.findByRole("heading", { name: heading }, { timeout: withinMs(15_000) });
}

async function type(label: string, value: string) {
  await act(async () => {
    fireEvent.change(await screen.findByLabelText(label, { exact: false }), { target: { value } });
  });
}

async function click(name: string) {
  await act(async () => {
    fireEvent.click(screen.getByRole("button", { name }));
  });
}

describe("/signin", () => {
  it("requests a code by e-mail, enables Sign in at exactly 6 digits, keeps the session and goes to next", async () => {
    const calls = stubFetch({
      "POST /api/v1/signin/email": () => ({
        success: true,
        message: "If owner@bluebird.example has an account, we sent it a 6-digit code.",
      }),
      "POST /api/v1/email/verify": () => session,
      "GET /api/v1/account": () => fakeAccountView(),
    });
    const { router } = renderAt(`/signin?next=${encodeURIComponent("/app/org/42/inbox")}`, null, { routes });
    await ready("Sign in");
    await type("E-mail address", "Owner@Bluebird.example");
    await click("Send code");
    expect(
      await screen.findByText("If owner@bluebird.example has an account, we sent it a 6-digit code."),
    ).toBeTruthy();
    expect(calls.find((call) => call.url.pathname === "/api/v1/signin/email")?.body).toEqual({
      email: "owner@bluebird.example",
    });

    const submit = () => screen.getByRole("button", { name: "Sign in" }) as HTMLButtonElement;
    expect(submit().disabled).toBe(true);
    await type("6-digit code", "12345");
    expect(submit().disabled).toBe(true);
    await type("6-digit code", "123456");
    expect(submit().disabled).toBe(false);
    await click("Sign in");

    await waitFor(() => expect(router.state.location.pathname).toBe("/app/org/42/inbox"));
    expect(calls.find((call) => call.url.pathname === "/api/v1/email/verify")?.body).toEqual({
      email: "owner@bluebird.example",
      verificationCode: 123456,
      mobile: false,
    });
    expect(window.localStorage.getItem("token")).toBe("tok");
    expect(window.localStorage.getItem("id")).toBe("42");
    expect(JSON.parse(window.localStorage.getItem("userData") ?? "{}")).toMatchObject({
      username: "bluebird-dental",
      accountType: "organization",
    });
  });

  it("shows the server's message when the code is rejected", async () => {
    stubFetch({
      "POST /api/v1/signin/email": () => ({ success: true }),
      "POST /api/v1/email/verify": () => json({ success: false, message: "Could not verify code." }, 400),
    });
    renderAt("/signin", null, { routes });
    await ready("Sign in");
    await type("E-mail address", "owner@bluebird.example");
    await click("Send code");
    await type("6-digit code", "000000");
    await click("Sign in");
    expect((await screen.findByRole("alert")).textContent).toContain("Could not verify code.");
    expect(window.localStorage.getItem("token")).toBeNull();
  });

  it("validates the address with the API's schema before sending", async () => {
    const calls = stubFetch({});
    renderAt("/signin", null, { routes });
    await ready("Sign in");
    await type("E-mail address", "not an address");
    await click("Send code");
    expect(await screen.findByText("Enter a valid e-mail address.")).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it("signs in by phone", async () => {
    const calls = stubFetch({
      "POST /api/v1/signin/phoneNumber": () => ({
        success: true,
        message: "If +15550100000 is the verified number of an account, we texted it a 6-digit code.",
      }),
      "POST /api/v1/signin/phoneNumber/verify": () => session,
      "GET /api/v1/account": () => fakeAccountView(),
    });
    const { router } = renderAt("/signin", null, { routes });
    await ready("Sign in");
    await act(async () => {
      fireEvent.click(await screen.findByText("Phone"));
    });
    await type("Phone number", "+1 555 010 0000");
    await click("Send code");
    expect(
      await screen.findByText(
        "If +15550100000 is the verified number of an account, we texted it a 6-digit code.",
      ),
    ).toBeTruthy();
    await type("6-digit code", "654321");
    await click("Sign in");
    await waitFor(() => expect(router.state.location.pathname).toBe("/app"));
    expect(calls.find((call) => call.url.pathname === "/api/v1/signin/phoneNumber/verify")?.body).toEqual({
      phoneNumber: "+1 555 010 0000",
      verificationCode: 654321,
      mobile: false,
    });
  });

  it("shows a rate-limit answer as it comes", async () => {
    stubFetch({
      "POST /api/v1/signin/email": () =>
        json(
          {
            success: false,
            message: "Too many codes were requested for this address. Try again in 15 minutes.",
          },
          429,
        ),
    });
    renderAt("/signin", null, { routes });
    await ready("Sign in");
    await type("E-mail address", "owner@bluebird.example");
    await click("Send code");
    expect((await screen.findByRole("alert")).textContent).toContain("Too many codes were requested");
  });
});

describe("/signup", () => {
  it("sends the anonymous session as tempUserToken and lands in /app", async () => {
    window.localStorage.setItem("token", "anon-token");
    window.localStorage.setItem("id", "77");
    window.localStorage.setItem(
      "userData",
      JSON.stringify({ id: 77, username: "", accountId: null, accountType: null, temporary: true }),
    );
    const calls = stubFetch({
      "POST /api/v1/signup/email": () => ({
        success: true,
        message: "We sent a 6-digit code to new@example.com.",
      }),
      "POST /api/v1/email/verify": () => ({
        ...session,
        token: "real",
        authToken: "real",
        id: 90,
        accountId: 90,
      }),
      "GET /api/v1/account": () => fakeAccountView(),
    });
    const { router } = renderAt("/signup", null, { routes });
    await ready("Create your account");
    await type("E-mail address", "new@example.com");
    await type("Your name", "Nia New");
    await type("Business name", "New Dental");
    await click("Send code");
    expect(await screen.findByText("We sent a 6-digit code to new@example.com.")).toBeTruthy();
    expect(calls.find((call) => call.url.pathname === "/api/v1/signup/email")?.body).toEqual({
      email: "new@example.com",
      name: "Nia New",
      businessName: "New Dental",
      tempUserToken: "anon-token",
      // A new organisation starts in the browser's time zone.
      timeZone: browserTimeZone(),
    });
    await type("6-digit code", "111111");
    await click("Create account");
    await waitFor(() => expect(router.state.location.pathname).toBe("/app"));
    expect(window.localStorage.getItem("token")).toBe("real");
  });

  it("sends no tempUserToken without an anonymous session", async () => {
    const calls = stubFetch({ "POST /api/v1/signup/email": () => ({ success: true }) });
    renderAt("/signup?accountId=3", null, { routes });
    await ready("Create your account");
    await type("E-mail address", "new@example.com");
    await click("Send code");
    await screen.findByLabelText("6-digit code");
    expect(calls[0]?.body).toEqual({ email: "new@example.com", accountId: 3, timeZone: browserTimeZone() });
  });

  it("sends a referral link's target (or an invitation's ref) as target", async () => {
    for (const [query, target] of [
      ["?target=bluebird-dental", "bluebird-dental"],
      ["?ref=acme-voice", "acme-voice"],
    ] as const) {
      const calls = stubFetch({ "POST /api/v1/signup/email": () => ({ success: true }) });
      const { unmount } = renderAt(`/signup${query}`, null, { routes });
      await ready("Create your account");
      await type("E-mail address", "new@example.com");
      await click("Send code");
      await screen.findByLabelText("6-digit code");
      expect(calls[0]?.body).toEqual({ email: "new@example.com", target, timeZone: browserTimeZone() });
      unmount();
    }
  });

  it("a temporary session visiting /app is sent to sign-up", async () => {
    window.localStorage.setItem("token", "anon-token");
    window.localStorage.setItem(
      "userData",
      JSON.stringify({ id: 77, username: "", accountId: null, accountType: null, temporary: true }),
    );
    stubFetch({});
    const { router } = renderAt("/app", null, { routes });
    await waitFor(() => expect(router.state.location.pathname).toBe("/signup"));
  });
});

vi.setConfig({ testTimeout: withinMs(30_000) });
