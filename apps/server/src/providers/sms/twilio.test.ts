import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { twilioSmsProvider } from "./twilio.ts";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A stand-in for Twilio's Messages API answering each POST with `answer` (or never, when null). */
async function twilioAnswering(answer: { status: number; body: unknown } | null) {
  const bodies: string[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      bodies.push(body);
      if (!answer) return;
      response.writeHead(answer.status, { "content-type": "application/json" });
      response.end(JSON.stringify(answer.body));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { bodies, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const provider = (apiUrl: string, timeoutMs?: number) =>
  twilioSmsProvider({
    accountSid: "AC00000000000000000000000000000001",
    authToken: "token",
    fromNumber: "+15035550100",
    apiUrl,
    statusCallbackUrl: undefined,
    ...(timeoutMs ? { timeoutMs } : {}),
  });

describe("sending a text through Twilio", () => {
  it("posts the message and answers Twilio's id, queued", async () => {
    const twilio = await twilioAnswering({ status: 201, body: { sid: "SM1", status: "queued" } });
    await expect(provider(twilio.url).send({ to: "+15035550123", body: "Hello" })).resolves.toEqual({
      id: "SM1",
      status: "queued",
    });
    const form = new URLSearchParams(twilio.bodies[0]);
    expect([form.get("To"), form.get("From"), form.get("Body")]).toEqual([
      "+15035550123",
      "+15035550100",
      "Hello",
    ]);
  });

  it("says why Twilio refused a message", async () => {
    const twilio = await twilioAnswering({ status: 400, body: { message: "The 'To' number is not valid." } });
    await expect(provider(twilio.url).send({ to: "+1", body: "Hello" })).rejects.toThrow(
      "Twilio refused the message (400): The 'To' number is not valid.",
    );
  });

  it("says the message may have been sent when Twilio took it and did not answer in time", async () => {
    const twilio = await twilioAnswering(null);
    await expect(provider(twilio.url, 300).send({ to: "+15035550123", body: "Hello" })).rejects.toThrow(
      "Twilio did not answer within 0.3 s: the message may have been sent.",
    );
    expect(twilio.bodies).toHaveLength(1);
  });

  it("says Twilio could not be reached when nothing listens", async () => {
    // A port that was just free: nothing listens there now.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    await expect(
      provider(`http://127.0.0.1:${port}`).send({ to: "+15035550123", body: "Hello" }),
    ).rejects.toThrow("Twilio could not be reached: ECONNREFUSED");
  });
});
