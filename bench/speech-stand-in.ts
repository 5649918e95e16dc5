// A local stand-in for an OpenAI-compatible speech API (bench use only), in a process of its own so that
// only the server's media plane and agent turn are measured: POST /v1/audio/transcriptions answers after a
// realistic 150 ms with the text of argv[2]; POST /v1/audio/speech streams 24 kHz PCM16 (a voiced tone,
// 65 ms a character of the input) at real time, in 100 ms chunks. Prints its base URL on stdout.
import http from "node:http";
import type { AddressInfo } from "node:net";

const TRANSCRIPT = process.argv[2] ?? "When are you open?";
const RATE = 24_000;
const CHUNK_MS = 100;

function tone(samples: number, offset: number): Buffer {
  const out = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++)
    out.writeInt16LE(Math.round(6000 * Math.sin((2 * Math.PI * 220 * (offset + i)) / RATE)), i * 2);
  return out;
}

const server = http.createServer(async (request, response) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  if (request.url === "/v1/audio/transcriptions") {
    setTimeout(() => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ text: TRANSCRIPT }));
    }, 150);
    return;
  }
  if (request.url === "/v1/audio/speech") {
    const input = String((JSON.parse(body.toString() || "{}") as { input?: string }).input ?? "");
    const total = Math.max(1, Math.round((input.length * 65 * RATE) / 1000));
    response.writeHead(200, { "content-type": "application/octet-stream" });
    const perChunk = (RATE * CHUNK_MS) / 1000;
    let sent = 0;
    const started = performance.now();
    const next = () => {
      if (response.destroyed) return;
      const count = Math.min(perChunk, total - sent);
      response.write(tone(count, sent));
      sent += count;
      if (sent >= total) return void response.end();
      const due = started + (sent / RATE) * 1000;
      setTimeout(next, Math.max(0, due - performance.now()));
    };
    next();
    return;
  }
  response.writeHead(404).end();
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1\n`);
});
