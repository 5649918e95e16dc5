import { describe, expect, it } from "vitest";
import {
  addressUri,
  createSipStreamParser,
  getHeader,
  getHeaders,
  headerParams,
  parseSipMessage,
  parseSipUri,
  parseVia,
  SipParseError,
  type SipRequest,
  serializeSipMessage,
} from "./sip-message.ts";

const crlf = (lines: string[]) => Buffer.from(lines.join("\r\n"), "utf8");

const INVITE = [
  "INVITE sip:42@127.0.0.1:5060 SIP/2.0",
  "v: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK1;rport, SIP/2.0/UDP 10.0.0.2;branch=z9hG4bK0",
  "Via: SIP/2.0/TCP 10.0.0.3:5070;branch=z9hG4bKx",
  "Max-Forwards: 70",
  'f: "Alice, A." <sip:alice@example.com>;tag=abc',
  "t: <sip:42@127.0.0.1>",
  "i: call-1@example.com",
  "CSeq: 1 INVITE",
  "m: <sip:alice@10.0.0.1:5060>",
  "Subject: a long",
  "\t folded header",
  "c: application/sdp",
  "l: 4",
  "",
  "v=0\r\nextra",
];

describe("SIP messages", () => {
  it("parses compact names, folding, several Via (on one line and on several), and cuts the body at Content-Length", () => {
    const message = parseSipMessage(crlf(INVITE)) as SipRequest;
    expect(message).toMatchObject({ kind: "request", method: "INVITE", uri: "sip:42@127.0.0.1:5060" });
    expect(getHeaders(message, "Via")).toEqual([
      "SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK1;rport",
      "SIP/2.0/UDP 10.0.0.2;branch=z9hG4bK0",
      "SIP/2.0/TCP 10.0.0.3:5070;branch=z9hG4bKx",
    ]);
    expect(getHeader(message, "From")).toBe('"Alice, A." <sip:alice@example.com>;tag=abc');
    expect(getHeader(message, "f")).toBe(getHeader(message, "From"));
    expect(getHeader(message, "Call-ID")).toBe("call-1@example.com");
    expect(getHeader(message, "Subject")).toBe("a long folded header");
    expect(getHeader(message, "Content-Type")).toBe("application/sdp");
    expect(message.body.toString()).toBe("v=0\r");
  });

  it("parses responses and bare-LF messages", () => {
    const response = parseSipMessage(
      Buffer.from(
        "SIP/2.0 180 Ringing\nVia: SIP/2.0/UDP h;branch=z9hG4bK1\nFrom: <sip:a@h>;tag=1\nTo: <sip:b@h>;tag=2\nCall-ID: x\nCSeq: 1 INVITE\nContent-Length: 0\n\n",
      ),
    );
    expect(response).toMatchObject({ kind: "response", status: 180, reason: "Ringing" });
  });

  it.each([
    ["no blank line", "INVITE sip:a@h SIP/2.0\r\nVia: x"],
    ["a bad start line", "INVITE sip:a@h SIP/3.0\r\n\r\n"],
    ["a missing Call-ID", INVITE.filter((l) => !l.startsWith("i:")).join("\r\n")],
    ["a CSeq for another method", INVITE.join("\r\n").replace("1 INVITE", "1 BYE")],
    ["a body shorter than Content-Length", INVITE.join("\r\n").replace("l: 4", "l: 400")],
    ["a bad header line", INVITE.join("\r\n").replace("Max-Forwards: 70", "Max Forwards 70")],
    ["a Request-URI without scheme", INVITE.join("\r\n").replace("sip:42@127.0.0.1:5060", "42@host")],
  ])("refuses %s", (_name, text) => {
    expect(() => parseSipMessage(Buffer.from(text))).toThrow(SipParseError);
  });

  it("serialises with a correct Content-Length and round-trips", () => {
    const message = parseSipMessage(crlf(INVITE)) as SipRequest;
    const text = serializeSipMessage({ ...message, body: Buffer.from("v=0\r\n") });
    expect(text.toString()).toContain("Content-Length: 5\r\n\r\nv=0\r\n");
    expect(text.toString().match(/Content-Length/g)).toHaveLength(1);
    const again = parseSipMessage(text);
    expect(getHeaders(again, "Via")).toHaveLength(3);
    expect(again.body.toString()).toBe("v=0\r\n");
  });

  it("frames a TCP stream by Content-Length, across chunk boundaries and keep-alives", () => {
    const one = serializeSipMessage({
      ...(parseSipMessage(crlf(INVITE)) as SipRequest),
      body: Buffer.from("abc"),
    });
    const stream = Buffer.concat([Buffer.from("\r\n\r\n"), one, one]);
    const parser = createSipStreamParser();
    const got = [
      ...parser.push(stream.subarray(0, 10)),
      ...parser.push(stream.subarray(10, one.length + 7)),
      ...parser.push(stream.subarray(one.length + 7)),
    ];
    expect(got).toHaveLength(2);
    expect(got.map((m) => m.body.toString())).toEqual(["abc", "abc"]);
    const noLength = createSipStreamParser();
    expect(() => noLength.push(Buffer.from("OPTIONS sip:a@h SIP/2.0\r\nVia: SIP/2.0/TCP h\r\n\r\n"))).toThrow(
      SipParseError,
    );
  });

  it("reads URIs, Via and parameters", () => {
    expect(parseSipUri("sip:42@127.0.0.1:5070;transport=tcp")).toEqual({
      scheme: "sip",
      user: "42",
      host: "127.0.0.1",
      port: 5070,
      params: { transport: "tcp" },
    });
    expect(parseSipUri("sips:[::1]")).toMatchObject({ host: "::1", port: undefined, user: undefined });
    expect(parseSipUri("tel:+1555")).toBeNull();
    expect(parseVia("SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK1;rport")).toEqual({
      transport: "UDP",
      host: "10.0.0.1",
      port: 5060,
      params: { branch: "z9hG4bK1", rport: "" },
    });
    expect(addressUri('"A;b" <sip:a@h;lr>;tag=1')).toBe("sip:a@h;lr");
    expect(headerParams('"A;b" <sip:a@h;lr>;tag=1')).toEqual({ tag: "1" });
  });
});
