import { WS_BEARER_PROTOCOL } from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { within } from "../../../vitest.time-limits.ts";
import { buildHierarchy } from "./fixtures.ts";
import { buildTestApp } from "./helpers.ts";

// Issue 32 item 19: the web app keeps the session token out of addresses — a Bearer header on HTTP, the
// Sec-WebSocket-Protocol header on WebSockets — while `?token=` stays accepted for the catalogue's clients.

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
let origin: string;

beforeAll(async () => {
  app = await buildTestApp();
  world = await buildHierarchy(app);
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  origin = `127.0.0.1:${address.port}`;
}, within(180_000));
afterAll(async () => {
  await app.close();
});

function open(path: string, protocols?: string[]) {
  return new Promise<{ protocol: string; first: { type: string }; socket: WebSocket }>((resolve, reject) => {
    const socket = new WebSocket(`ws://${origin}${path}`, protocols);
    socket.once("message", (data) =>
      resolve({ protocol: socket.protocol, first: JSON.parse(String(data)) as { type: string }, socket }),
    );
    socket.once("unexpected-response", (_request, response) =>
      reject(new Error(`refused ${response.statusCode}`)),
    );
    socket.once("error", reject);
  });
}

describe("where the session token travels", () => {
  it("HTTP: an Authorization Bearer header, or ?token= for the catalogue's clients", async () => {
    const { token } = world.members.o1Owner;
    const byHeader = await fetch(`http://${origin}/api/v1/account`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(byHeader.status).toBe(200);
    const byQuery = await fetch(`http://${origin}/api/v1/account?token=${encodeURIComponent(token)}`);
    expect(byQuery.status).toBe(200);
    expect(((await byHeader.json()) as { account: { id: number } }).account.id).toBe(world.accounts.O1.id);
  });

  it("WebSocket: the token after the bearer subprotocol, which alone is answered", async () => {
    const { token } = world.members.o1Owner;
    const connected = await open(`/api/v1/realtime?targetAccountId=${world.accounts.O1.id}`, [
      WS_BEARER_PROTOCOL,
      token,
    ]);
    try {
      expect(connected.protocol).toBe(WS_BEARER_PROTOCOL);
      expect(connected.first).toMatchObject({ type: "hello", orgId: world.accounts.O1.id });
    } finally {
      connected.socket.terminate();
    }
    await expect(open("/api/v1/realtime", [WS_BEARER_PROTOCOL])).rejects.toThrow("refused 401");
    await expect(open("/api/v1/realtime", [WS_BEARER_PROTOCOL, "not-a-session"])).rejects.toThrow(
      "refused 401",
    );
    // Another organisation's person may not listen to O1.
    await expect(
      open(`/api/v1/realtime?targetAccountId=${world.accounts.O1.id}`, [
        WS_BEARER_PROTOCOL,
        world.members.o2Owner.token,
      ]),
    ).rejects.toThrow(/refused 40[34]/);
  });
});
