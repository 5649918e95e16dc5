import { createHash } from "node:crypto";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { bech32 } from "@scure/base";
import { decode as decodeBolt11 } from "light-bolt11-decoder";

/**
 * BOLT11 payment requests: encoding and signing (bech32 words, tagged fields, a recoverable secp256k1
 * signature over the SHA-256 of the human-readable part and the data, as BOLT #11 says) and decoding
 * (light-bolt11-decoder, with the signature checked against the payee's key).
 */

export type LightningNetwork = "bc" | "tb" | "tbs" | "bcrt";

const sha256 = (data: Uint8Array | string) => new Uint8Array(createHash("sha256").update(data).digest());

/** A number as big-endian 5-bit words, as few as it needs (at least one). */
function intWords(value: number): number[] {
  const words: number[] = [];
  let rest = value;
  do {
    words.unshift(rest % 32);
    rest = Math.floor(rest / 32);
  } while (rest > 0);
  return words;
}

function tagged(type: number, data: number[]): number[] {
  if (data.length >= 1024) throw new Error("BOLT11 field too long");
  return [type, data.length >> 5, data.length & 31, ...data];
}

/** 5-bit words to bytes, the last byte padded with zero bits (for the signed preimage). */
function wordsToBytesPadded(words: number[]): Uint8Array {
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const word of words) {
    acc = (acc << 5) | word;
    bits += 5;
    while (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
    acc &= (1 << bits) - 1;
  }
  if (bits > 0) out.push((acc << (8 - bits)) & 0xff);
  return Uint8Array.from(out);
}

const TAGS = { paymentHash: 1, paymentSecret: 16, description: 13, expiry: 6, minFinalCltv: 24, features: 5 };

export type EncodeInput = {
  network: LightningNetwork;
  amountSats: number;
  paymentHash: Uint8Array;
  paymentSecret: Uint8Array;
  description: string;
  expirySeconds: number;
  /** Seconds since the epoch. */
  timestamp: number;
  /** The node's secp256k1 private key (32 bytes). */
  privateKey: Uint8Array;
};

/** A signed BOLT11 payment request. */
export function encodeInvoice(input: EncodeInput): string {
  if (!Number.isSafeInteger(input.amountSats) || input.amountSats <= 0)
    throw new Error("amountSats must be a positive whole number");
  // 1 sat = 10 nano-bitcoin: `n` is exact for every whole number of sats.
  const hrp = `ln${input.network}${input.amountSats * 10}n`;
  const timestamp = intWords(input.timestamp);
  while (timestamp.length < 7) timestamp.unshift(0);
  // Features: var_onion_optin (bit 8) and payment_secret (bit 14), both required.
  const features = intWords(2 ** 8 + 2 ** 14);
  const data = [
    ...timestamp,
    ...tagged(TAGS.paymentHash, bech32.toWords(input.paymentHash)),
    ...tagged(TAGS.paymentSecret, bech32.toWords(input.paymentSecret)),
    ...tagged(TAGS.description, bech32.toWords(new TextEncoder().encode(input.description))),
    ...tagged(TAGS.expiry, intWords(input.expirySeconds)),
    ...tagged(TAGS.minFinalCltv, intWords(80)),
    ...tagged(TAGS.features, features),
  ];
  const signed = sha256(Buffer.concat([Buffer.from(hrp, "utf8"), Buffer.from(wordsToBytesPadded(data))]));
  const signature = secp256k1.Signature.fromBytes(
    secp256k1.sign(signed, input.privateKey, { prehash: false, format: "recovered" }),
    "recovered",
  );
  const compact = signature.toBytes("compact");
  const sigBytes = Uint8Array.from([...compact, signature.recovery ?? 0]);
  return bech32.encode(hrp, [...data, ...bech32.toWords(sigBytes)], false);
}

export type DecodedInvoice = {
  paymentRequest: string;
  network: string;
  amountSats: number | null;
  paymentHash: string;
  description: string | null;
  /** Seconds since the epoch. */
  timestamp: number;
  expiresAt: number;
  /** The payee's public key (hex, compressed), recovered from the signature. */
  payee: string;
};

/** Decodes and checks a BOLT11 payment request; throws with a plain reason when it is not one. */
export function decodeInvoice(paymentRequest: string): DecodedInvoice {
  const text = paymentRequest
    .trim()
    .replace(/^lightning:/i, "")
    .toLowerCase();
  const decoded = decodeBolt11(text);
  const section = <T>(name: string) =>
    decoded.sections.find((s) => s.name === name) as { value?: T; letters?: string } | undefined;
  const hash = section<string>("payment_hash")?.value;
  if (!hash) throw new Error("The invoice has no payment hash.");
  const amountMsat = section<string>("amount")?.value;
  const timestamp = section<number>("timestamp")?.value ?? 0;
  const expiry = decoded.expiry ?? 3600;
  // The signature: recover the payee's key over the signed data (the decoder does not check it).
  const signatureSection = section<string>("signature");
  const words = bech32.decode(text as `${string}1${string}`, false).words;
  const signedWords = words.slice(0, words.length - 104);
  const hrp = text.slice(0, text.lastIndexOf("1"));
  const digest = sha256(
    Buffer.concat([Buffer.from(hrp, "utf8"), Buffer.from(wordsToBytesPadded(signedWords))]),
  );
  const sigHex = signatureSection?.value ?? "";
  const sigBytes = Buffer.from(sigHex, "hex");
  if (sigBytes.length !== 65) throw new Error("The invoice's signature is malformed.");
  const recovery = sigBytes[64] ?? 0;
  const signature = secp256k1.Signature.fromBytes(sigBytes.subarray(0, 64), "compact").addRecoveryBit(
    recovery,
  );
  const payee = signature.recoverPublicKey(digest).toHex(true);
  if (!secp256k1.verify(sigBytes.subarray(0, 64), digest, Buffer.from(payee, "hex"), { prehash: false }))
    throw new Error("The invoice's signature does not verify.");
  const network = hrp.match(/^ln([a-z]+?)(\d|$)/)?.[1] ?? "";
  return {
    paymentRequest: text,
    network,
    amountSats: amountMsat ? Math.floor(Number(amountMsat) / 1000) : null,
    paymentHash: hash,
    description: section<string>("description")?.value ?? null,
    timestamp,
    expiresAt: timestamp + expiry,
    payee,
  };
}

/** The payment hash a preimage (hex, 32 bytes) answers: SHA-256. */
export function paymentHashOf(preimageHex: string): string {
  return createHash("sha256").update(Buffer.from(preimageHex, "hex")).digest("hex");
}
