import { inflateSync } from "node:zlib";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { within } from "../../../../../vitest.time-limits.ts";
import { buildHierarchy, prepareSmsAgent } from "../../../test/fixtures.ts";
import { buildTestApp } from "../../../test/helpers.ts";
import { CARD_HEIGHT, CARD_WIDTH, cardText } from "./card-png.ts";

// Issue 32 item 18: link previews of public pages — a description that names the agent once, a PNG card
// the big networks render, 404 for unknown names, and the page's own title.

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;

beforeAll(async () => {
  app = await buildTestApp();
  world = await buildHierarchy(app);
  await prepareSmsAgent(app, world, {
    number: "+15035550142",
    instructions: "You are the receptionist of Bluebird Dental.",
    agent: { details: { agentName: "Front Desk" } },
  });
}, within(180_000));
afterAll(async () => {
  await app.close();
});

const meta = (html: string, key: string) =>
  new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(html)?.[1];

/** The RGB pixels of an 8-bit truecolour PNG whose rows all use filter 0 (as ours do). */
function decode(png: Buffer): (x: number, y: number) => [number, number, number] {
  let offset = 8;
  const data: Buffer[] = [];
  let width = 0;
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString("latin1", offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") width = body.readUInt32BE(0);
    if (type === "IDAT") data.push(body);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  return (x, y) => {
    const at = y * (width * 3 + 1) + 1 + x * 3;
    return [raw[at] as number, raw[at + 1] as number, raw[at + 2] as number];
  };
}

describe("social previews of a public page", () => {
  it("names an agent once in the description, and points og:image at a PNG card", async () => {
    const agent = world.accounts.A1;
    const res = await app.inject({ method: "GET", url: `/${agent.username}` });
    expect(res.statusCode).toBe(200);
    const description = meta(res.body, "description");
    expect(description).toBe("Call, text or chat with Front Desk.");
    expect(meta(res.body, "og:description")).toBe(description);
    expect(res.body).not.toContain("Front Desk of Front Desk");
    expect(res.body).toContain("<title>Front Desk</title>");
    const image = meta(res.body, "og:image") ?? "";
    expect(image).toMatch(new RegExp(`/u/${agent.username}/card\\.png$`));
    expect(meta(res.body, "og:image:type")).toBe("image/png");
    expect(meta(res.body, "og:image:width")).toBe(String(CARD_WIDTH));
    expect(meta(res.body, "twitter:card")).toBe("summary_large_image");
  });

  it("serves the card as a 1200×630 PNG: the brand colour, a white disc, the name", async () => {
    const res = await app.inject({ method: "GET", url: `/u/${world.accounts.A1.username}/card.png` });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("image/png");
    const png = res.rawPayload;
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.readUInt32BE(16)).toBe(CARD_WIDTH);
    expect(png.readUInt32BE(20)).toBe(CARD_HEIGHT);
    const pixel = decode(png);
    expect(pixel(5, 5)).toEqual([0x18, 0x64, 0xab]);
    // The disc, above the initial.
    expect(pixel(600, 110)).toEqual([0xff, 0xff, 0xff]);
    // The name's row has white font pixels; the card is small enough for a preview.
    let white = 0;
    for (let x = 80; x < 1120; x++) if (pixel(x, 480)[0] === 0xff) white++;
    expect(white).toBeGreaterThan(50);
    expect(png.length).toBeLessThan(100_000);
    expect(cardText("Café Ünïcode & Co.")).toBe("CAFE UNICODE & CO.");
  });

  it("answers 404 with a page of its own for an unknown name, and leaves the app's paths alone", async () => {
    for (const path of ["/nobody-here-at-all", "/u/nobody-here-at-all", "/u/nobody-here-at-all/card.png"]) {
      const res = await app.inject({ method: "GET", url: path });
      expect(res.statusCode, path).toBe(404);
      if (!path.endsWith(".png")) expect(res.body).toContain("<title>Page not found</title>");
    }
    for (const path of ["/app", "/signin", "/pay"])
      expect((await app.inject({ method: "GET", url: path })).statusCode, path).not.toBe(404);
  });
});
