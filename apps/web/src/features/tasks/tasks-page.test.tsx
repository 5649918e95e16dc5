import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { within as withinMs } from "../../../../../vitest.time-limits.ts";
import { type FetchCall, fakeAccount, fakeAccountView, json, signInAs } from "../../test/accounts.ts";
import { routes } from "../../test/app-routes.ts";
import { renderAt } from "../../test/render.tsx";

const LOAD = { timeout: withinMs(15_000) };
const at = 1_700_000_000_000;

const task = (id: string, patch: Record<string, unknown> = {}) => ({
  id,
  listId: 1,
  agentId: 50,
  agentName: "Front Desk",
  channel: "text",
  phoneNumber: "+15035550142",
  name: "Maria Lopez",
  email: null,
  timeZone: null,
  variables: {},
  message: null,
  scheduledAt: null,
  nextAttemptAt: null,
  attempts: 1,
  maxAttempts: 1,
  state: "completed",
  outcome: "replied",
  conversationId: "room-1",
  conversationUuid: "uuid-1",
  callId: null,
  answeredBy: null,
  amdDecisionMs: null,
  lastError: null,
  createdAt: at,
  updatedAt: at,
  completedAt: at,
  ...patch,
});

const list = (state: "active" | "paused") => ({
  id: 1,
  name: "Recall",
  agentId: 50,
  agentName: "Front Desk",
  channel: "text",
  state,
  source: "csv",
  rows: 5,
  errorRows: 1,
  counts: { total: 4, byState: { completed: 2, queued: 2 }, byOutcome: { replied: 1 } },
  createdAt: at,
});

const stats = {
  success: true,
  stats: {
    total: 4,
    byState: {},
    byOutcome: {},
    attemptsToday: 2,
    dailyLimit: 1000,
    running: 0,
    answerRate: null,
    bookedPer100Calls: null,
  },
};

beforeEach(() => window.localStorage.clear());

