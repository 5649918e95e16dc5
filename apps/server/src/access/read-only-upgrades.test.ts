import type { AddressInfo } from "node:net";
import * as api from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { testClient } from "../../test/api-client.ts";
import { buildHierarchy } from "../../test/fixtures.ts";
import { buildTestApp } from "../../test/helpers.ts";

/**
 * A WebSocket upgrade is a GET, but the voice upgrades place calls: a read-only API token is refused them
 * before the upgrade, with the answer it gets for any write; a full token still connects.
 */

let app: FastifyInstance;
let base: string;
let fullToken: string;
let readOnlyToken: string;

beforeAll(async () => {
  app = await buildTestApp();
  const world = await buildHierarchy(app);
  await app.listen({ port: 0, host: "127.0.0.1" });
  base = `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const owner = testClient(app)(world.members.o1Owner.token);
  fullToken = (await owner.call(api.createApiToken, { body: { description: "full", type: "full" } })).token;
  readOnlyToken = (
    await owner.call(api.createApiToken, { body: { description: "reports", type: "readOnly" } })
  ).token;
});
afterAll(async () => {
  await app.close();
});

/** Opens a socket as a customer's server would (Bearer token): opened, or refused with status and JSON. */
function connect(path: string, token: string) {
  return new Promise<{ opened: true } | { opened: false; status: number; body: { message?: string } }>(
    (resolve, reject) => {
      const socket = new WebSocket(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
      socket.on("open", () => {
        socket.close();
        resolve({ opened: true });
      });
      socket.on("unexpected-response", (_request, response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on("end", () =>
          resolve({ opened: false, status: response.statusCode ?? 0, body: JSON.parse(text) }),
        );
      });
      socket.on("error", (error) => reject(error));
    },
  );
}

const upgrades = [
  ["the browser test call", `/api/v1/voice/call`],
  ["the sandbox phone", `/api/v1/voice/dial?number=${encodeURIComponent("+15550100999")}`],
] as const;

describe("WebSocket upgrades that place calls", () => {
  it.each(upgrades)("a read-only token is refused %s as a write", async (_name, path) => {
    const answer = await connect(path, readOnlyToken);
    expect(answer).toEqual({
      opened: false,
      status: 403,
      body: expect.objectContaining({ message: api.TOKEN_MESSAGES.readOnly }),
    });
  });

  it.each(upgrades)("a full token still opens %s", async (_name, path) => {
    expect(await connect(path, fullToken)).toEqual({ opened: true });
  });

  it("a read-only token still opens the realtime feed, which only reads", async () => {
    expect(await connect("/api/v1/realtime", readOnlyToken)).toEqual({ opened: true });
  });
});
