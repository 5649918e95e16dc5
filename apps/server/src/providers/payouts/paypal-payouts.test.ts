import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paypalPayouts } from "./paypal-payouts.ts";

// A stand-in for PayPal's REST API on loopback: OAuth2 client credentials, then payouts and their state.
type Seen = { method: string; url: string; headers: IncomingMessage["headers"]; body: string };
const seen: Seen[] = [];
let itemStatus = "PENDING";
let server: Server;
let apiUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      res.setHeader("content-type", "application/json");
      if (req.url === "/v1/oauth2/token") {
        const ok = req.headers.authorization === `Basic ${Buffer.from("client:secret").toString("base64")}`;
        res.statusCode = ok ? 200 : 401;
        res.end(
          JSON.stringify(ok ? { access_token: "A21", expires_in: 32400 } : { error: "invalid_client" }),
        );
        return;
      }
      if (req.headers.authorization !== "Bearer A21") {
        res.statusCode = 401;
        res.end("{}");
        return;
      }
      if (req.method === "POST" && req.url === "/v1/payments/payouts") {
        const parsed = JSON.parse(body);
        if (parsed.items[0].receiver === "bad@example.com") {
          res.statusCode = 422;
          res.end(JSON.stringify({ name: "RECEIVER_UNREGISTERED", message: "Receiver is unregistered" }));
          return;
        }
        res.statusCode = 201;
        res.end(
          JSON.stringify({ batch_header: { payout_batch_id: "5UXD2E8A7EBQJ", batch_status: "PENDING" } }),
        );
        return;
      }
      if (req.method === "GET" && req.url === "/v1/payments/payouts/5UXD2E8A7EBQJ") {
        res.end(
          JSON.stringify({
            batch_header: { batch_status: itemStatus === "PENDING" ? "PROCESSING" : "SUCCESS" },
            items: [
              {
                transaction_status: itemStatus,
                ...(itemStatus === "FAILED"
                  ? { errors: { name: "RECEIVER_UNREGISTERED", message: "No account" } }
                  : {}),
              },
            ],
          }),
        );
        return;
      }
      res.statusCode = 404;
      res.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("PayPal Payouts client", () => {
  const client = () => paypalPayouts({ clientId: "client", clientSecret: "secret", apiUrl });

  it("sends a one-item batch to Venmo with our batch id, then follows the item to SUCCESS or FAILED", async () => {
    const paypal = client();
    const sent = await paypal.send({
      senderBatchId: "switchboard-withdrawal-9",
      wallet: "VENMO",
      recipientType: "PHONE",
      receiver: "4155550100",
      amountCents: 1250,
      note: "Withdrawal",
    });
    expect(sent).toEqual({ status: "sent", batchId: "5UXD2E8A7EBQJ" });
    const post = seen.find((s) => s.method === "POST" && s.url === "/v1/payments/payouts");
    expect(post?.headers["paypal-request-id"]).toBe("switchboard-withdrawal-9");
    expect(JSON.parse(post?.body ?? "{}")).toMatchObject({
      sender_batch_header: { sender_batch_id: "switchboard-withdrawal-9" },
      items: [
        {
          recipient_type: "PHONE",
          recipient_wallet: "VENMO",
          receiver: "4155550100",
          amount: { value: "12.50", currency: "USD" },
        },
      ],
    });
    const payout = { batchId: "5UXD2E8A7EBQJ", receiver: "4155550100", sentAt: new Date() };
    itemStatus = "PENDING";
    expect(await paypal.check(payout)).toEqual({ status: "pending" });
    itemStatus = "SUCCESS";
    expect(await paypal.check(payout)).toEqual({ status: "success" });
    itemStatus = "FAILED";
    expect(await paypal.check(payout)).toEqual({
      status: "failed",
      reason: "RECEIVER_UNREGISTERED: No account",
    });
    // One token for all of it.
    expect(seen.filter((s) => s.url === "/v1/oauth2/token")).toHaveLength(1);
  });

  it("a payout PayPal refuses is refused (released), wrong credentials throw (retried)", async () => {
    const refused = await client().send({
      senderBatchId: "switchboard-withdrawal-10",
      wallet: "PAYPAL",
      recipientType: "EMAIL",
      receiver: "bad@example.com",
      amountCents: 500,
      note: "Withdrawal",
    });
    expect(refused).toEqual({ status: "refused", reason: "RECEIVER_UNREGISTERED: Receiver is unregistered" });
    const wrong = paypalPayouts({ clientId: "client", clientSecret: "nope", apiUrl });
    await expect(
      wrong.send({
        senderBatchId: "x",
        wallet: "PAYPAL",
        recipientType: "EMAIL",
        receiver: "a@b.co",
        amountCents: 100,
        note: "",
      }),
    ).rejects.toThrow(/PayPal token: 401/);
  });
});
