import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { createTestDatabase, testConfig } from "../test/helpers.ts";
import { buildApp } from "./app.ts";

function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, agent: false }, (res) => {
      let body = "";
      res.on("data", (chunk) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("lifecycle", () => {
  it("on close stops accepting connections but finishes the requests in flight", async () => {
    const app = await buildApp(testConfig(), { database: await createTestDatabase() });
    // The slow request is held open until the test releases it, once close() has stopped the listener.
    let started!: () => void;
    const handlerStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    app.get("/test/slow", async () => {
      started();
      await released;
      return { done: true };
    });
    await app.listen({ host: "127.0.0.1", port: 0 });
    const address = app.server.address();
    const port = typeof address === "object" && address ? address.port : 0;

    const inFlight = get(port, "/test/slow");
    await handlerStarted;
    const closed = app.close();
    // Let the request finish only once the server has stopped listening.
    while (app.server.listening) await new Promise((resolve) => setTimeout(resolve, 5));
    release();
    await expect(inFlight).resolves.toEqual({ status: 200, body: '{"done":true}' });
    await closed;
    await expect(get(port, "/healthz")).rejects.toThrow(/ECONNREFUSED/);
  });

  it("/readyz answers 503 in the error shape when the database does not answer", async () => {
    const database = await createTestDatabase();
    const app = await buildApp(testConfig(), {
      database: { ...database, ping: () => Promise.reject(new Error("gone")) },
    });
    const res = await app.inject({ method: "GET", url: "/readyz" });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ success: false, message: "Database is not answering." });
    const live = await app.inject({ method: "GET", url: "/healthz" });
    expect(live.statusCode).toBe(200);
    await app.close();
  });
});
