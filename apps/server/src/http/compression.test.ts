import { brotliDecompressSync, gunzipSync } from "node:zlib";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { registerCompression } from "./compression.ts";

async function app() {
  const server = Fastify();
  registerCompression(server);
  const rows = Array.from({ length: 200 }, (_, index) => ({ id: index, name: `Caller ${index}` }));
  server.get("/big", async () => ({ rows }));
  server.get("/small", async () => ({ ok: true }));
  await server.ready();
  return server;
}

describe("compression of the server's answers", () => {
  it("sends a large JSON answer as brotli or gzip when the client accepts it", async () => {
    const server = await app();
    const plain = await server.inject({ method: "GET", url: "/big" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toContain("accept-encoding");
    const br = await server.inject({
      method: "GET",
      url: "/big",
      headers: { "accept-encoding": "gzip, br" },
    });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    const gz = await server.inject({ method: "GET", url: "/big", headers: { "accept-encoding": "gzip" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    await server.close();
  });

  it("leaves small answers as they are", async () => {
    const server = await app();
    const small = await server.inject({ method: "GET", url: "/small", headers: { "accept-encoding": "br" } });
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.json()).toEqual({ ok: true });
    await server.close();
  });
});
