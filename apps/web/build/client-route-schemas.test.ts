import { describe, expect, it } from "vitest";
import { z } from "zod";
import { clientRouteSchemas } from "./client-route-schemas.ts";
import { lazySchema } from "./lazy-schema.js";

const ROUTES_ID = "/repo/packages/api/src/routes/things.ts";

// What the TypeScript step hands the plugin: a route module of the API package.
const ROUTES = `import { z } from "zod";
import { defineRoute } from "../route.ts";
export const THING_LIMIT = 5;
export const thingSchema = z.object({ id: z.number().int(), name: z.string() });
const nameSchema = thingSchema.shape.name;
export const thingIds = [1, 2].map((id) => id * 2);
export const saveThing = defineRoute({
  id: "saveThing",
  method: "POST",
  path: "/api/v1/things/{id}",
  summary: "Saves a thing.",
  tag: "Things",
  auth: "token",
  params: z.object({ id: z.string() }),
  body: z.object({ name: nameSchema.min(1, { message: "Enter a name." }) }),
  response: z.object({ success: z.literal(true), thing: thingSchema }),
});
`;

type Transform = (code: string, id: string) => { code: string } | null;
const transform = clientRouteSchemas().transform as unknown as Transform;

describe("clientRouteSchemas", () => {
  it("leaves out what only the server reads and builds schemas on first use", () => {
    const out = transform(ROUTES, ROUTES_ID)?.code ?? "";
    expect(out).not.toMatch(/summary|tag:|params:|response:/);
    expect(out).toContain('id: "saveThing"');
    expect(out).toContain('path: "/api/v1/things/{id}"');
    expect(out).toContain("get body()");
    expect(out).toContain(
      "/* @__PURE__ */ __lazySchema(() => (z.object({ id: z.number().int(), name: z.string() })))",
    );
    expect(out).toContain("/* @__PURE__ */ __lazySchema(() => (thingSchema.shape.name))");
    // A value that is not a schema is built at once, marked pure.
    expect(out).toContain("/* @__PURE__ */ (() => ([1, 2].map((id) => id * 2)))()");
    expect(out).toContain("export const THING_LIMIT = 5;");
  });

  it("leaves other modules alone", () => {
    expect(transform(ROUTES, "/repo/apps/web/src/features/things/api.ts")).toBeNull();
  });
});

describe("lazySchema", () => {
  it("builds the schema on first use and stands for it in parsing, shapes and checks", () => {
    let built = 0;
    const name = lazySchema(() => {
      built++;
      return z.string().trim().min(1, { message: "Enter a name." });
    });
    expect(built).toBe(0);
    const form = lazySchema(() => z.object({ name, count: z.number().int().optional() }));
    expect(built).toBe(0);
    expect(form.safeParse({ name: "  Ada " })).toEqual({ success: true, data: { name: "Ada" } });
    expect(built).toBe(1);
    const refused = form.safeParse({ name: " " });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe("Enter a name.");
    expect(form instanceof z.ZodObject).toBe(true);
    expect(Object.keys(form.shape)).toEqual(["name", "count"]);
    expect(form.extend({ more: z.boolean() }).parse({ name: "x", more: true })).toEqual({
      name: "x",
      more: true,
    });
    expect(built).toBe(1);
  });
});
