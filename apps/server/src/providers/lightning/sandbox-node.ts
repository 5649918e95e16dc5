import { createHmac, randomBytes } from "node:crypto";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { desc, eq } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { sandboxLightningInvoices } from "../../db/schema/index.ts";
import { decodeInvoice, encodeInvoice, paymentHashOf } from "./bolt11.ts";
import type { LightningNode } from "./lightning-node.ts";

export const SANDBOX_WALLET_MESSAGES = {
  notOurs: "The sandbox wallet pays only invoices of this server's sandbox lightning node.",
  invalid: "This is not a lightning invoice (BOLT11).",
  expired: "This invoice has expired.",
  alreadyPaid: "This invoice is already paid.",
  ownInvoice: "A node cannot pay its own invoice.",
  noRoute:
    "No route to the invoice's node: the sandbox network has only this server's node and the sandbox wallet.",
} as const;

/** An invoice the sandbox wallet made to receive a payment (a withdrawal), and whether it was paid. */
export type SandboxReceived = {
  paymentRequest: string;
  paymentHash: string;
  amountSats: number;
  settledAt: Date | null;
  createdAt: Date;
};

export type SandboxPayment =
  | { ok: true; preimage: string; paymentHash: string; amountSats: number; alreadyPaid: boolean }
  | { ok: false; message: string };

export type SandboxLightningNode = LightningNode & {
  name: "sandbox";
  /** The node's public key (hex, compressed): the payee of its invoices. */
  publicKey: string;
  /** The sandbox wallet pays an invoice of this node: it is settled and the payer learns the preimage. */
  pay(paymentRequest: string, now?: Date): Promise<SandboxPayment>;
  /** The sandbox wallet (the user's side, another node of the sandbox network): an invoice to receive. */
  receive(amountSats: number, description: string): Promise<SandboxReceived>;
  /** The sandbox wallet's invoices, newest first, and whether each was paid (what it received). */
  received(limit?: number): Promise<SandboxReceived[]>;
};

/**
 * The offline sandbox lightning node (regtest, `lnbcrt`): its key is derived from the server's secret, it
 * signs real BOLT11 invoices and keeps their preimages (sandbox_lightning_invoices), and its wallet pays them
 * — as a payer's wallet on the network would — revealing the preimage to the payer.
 */
export function sandboxLightningNode(db: Database, secretKey: string): SandboxLightningNode {
  const keyOf = (label: string) => {
    const privateKey = new Uint8Array(createHmac("sha256", secretKey).update(label).digest());
    return { privateKey, publicKey: Buffer.from(secp256k1.getPublicKey(privateKey, true)).toString("hex") };
  };
  // The platform's node, and the sandbox wallet: the two nodes of the sandbox network.
  const node = keyOf("sandbox-lightning-node");
  const wallet = keyOf("sandbox-lightning-wallet");
  const { publicKey } = node;

  async function issue(
    key: Uint8Array,
    input: { amountSats: number; description: string; expirySeconds: number },
  ) {
    const preimage = randomBytes(32).toString("hex");
    const paymentHash = paymentHashOf(preimage);
    const timestamp = Math.floor(Date.now() / 1000);
    const paymentRequest = encodeInvoice({
      network: "bcrt",
      amountSats: input.amountSats,
      paymentHash: Buffer.from(paymentHash, "hex"),
      paymentSecret: randomBytes(32),
      description: input.description,
      expirySeconds: input.expirySeconds,
      timestamp,
      privateKey: key,
    });
    const [row] = await db
      .insert(sandboxLightningInvoices)
      .values({ paymentHash, preimage, paymentRequest, amountSats: input.amountSats })
      .returning();
    if (!row) throw new Error("sandbox invoice not kept");
    return { row, expiresAt: new Date((timestamp + input.expirySeconds) * 1000) };
  }

  /** Settles an invoice of `payee` (once) and reveals its preimage. */
  async function settle(paymentRequest: string, payee: string, now: Date): Promise<SandboxPayment> {
    let decoded: ReturnType<typeof decodeInvoice>;
    try {
      decoded = decodeInvoice(paymentRequest);
    } catch {
      return { ok: false, message: SANDBOX_WALLET_MESSAGES.invalid };
    }
    if (decoded.payee !== payee) return { ok: false, message: SANDBOX_WALLET_MESSAGES.notOurs };
    const [row] = await db
      .select()
      .from(sandboxLightningInvoices)
      .where(eq(sandboxLightningInvoices.paymentHash, decoded.paymentHash))
      .limit(1);
    if (!row) return { ok: false, message: SANDBOX_WALLET_MESSAGES.notOurs };
    const paid = { preimage: row.preimage, paymentHash: row.paymentHash, amountSats: row.amountSats };
    if (row.settledAt) return { ok: true, ...paid, alreadyPaid: true };
    if (decoded.expiresAt * 1000 < now.getTime())
      return { ok: false, message: SANDBOX_WALLET_MESSAGES.expired };
    await db
      .update(sandboxLightningInvoices)
      .set({ settledAt: now })
      .where(eq(sandboxLightningInvoices.paymentHash, row.paymentHash));
    return { ok: true, ...paid, alreadyPaid: false };
  }

  return {
    name: "sandbox",
    publicKey,
    async createInvoice(input) {
      const { row, expiresAt } = await issue(node.privateKey, input);
      return { paymentRequest: row.paymentRequest, paymentHash: row.paymentHash, expiresAt };
    },
    async payInvoice(paymentRequest) {
      let payee: string;
      try {
        payee = decodeInvoice(paymentRequest).payee;
      } catch {
        return { status: "failed", reason: SANDBOX_WALLET_MESSAGES.invalid };
      }
      if (payee === node.publicKey) return { status: "failed", reason: SANDBOX_WALLET_MESSAGES.ownInvoice };
      if (payee !== wallet.publicKey) return { status: "failed", reason: SANDBOX_WALLET_MESSAGES.noRoute };
      const result = await settle(paymentRequest, wallet.publicKey, new Date());
      return result.ok
        ? { status: "paid", preimage: result.preimage, feeSats: 0 }
        : { status: "failed", reason: result.message };
    },
    async receive(amountSats, description) {
      const { row } = await issue(wallet.privateKey, { amountSats, description, expirySeconds: 3600 });
      return row;
    },
    async received(limit = 20) {
      // Both nodes keep their invoices in one table: the wallet's are those it signed.
      const rows = await db
        .select()
        .from(sandboxLightningInvoices)
        .orderBy(desc(sandboxLightningInvoices.createdAt))
        .limit(500);
      return rows
        .filter((row) => {
          try {
            return decodeInvoice(row.paymentRequest).payee === wallet.publicKey;
          } catch {
            return false;
          }
        })
        .slice(0, limit);
    },
    pay: (paymentRequest, now = new Date()) => settle(paymentRequest, node.publicKey, now),
  };
}