describe("tasks page", () => {
  it("shows the lists with their counts and the tasks; filters by state; pauses a list", async () => {
    let state: "active" | "paused" = "active";
    const calls = signInAs(undefined, {
      "GET /api/v2/tasks/stats": () => stats,
      "GET /api/v2/tasks/lists": () => ({ success: true, lists: [list(state)], total: 1 }),
      "GET /api/v2/tasks": (call: FetchCall) =>
        call.url.searchParams.get("state") === "queued"
          ? { success: true, tasks: [task("t2", { state: "queued", outcome: null, name: "Zed" })], total: 1 }
          : { success: true, tasks: [task("t1")], total: 1 },
      "POST /api/v2/tasks/lists/1": () => {
        state = "paused";
        return { success: true, list: list(state) };
      },
    });
    renderAt("/app/tasks", null, { routes });
    const card = await screen.findByRole("region", { name: "List Recall" }, LOAD);
    expect(within(card).getByTestId("list-counts").textContent).toBe(
      "2 of 4 done · 2 completed · 0 failed · 0 running · 2 waiting",
    );
    expect(within(card).getByTestId("list-outcomes").textContent).toBe("1 replied");
    // Counts in the right number (issue 32): "1 of 5 rows was left out", "1 of 1 attempt".
    expect(within(card).getByText("1 of 5 rows was left out (errors).")).toBeTruthy();
    const table = await screen.findByRole("table", { name: "Tasks" });
    expect(within(table).getByText("Maria Lopez")).toBeTruthy();
    expect(within(table).getByTestId("task-outcome").textContent).toBe("Replied");
    expect(within(table).getByText("1 of 1 attempt")).toBeTruthy();
    expect(screen.getByTestId("task-stats").textContent).toBe("0 running · 2 of 1,000 attempts today");
    const first = calls.find((c) => c.url.pathname === "/api/v2/tasks");
    // Task list parameters: the catalogue's defaults, empty filters left out.
    expect(Object.fromEntries(first?.url.searchParams ?? [])).toMatchObject({
      limit: "10",
      sort: "createdAt",
      order: "desc",
    });
    expect(first?.url.searchParams.has("state")).toBe(false);
    expect(first?.url.searchParams.has("offset")).toBe(false);

    fireEvent.click(screen.getByRole("combobox", { name: "State" }));
    fireEvent.click(await screen.findByRole("option", { name: "Queued" }));
    expect(await screen.findByText("Zed")).toBeTruthy();

    fireEvent.click(within(card).getByRole("button", { name: "Pause" }));
    await waitFor(() => expect(within(card).getByTestId("list-state").textContent).toBe("Paused"));
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ action: "pause" });
    expect(within(card).getByRole("button", { name: "Resume" })).toBeTruthy();
  });

  it("says what to do when there are no tasks, and shows the server's message when they fail", async () => {
    signInAs(undefined, {
      "GET /api/v2/tasks/stats": () => stats,
      "GET /api/v2/tasks/lists": () => ({ success: true, lists: [], total: 0 }),
      "GET /api/v2/tasks": () => ({ success: true, tasks: [], total: 0 }),
    });
    const { unmount } = renderAt("/app/tasks", null, { routes });
    expect(await screen.findByText(/No tasks yet\./, {}, LOAD)).toBeTruthy();
    expect(screen.getAllByRole("button", { name: "Upload list" })).toHaveLength(2);
    unmount();

    signInAs(undefined, {
      "GET /api/v2/tasks/stats": () => stats,
      "GET /api/v2/tasks/lists": () => ({ success: true, lists: [], total: 0 }),
      "GET /api/v2/tasks": () => json({ success: false, message: "Tasks are not enabled." }, 403),
    });
    renderAt("/app/tasks", null, { routes });
    expect(await screen.findByText("Tasks are not enabled.", {}, LOAD)).toBeTruthy();
    expect(screen.getByText("The tasks could not be loaded")).toBeTruthy();
  });

  it("on a partner account says tasks belong to an organisation, without asking for them", async () => {
    const partner = fakeAccount({ id: 2, accountType: "partner", organizationId: null });
    const calls = signInAs(fakeAccountView({ account: partner, homeAccount: partner }));
    renderAt("/app/tasks", null, { routes });
    // The area is an organisation's (features/registry.ts): the app says where to find it.
    expect(await screen.findByText(/Each organisation has its own task lists\./, {}, LOAD)).toBeTruthy();
    expect(calls.some((c) => c.url.pathname.startsWith("/api/v2/tasks"))).toBe(false);
  });

  it("pages through the tasks ten at a time", async () => {
    const calls = signInAs(undefined, {
      "GET /api/v2/tasks/stats": () => stats,
      "GET /api/v2/tasks/lists": () => ({ success: true, lists: [], total: 0 }),
      "GET /api/v2/tasks": (call: FetchCall) => {
        const offset = Number(call.url.searchParams.get("offset") ?? 0);
        return { success: true, tasks: [task(`t${offset}`, { name: `Person ${offset}` })], total: 25 };
      },
    });
    renderAt("/app/tasks", null, { routes });
    expect(await screen.findByText("Person 0", {}, LOAD)).toBeTruthy();
    expect(screen.getByText("25 tasks")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "2" }));
    expect(await screen.findByText("Person 10")).toBeTruthy();
    expect(
      calls.some((c) => c.url.pathname === "/api/v2/tasks" && c.url.searchParams.get("offset") === "10"),
    ).toBe(true);
  });

  it("editTask: a waiting task's person and message change; the save sends only what the form holds", async () => {
    const waiting = task("t9", {
      state: "queued",
      outcome: null,
      conversationId: null,
      conversationUuid: null,
    });
    const calls = signInAs(undefined, {
      "GET /api/v2/tasks/stats": () => stats,
      "GET /api/v2/tasks/lists": () => ({ success: true, lists: [], total: 0 }),
      "GET /api/v2/tasks": () => ({ success: true, tasks: [waiting], total: 1 }),
      "GET /api/v2/tasks/t9": () => ({ success: true, task: { ...waiting, history: [], transcript: [] } }),
      "POST /api/v2/tasks/t9": (call: FetchCall) => ({
        success: true,
        task: { ...waiting, name: (call.body as { name: string }).name },
      }),
    });
    renderAt("/app/tasks?editTask=t9", null, { routes });
    expect(await screen.findByText("No conversation yet: the task has not run.", {}, LOAD)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Edit" }));
    fireEvent.change(screen.getByRole("textbox", { name: "Name" }), { target: { value: "Maria L." } });
    fireEvent.change(screen.getByRole("textbox", { name: "Variables" }), {
      target: { value: "doctor: Dr. Lee" },
    });
    fireEvent.click(screen.getByRole("button", { name: "Save task" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST")).toBe(true));
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({
      phoneNumber: "+15035550142",
      name: "Maria L.",
      email: null,
      timeZone: null,
      message: null,
      scheduledAt: null,
      variables: { doctor: "Dr. Lee" },
    });
  });
});
