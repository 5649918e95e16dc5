// Security issue #14 §4 "No 500 on bad input": each cause the schema fuzz found answers 400 with a message
// that names the field, and nothing is stored. test/route-fuzz.test.ts walks every route; these pin the
// causes one by one.
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller, fakePng, multipartFile } from "./api-call.ts";
import { buildHierarchy } from "./fixtures.ts";
import { buildTestApp } from "./helpers.ts";

let app: FastifyInstance;
let world: Awaited<ReturnType<typeof buildHierarchy>>;
let call: ReturnType<typeof apiCaller>;

beforeAll(async () => {
  app = await buildTestApp();
  world = await buildHierarchy(app);
  call = apiCaller(app);
});
afterAll(async () => {
  await app.close();
});

const ID_RANGE = "must be a whole number from 1 to 2147483647";
const NUL = "must not contain the NUL character (U+0000)";
const SURROGATE = "must be valid Unicode text (it contains an unpaired surrogate)";

/** A raw JSON body (lone surrogates and NUL as escapes, as a client would send them). */
const rawJson = (payload: string) => ({ headers: { "content-type": "application/json" }, payload });

describe("ids above PostgreSQL's integer", () => {
  it("targetAccountId of 2^31 answers 400, the largest int4 is an ordinary unknown account", async () => {
    const token = world.members.superAdmin.token;
    const over = await call("GET", "/api/v1/account", { token, query: { targetAccountId: "2147483648" } });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ success: false, message: `targetAccountId: ${ID_RANGE}` });
    const huge = await call("GET", "/api/v1/account", {
      token,
      query: { targetAccountId: "99999999999999999999" },
    });
    expect(huge.status).toBe(400);
    const max = await call("GET", "/api/v1/account", { token, query: { targetAccountId: "2147483647" } });
    expect(max.status).toBe(404);
  });

  it("ids in path, query and body above 2^31 - 1 answer 400 naming the field", async () => {
    const token = world.members.o1Owner.token;
    const path = await call("GET", "/api/v2/contact/2147483648", { token });
    expect(path.status).toBe(400);
    expect(path.body.message).toBe(`id: ${ID_RANGE}`);
    const query = await call("GET", "/api/v2/campaigns", { token, query: { agentId: 4294967296 } });
    expect(query.status).toBe(400);
    expect(query.body.message).toBe(`agentId: ${ID_RANGE}`);
    const body = await call("DELETE", "/api/v2/contact", { token, body: { id: 2 ** 53 } });
    expect(body.status).toBe(400);
    expect(body.body.message).toBe(`id: ${ID_RANGE}`);
    const revision = await call("POST", "/api/v2/agent/publish", {
      token,
      targetAccountId: world.accounts.A1.id,
      body: { revision: 2147483648 },
    });
    expect(revision.status).toBe(400);
    expect(revision.body.message).toBe("revision: must be at most 2147483647");
  });

  it("a conversation id of digits beyond int4 is a room that does not exist, not an account", async () => {
    const token = world.members.o1Owner.token;
    const res = await call("GET", "/api/v1/conversations/4294967296", { token });
    expect(res.status).toBe(404);
    const account = await call("GET", `/api/v1/conversations/${world.accounts.A1.id}`, { token });
    expect(account.status).toBe(200);
    expect(account.body.rooms).toEqual([]);
  });

  it("a page number above 2^31 - 1 answers 400; the largest one answers an empty page", async () => {
    const token = world.members.o1Owner.token;
    const over = await call("GET", "/api/v1/conversations", { token, query: { page: "1980252406917237" } });
    expect(over.status).toBe(400);
    expect(over.body.message).toBe("page: must be a whole number from 0 to 2147483647");
    const last = await call("GET", "/api/v1/conversations", {
      token,
      query: { page: 2147483647, pageSize: 100 },
    });
    expect(last.status).toBe(200);
    expect(last.body.rooms).toEqual([]);
  });
});

