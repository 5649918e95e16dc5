import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { routeTable } from "@switchboard/api";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, logCapture } from "../test/helpers.ts";

let app: FastifyInstance;
const logs = logCapture();
let webDir: string;

beforeAll(async () => {
  webDir = await mkdtemp(path.join(os.tmpdir(), "sb-web-"));
  await mkdir(path.join(webDir, "assets"));
  await writeFile(
    path.join(webDir, "index.html"),
    "<!doctype html><title>Switchboard</title><div id=root></div>",
  );
  await writeFile(path.join(webDir, "assets", "main-abc123.js"), "console.log('app')");
  app = await buildTestApp(
    { LOG_LEVEL: "info", WEB_DIST_DIR: webDir, BODY_LIMIT_BYTES: "1024" },
    { logDestination: logs.stream },
  );
});

afterAll(async () => {
  await app.close();
});

describe("health", () => {
  it("GET /healthz answers while the process is up", async () => {
    const res = await app.inject({ method: "GET", url: "/healthz" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: "ok" });
  });

  it("GET /readyz answers when the database answers, naming the driver", async () => {
    const res = await app.inject({ method: "GET", url: "/readyz" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: "ready",
      database: process.env.DATABASE_URL ? "postgres" : "pglite",
      unexpectedErrors: expect.any(Number),
    });
  });

  it("GET /api/v1/system/info reports this instance, read back from the database", async () => {
    const res = await app.inject({ method: "GET", url: "/api/v1/system/info" });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      success: true,
      name: "Switchboard",
      version: "0.1.0",
      environment: "test",
      activeInstances: 1,
    });
    expect(Date.parse(body.startedAt)).not.toBeNaN();
  });
});

describe("errors", () => {
  it("unknown /api paths answer a JSON 404 in the one error shape", async () => {
    const res = await app.inject({ method: "GET", url: "/api/v9/nothing-here?x=1" });
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-type"]).toContain("application/json");
    expect(res.json()).toEqual({ success: false, message: "Not found: GET /api/v9/nothing-here" });
  });

  it("unknown non-GET paths answer a JSON 404 too", async () => {
    const res = await app.inject({ method: "POST", url: "/app/whatever", payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, message: "Not found: POST /app/whatever" });
  });

  it("a body over the size limit is refused with 413 and the error shape", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/api/v1/system/info",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ padding: "x".repeat(4096) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ success: false, message: "Request body is too large." });
  });
});

describe("web app", () => {
  it("serves index.html for any non-API path so the browser router can take it", async () => {
    for (const url of ["/app", "/app/org/42", "/mobile/start", "/app/settings?help=true"]) {
      const res = await app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain("<title>Switchboard</title>");
      expect(res.headers["cache-control"]).toBe("no-cache");
    }
  });

  it("sends / to the app", async () => {
    const res = await app.inject({ method: "GET", url: "/" });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe("/app");
  });

  it("serves hashed assets with a long cache", async () => {
    const res = await app.inject({ method: "GET", url: "/assets/main-abc123.js" });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe("console.log('app')");
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("answers 404 for a file the build lacks, not the app's page in its place", async () => {
    for (const url of ["/favicon.ico", "/assets/main-old999.js"]) {
      const res = await app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).toBe(`Not found: ${url}`);
    }
  });
});

describe("API description", () => {
  it("/api/openapi.json documents every route of the route table", async () => {
    const res = await app.inject({ method: "GET", url: "/api/openapi.json" });
    expect(res.statusCode).toBe(200);
    const document = res.json();
    expect(document.openapi).toBe("3.1.0");
    for (const route of routeTable) {
      expect(document.paths[route.path]?.[route.method.toLowerCase()]?.operationId, route.id).toBe(route.id);
    }
  });

  it("/api/docs serves the reference UI", async () => {
    const res = await app.inject({ method: "GET", url: "/api/docs/" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/html");
    expect(res.body).toContain("swagger");
  });

  it("registers exactly the routes of the table", () => {
    for (const route of routeTable) {
      expect(
        app.hasRoute({ method: route.method, url: route.path.replace(/\{(\w+)\}/g, ":$1") }),
        route.id,
      ).toBe(true);
    }
  });
});

describe("logging", () => {
  it("never writes tokens, admin tokens, authorization headers or codes", async () => {
    await app.inject({
      method: "GET",
      url: "/api/v1/system/info?token=tok-SECRET-1&adminToken=adm-SECRET-2&verificationCode=123987",
      headers: { authorization: "Bearer bearer-SECRET-3" },
    });
    app.log.info(
      { token: "tok-SECRET-4", body: { verificationCode: "654321", adminToken: "adm-SECRET-5" } },
      "probe",
    );
    const text = logs.text();
    expect(text).toContain(
      "/api/v1/system/info?token=[redacted]&adminToken=[redacted]&verificationCode=[redacted]",
    );
    expect(text).toContain('"msg":"probe"');
    for (const secret of ["SECRET", "123987", "654321"]) expect(text).not.toContain(secret);
  });
});
