// A SIP caller written independently of the project's SIP code and test user agent (bench use only): its own
// hand-written INVITE/ACK/BYE over UDP, L16/16000 RTP sent from its own 20 ms clock, and every received RTP
// packet timestamped on arrival. It runs in a process of its own, so the server's event loop cannot delay
// its clock or its timestamps. Input (argv[2], JSON): { port, user, calls, questions: [file of 16 kHz PCM16
// little-endian, ...] }. Output (stdout, one JSON line): per call the greeting delay, turn latencies, receive
// jitter samples summary, packets received and lost.
import { randomBytes } from "node:crypto";
import dgram from "node:dgram";
import { readFileSync } from "node:fs";

type Input = { port: number; user: string; calls: number; questions: string[]; staggerMs?: number };
const input = JSON.parse(process.argv[2] ?? "{}") as Input;
const questions = input.questions.map((file) => {
  const bytes = readFileSync(file);
  return new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2);
});
const FRAME = 320; // samples in 20 ms at 16 kHz
const PT = 96;
const VOICED_RMS = 300;
const token = () => randomBytes(6).toString("hex");

const sip = dgram.createSocket("udp4");
await new Promise<void>((resolve) => sip.bind(0, "127.0.0.1", resolve));
const sipPort = sip.address().port;
const dialogs = new Map<string, (status: number, message: string) => void>();

sip.on("message", (data) => {
  const text = data.toString("latin1");
  const callId = /^Call-ID:\s*(.+)$/im.exec(text)?.[1]?.trim() ?? "";
  if (text.startsWith("SIP/2.0 ")) {
    dialogs.get(callId)?.(Number(text.slice(8, 11)), text);
    return;
  }
  // A request from the server (BYE, re-INVITE, OPTIONS): 200 OK with its own headers echoed.
  const keep = text
    .split("\r\n")
    .filter((line) => /^(Via|From|To|Call-ID|CSeq):/i.test(line))
    .join("\r\n");
  if (!text.startsWith("ACK "))
    sip.send(`SIP/2.0 200 OK\r\n${keep}\r\nContent-Length: 0\r\n\r\n`, input.port, "127.0.0.1");
});