describe("NUL and lone surrogates in text", () => {
  it("a name with NUL or a lone surrogate answers 400 and the name stays as it was", async () => {
    const token = world.members.o1Owner.token;
    const before = (await call("GET", "/api/v1/account", { token })).body.account.displayName;
    const nul = await app.inject({
      method: "POST",
      url: `/api/v1/account?token=${token}`,
      ...rawJson('{"name":"a\\u0000b"}'),
    });
    expect(nul.statusCode).toBe(400);
    expect(nul.json()).toEqual({ success: false, message: `name: ${NUL}` });
    const lone = await app.inject({
      method: "POST",
      url: `/api/v1/account?token=${token}`,
      ...rawJson('{"name":"a\\ud800b"}'),
    });
    expect(lone.statusCode).toBe(400);
    expect(lone.json()).toEqual({ success: false, message: `name: ${SURROGATE}` });
    expect((await call("GET", "/api/v1/account", { token })).body.account.displayName).toBe(before);
  });

  it("free-form JSON stored as jsonb refuses lone surrogates and NUL in values and in keys", async () => {
    const token = world.members.o1Owner.token;
    const url = `/api/v1/accountSetting?token=${token}`;
    const value = await app.inject({ method: "POST", url, ...rawJson('{"settings":{"note":"x\\udc00"}}') });
    expect(value.statusCode).toBe(400);
    expect(value.json().message).toBe(`settings.note: ${SURROGATE}`);
    const key = await app.inject({ method: "POST", url, ...rawJson('{"settings":{"n\\u0000te":"x"}}') });
    expect(key.statusCode).toBe(400);
    expect(key.json().message).toBe("settings: must not have a key that contains the NUL character (U+0000)");
    const fine = await app.inject({ method: "POST", url, ...rawJson('{"settings":{"note":"🙂 ok"}}') });
    expect(fine.statusCode).toBe(200);
    expect(fine.json().settings.note).toBe("🙂 ok");
  });

  it("NUL in a path segment answers 400, with a token and without", async () => {
    const token = world.members.o1Owner.token;
    const room = await call("GET", "/api/v1/conversations/%00", { token });
    expect(room.status).toBe(400);
    expect(room.body.message).toBe(`roomId: ${NUL}`);
    const profile = await call("GET", "/api/v1/account/%00");
    expect(profile.status).toBe(400);
    expect(profile.body.message).toBe(`username: ${NUL}`);
    const messages = await call("GET", "/api/v1/messages/a%00b");
    expect(messages.status).toBe(400);
    expect(messages.body.message).toBe(`username: ${NUL}`);
  });

  it("nesting deeper than JSON.stringify can take answers 400", async () => {
    const token = world.members.o1Owner.token;
    const deep = `${"[".repeat(100_000)}1${"]".repeat(100_000)}`;
    const res = await app.inject({
      method: "POST",
      url: `/api/v1/accountSetting?token=${token}`,
      ...rawJson(`{"settings":{"deep":${deep}}}`),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^settings\.deep(\.0)+: is nested too deeply \(at most 64 levels\)$/);
  });
});

describe("dates out of range", () => {
  it("a creation date beyond the year 9999 answers 400", async () => {
    const token = world.members.superAdmin.token;
    const res = await call("GET", "/api/v2/searchOrganizations", {
      token,
      query: { createdStart: "99999999999999999999" },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("createdStart: Enter a date between the years 1 and 9999.");
    const far = await call("GET", "/api/v2/searchOrganizations", {
      token,
      query: { createdEnd: "+275760-09-13" },
    });
    expect(far.status).toBe(400);
    const ok = await call("GET", "/api/v2/searchOrganizations", {
      token,
      query: { createdStart: "2020-01-01" },
    });
    expect(ok.status).toBe(200);
  });

  it("a schedule window beyond the year 9999 answers 400", async () => {
    const res = await call("GET", "/api/v1/schedule", {
      token: world.members.o1Owner.token,
      query: { start: 0, end: 8_640_000_000_000_001 },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("end: Enter a date between the years 1 and 9999.");
  });
});

describe("malformed multipart", () => {
  const MALFORMED = { success: false, message: "The upload is not valid multipart/form-data." };
  const upload = (payload: string | Buffer, contentType: string) =>
    app.inject({
      method: "POST",
      url: `/api/v1/profile/dp?token=${world.members.o1Owner.token}`,
      headers: { "content-type": contentType },
      payload,
    });

  it("a profile picture upload that is not readable multipart answers 400", async () => {
    for (const [payload, contentType] of [
      ["garbage", "multipart/form-data"],
      ["garbage", "multipart/form-data; boundary=xx"],
      [
        '--xx\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\nabc',
        "multipart/form-data; boundary=xx",
      ],
      ['--xx\r\nContent-Disposition: form-data; name="image"', "multipart/form-data; boundary=xx"],
    ] as const) {
      const res = await upload(payload, contentType);
      expect(res.statusCode, `${contentType} ${payload}`).toBe(400);
      expect(res.json()).toEqual(MALFORMED);
    }
  });

  it("a chat picture upload that is not readable multipart answers 400", async () => {
    const res = await app.inject({
      method: "POST",
      url: `/api/v1/chat/media?token=${world.members.o1Owner.token}`,
      headers: { "content-type": "multipart/form-data; boundary=xx" },
      payload: "garbage",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(MALFORMED);
  });

  it("a well-formed upload still works", async () => {
    const form = multipartFile(fakePng(200));
    const res = await upload(form.payload, form.headers["content-type"]);
    expect(res.statusCode).toBe(200);
  });
});

describe("request bodies of the wrong kind", () => {
  // Fastify's own checks (prototype poisoning, content types) keep these at 4xx; pinned here so that a
  // change of parser settings cannot turn them into 500s unnoticed.
  it("__proto__ keys, wrong content types and non-JSON answer 4xx", async () => {
    const url = `/api/v1/account?token=${world.members.o1Owner.token}`;
    const proto = await app.inject({ method: "POST", url, ...rawJson('{"__proto__":{"x":1},"name":"x"}') });
    expect(proto.statusCode).toBe(400);
    const ctor = await app.inject({
      method: "POST",
      url,
      ...rawJson('{"constructor":{"prototype":{"x":1}}}'),
    });
    expect(ctor.statusCode).toBe(400);
    for (const type of ["text/plain", "application/xml", "application/octet-stream"]) {
      const res = await app.inject({
        method: "POST",
        url,
        headers: { "content-type": type },
        payload: "name=x",
      });
      expect(res.statusCode, type).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, type).toBeLessThan(500);
    }
  });
});
