import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decodeInvoice, encodeInvoice, paymentHashOf } from "./bolt11.ts";
import { lndNode } from "./lnd-node.ts";

describe("BOLT11", () => {
  it("decodes the BOLT #11 example and recovers its payee from the signature", () => {
    const example =
      "lnbc1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpl2pkx2ctnv5sxxmmwwd5kgetjypeh2ursdae8g6twvus8g6rfwvs8qun0dfjkxaq9qrsgq357wnc5r2ueh7ck6q93dj32dlqnls087fxdwk8qakdyafkq3yap9us6v52vjjsrvywa6rt52cm9r9zqt8r2t7mlcwspyetp5h2tztugp9lfyql";
    expect(decodeInvoice(example)).toMatchObject({
      network: "bc",
      amountSats: null,
      paymentHash: "0001020304050607080900010203040506070809000102030405060708090102",
      description: "Please consider supporting this project",
      payee: "03e7156ae33b0a208d0744199163177e909e80176e55d97a2f221ede0f934dd9ad",
    });
  });

  it("encodes a signed invoice that decodes to what was asked, and refuses a tampered one", () => {
    const privateKey = new Uint8Array(32).fill(7);
    const preimage = randomBytes(32).toString("hex");
    const invoice = encodeInvoice({
      network: "bcrt",
      amountSats: 23_256,
      paymentHash: Buffer.from(paymentHashOf(preimage), "hex"),
      paymentSecret: randomBytes(32),
      description: "Top-up",
      expirySeconds: 600,
      timestamp: 1_700_000_000,
      privateKey,
    });
    expect(invoice).toMatch(/^lnbcrt232560n1/);
    expect(decodeInvoice(invoice)).toMatchObject({
      network: "bcrt",
      amountSats: 23_256,
      paymentHash: paymentHashOf(preimage),
      description: "Top-up",
      expiresAt: 1_700_000_600,
    });
    // One character of the data changed: the bech32 checksum (or the signature) no longer holds.
    const i = invoice.length - 120;
    const tampered = invoice.slice(0, i) + (invoice[i] === "q" ? "p" : "q") + invoice.slice(i + 1);
    expect(() => decodeInvoice(tampered)).toThrow();
  });
});

describe("LND REST client", () => {
  it("creates an invoice with the macaroon and reads r_hash as the payment hash", async () => {
    const calls: { url: string; init: RequestInit | undefined }[] = [];
    const node = lndNode({
      restUrl: "https://lnd.test:8080",
      macaroon: "0201ab",
      fetch: (async (url: string, init?: RequestInit) => {
        calls.push({ url, init });
        return new Response(
          JSON.stringify({ r_hash: Buffer.alloc(32, 1).toString("base64"), payment_request: "lnbc10n1xyz" }),
        );
      }) as typeof fetch,
    });
    const created = await node.createInvoice({ amountSats: 1000, description: "d", expirySeconds: 3600 });
    expect(created).toMatchObject({ paymentRequest: "lnbc10n1xyz", paymentHash: "01".repeat(32) });
    expect(calls[0]?.url).toBe("https://lnd.test:8080/v1/invoices");
    expect(calls[0]?.init?.headers).toMatchObject({ "grpc-metadata-macaroon": "0201ab" });
    expect(JSON.parse(String(calls[0]?.init?.body))).toEqual({ value: "1000", memo: "d", expiry: "3600" });
  });

  it("pays an invoice: the preimage and fee, a payment error as failed, an already-paid hash as an error", async () => {
    const answers = [
      { payment_preimage: Buffer.alloc(32, 2).toString("base64"), payment_route: { total_fees: "3" } },
      { payment_error: "unable to find a path to destination" },
      { payment_error: "invoice is already paid" },
    ];
    const bodies: unknown[] = [];
    const node = lndNode({
      restUrl: "https://lnd.test:8080",
      macaroon: "0201ab",
      fetch: (async (url: string, init?: RequestInit) => {
        expect(url).toBe("https://lnd.test:8080/v1/channels/transactions");
        bodies.push(JSON.parse(String(init?.body)));
        return new Response(JSON.stringify(answers.shift()));
      }) as typeof fetch,
    });
    expect(await node.payInvoice("lnbcrt10n1abc")).toEqual({
      status: "paid",
      preimage: "02".repeat(32),
      feeSats: 3,
    });
    expect(bodies[0]).toMatchObject({ payment_request: "lnbcrt10n1abc" });
    expect(await node.payInvoice("lnbcrt10n1abc")).toEqual({
      status: "failed",
      reason: "unable to find a path to destination",
    });
    // Paid before (a retried job): not a failure to release, an error to look at.
    await expect(node.payInvoice("lnbcrt10n1abc")).rejects.toThrow(/already paid/);
  });
});
