// SIP captures keep attack messages too: a NUL byte in a header or bytes that are not UTF-8 in a body are
// stored as visible \xNN escapes, and the messages captured with them are not lost.
import { randomBytes } from "node:crypto";
import dgram from "node:dgram";
import { like } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../../vitest.time-limits.ts";
import { buildTestApp } from "../../../../test/helpers.ts";
import { sipCaptureMessages } from "../../../db/schema/index.ts";
import { bytesAsText } from "./sip-capture.ts";
import { freeUdpPort } from "./sipp.ts";

let app: FastifyInstance;
let sipPort: number;

beforeAll(async () => {
  sipPort = await freeUdpPort();
  app = await buildTestApp({ SIP_PORT: String(sipPort), HOST: "127.0.0.1" });
}, within(60_000));
afterAll(async () => {
  await app?.close();
});

function options(callId: string, extra: Buffer[] = [], body = Buffer.alloc(0)): Buffer {
  const head = [
    `OPTIONS sip:127.0.0.1:${sipPort} SIP/2.0`,
    `Via: SIP/2.0/UDP 127.0.0.1:5999;branch=z9hG4bK${randomBytes(6).toString("hex")}`,
    "Max-Forwards: 70",
    "From: <sip:probe@127.0.0.1>;tag=p1",
    `To: <sip:127.0.0.1:${sipPort}>`,
    `Call-ID: ${callId}`,
    "CSeq: 1 OPTIONS",
  ].join("\r\n");
  return Buffer.concat([
    Buffer.from(`${head}\r\n`),
    ...extra.map((line) => Buffer.concat([line, Buffer.from("\r\n")])),
    Buffer.from(`Content-Length: ${body.length}\r\n\r\n`),
    body,
  ]);
}

describe("SIP captures of bytes that are not text", () => {
  it("escape them visibly", () => {
    expect(bytesAsText(Buffer.from([0x61, 0x00, 0x62, 0xff, 0xfe, 0x0d, 0x0a, 0xc3, 0xa9, 0x1b]))).toBe(
      "a\\x00b\\xff\\xfe\r\né\\x1b",
    );
    expect(bytesAsText(Buffer.from([0xe2, 0x82]))).toBe("\\xe2\\x82"); // a sequence cut short
  });

  it("store an attack message and its neighbours alike", async () => {
    const run = randomBytes(4).toString("hex");
    const socket = dgram.createSocket("udp4");
    await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
    const send = (data: Buffer) =>
      new Promise<void>((resolve) => socket.send(data, sipPort, "127.0.0.1", () => resolve()));
    await send(options(`before-${run}`));
    await send(
      options(
        `nul-${run}`,
        [Buffer.from([...Buffer.from("Subject: a"), 0x00, ...Buffer.from("b")])],
        Buffer.from([0x76, 0x3d, 0x00, 0xff, 0xfe, 0x0a]),
      ),
    );
    await send(options(`after-${run}`));
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.close();
    await app.sipSettings.recorder.flush();

    const rows = await app.context.database.db
      .select()
      .from(sipCaptureMessages)
      .where(like(sipCaptureMessages.callId, `%-${run}`));
    const calls = (prefix: string) => rows.filter((row) => row.callId === `${prefix}-${run}`);
    // Each OPTIONS and our 200 OK to it.
    for (const prefix of ["before", "nul", "after"]) expect(calls(prefix)).toHaveLength(2);
    const attack = calls("nul").find((row) => row.direction === "in");
    expect(attack?.message).toContain("Subject: a\\x00b");
    expect(attack?.message).toContain("v=\\x00\\xff\\xfe");
  });
});