function request(lines: string[], body = "") {
  sip.send(
    `${lines.join("\r\n")}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    input.port,
    "127.0.0.1",
  );
}

const rms = (samples: Int16Array) => {
  let sum = 0;
  for (const s of samples) sum += s * s;
  return Math.sqrt(sum / samples.length);
};

type Received = { at: number; seq: number; ts: number; voiced: boolean };

async function call(index: number) {
  const rtp = dgram.createSocket("udp4");
  await new Promise<void>((resolve) => rtp.bind(0, "127.0.0.1", resolve));
  const rtpPort = rtp.address().port;
  const callId = `${token()}@independent-caller`;
  const fromTag = token();
  const uri = `sip:${input.user}@127.0.0.1:${input.port}`;
  const base = (method: string, cseq: number, toTag = "") => [
    `${method} ${uri} SIP/2.0`,
    `Via: SIP/2.0/UDP 127.0.0.1:${sipPort};branch=z9hG4bK${token()};rport`,
    "Max-Forwards: 70",
    `From: <sip:caller${index}@127.0.0.1>;tag=${fromTag}`,
    `To: <${uri}>${toTag ? `;tag=${toTag}` : ""}`,
    `Call-ID: ${callId}`,
    `CSeq: ${cseq} ${method}`,
    `Contact: <sip:caller${index}@127.0.0.1:${sipPort}>`,
  ];
  const sdp = [
    "v=0",
    `o=caller 1 1 IN IP4 127.0.0.1`,
    "s=-",
    "c=IN IP4 127.0.0.1",
    "t=0 0",
    `m=audio ${rtpPort} RTP/AVP ${PT} 101`,
    `a=rtpmap:${PT} L16/16000`,
    "a=rtpmap:101 telephone-event/8000",
    "a=ptime:20",
    "a=sendrecv",
    "",
  ].join("\r\n");
  const answered = new Promise<{ toTag: string; port: number } | null>((resolve) => {
    const timer = setTimeout(() => resolve(null), 15_000);
    dialogs.set(callId, (status, message) => {
      if (status < 200) return;
      clearTimeout(timer);
      if (status >= 300) return resolve(null);
      const toTag = /^To:.*;tag=([^;\s]+)/im.exec(message)?.[1] ?? "";
      const port = Number(/^m=audio (\d+)/m.exec(message)?.[1]);
      resolve({ toTag, port });
    });
  });
  request([...base("INVITE", 1), "Content-Type: application/sdp"], sdp);
  const dialog = await answered;
  const answeredAt = performance.now();
  if (!dialog) {
    rtp.close();
    return null;
  }
  request(base("ACK", 1, dialog.toTag));

  const received: Received[] = [];
  rtp.on("message", (data) => {
    const at = performance.now();
    if (data.length < 12 || ((data[1] as number) & 0x7f) !== PT) return;
    const samples = new Int16Array((data.length - 12) >> 1);
    for (let i = 0; i < samples.length; i++) samples[i] = data.readInt16BE(12 + i * 2);
    received.push({
      at,
      seq: data.readUInt16BE(2),
      ts: data.readUInt32BE(4),
      voiced: rms(samples) > VOICED_RMS,
    });
  });

  // Our own sending clock: silence, or the question being asked.
  let speaking: Int16Array | null = null;
  let speakingAt = 0;
  let lastVoicedSentAt = 0;
  let seq = Math.floor(Math.random() * 65_536);
  let ts = Math.floor(Math.random() * 2 ** 31);
  const start = performance.now();
  let tick = 0;
  let sending = true;
  const ssrc = Math.floor(Math.random() * 2 ** 31);
  const sendFrame = () => {
    if (!sending) return;
    tick++;
    let frame = new Int16Array(FRAME);
    if (speaking) {
      frame = speaking.slice(speakingAt, speakingAt + FRAME);
      if (frame.length < FRAME) {
        const padded = new Int16Array(FRAME);
        padded.set(frame);
        frame = padded;
      }
      speakingAt += FRAME;
      if (rms(frame) > VOICED_RMS) lastVoicedSentAt = performance.now();
      if (speakingAt >= speaking.length) speaking = null;
    }
    const packet = Buffer.alloc(12 + FRAME * 2);
    packet[0] = 0x80;
    packet[1] = PT;
    packet.writeUInt16BE(seq, 2);
    packet.writeUInt32BE(ts >>> 0, 4);
    packet.writeUInt32BE(ssrc, 8);
    for (let i = 0; i < FRAME; i++) packet.writeInt16BE(frame[i] as number, 12 + i * 2);
    seq = (seq + 1) & 0xffff;
    ts = (ts + FRAME) >>> 0;
    rtp.send(packet, dialog.port, "127.0.0.1");
    setTimeout(sendFrame, Math.max(0, start + (tick + 1) * 20 - performance.now()));
  };
  sendFrame();

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** Waits for voiced audio after `from` followed by `quietMs` without any; false after 30 s. */
  const agentDone = async (from: number, quietMs: number) => {
    const end = performance.now() + 30_000;
    for (;;) {
      const last = received.findLast((r) => r.at > from && r.voiced);
      if (last && performance.now() - last.at > quietMs) return true;
      if (performance.now() > end) return false;
      await sleep(40);
    }
  };
  const latencies: number[] = [];
  let greetingMs: number | null = null;
  if (await agentDone(answeredAt, 800)) {
    greetingMs = (received.find((r) => r.voiced)?.at ?? answeredAt) - answeredAt;
    for (const question of questions) {
      speaking = question;
      speakingAt = 0;
      while (speaking) await sleep(20);
      const endedAt = lastVoicedSentAt;
      if (!(await agentDone(endedAt, 800))) continue;
      const answer = received.find((r) => r.at > endedAt && r.voiced);
      if (answer) latencies.push(answer.at - endedAt);
    }
  }
  sending = false;
  request(base("BYE", 2, dialog.toTag));
  await sleep(200);
  rtp.close();
  dialogs.delete(callId);

  // Receive jitter: how far each packet's arrival strays from its RTP timestamp's place (RFC 3550 D).
  const jitter: number[] = [];
  let lost = 0;
  let maxGap = 0;
  for (let i = 1; i < received.length; i++) {
    const a = received[i - 1] as Received;
    const b = received[i] as Received;
    const step = (b.seq - a.seq) & 0xffff;
    if (step > 1 && step < 1000) lost += step - 1;
    const tsStep = ((b.ts - a.ts) >>> 0) / 16;
    jitter.push(Math.abs(b.at - a.at - tsStep));
    maxGap = Math.max(maxGap, b.at - a.at);
  }
  return { greetingMs, latencies, jitter, lost, received: received.length, maxGap };
}

const results = await Promise.all(
  Array.from({ length: input.calls }, async (_, i) => {
    await new Promise((resolve) => setTimeout(resolve, i * (input.staggerMs ?? 50)));
    return call(i);
  }),
);
sip.close();
const ok = results.filter((r) => r !== null);
const jitter = ok.flatMap((r) => r.jitter).sort((a, b) => a - b);
const q = (values: number[], p: number) =>
  values[Math.min(values.length - 1, Math.floor(p * values.length))] ?? Number.NaN;
const latencies = ok.flatMap((r) => r.latencies).sort((a, b) => a - b);
const greetings = ok.map((r) => r.greetingMs ?? Number.NaN).sort((a, b) => a - b);
process.stdout.write(
  `${JSON.stringify({
    calls: input.calls,
    connected: ok.length,
    asked: ok.length * questions.length,
    answered: latencies.length,
    turnP50: q(latencies, 0.5),
    turnP95: q(latencies, 0.95),
    greetingP95: q(greetings, 0.95),
    jitterP50: q(jitter, 0.5),
    jitterP99: q(jitter, 0.99),
    jitterMax: jitter.at(-1) ?? Number.NaN,
    maxGap: Math.max(0, ...ok.map((r) => r.maxGap)),
    lost: ok.reduce((n, r) => n + r.lost, 0),
    received: ok.reduce((n, r) => n + r.received, 0),
  })}\n`,
);
