import { readFileSync } from "node:fs";
import path from "node:path";
import { parseAst } from "rolldown/parseAst";
import type { Plugin } from "vite";

const API_FILE = /[\\/]packages[\\/]api[\\/]src[\\/]([\w-]+[\\/])?[\w-]+\.ts$/;
const ROUTE_FILE = /[\\/]packages[\\/]api[\\/]src[\\/]routes[\\/][\w-]+\.ts$/;
/** Read only by the server (validation, OpenAPI docs) and by types: the browser never reads them. */
const SERVER_ONLY = new Set(["query", "params", "response", "summary", "tag"]);

type Node = { type: string; start: number; end: number; [key: string]: unknown };

function walk(node: unknown, visit: (node: Node) => void): void {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
    return;
  }
  if (!node || typeof node !== "object" || typeof (node as Node).type !== "string") return;
  visit(node as Node);
  for (const value of Object.values(node)) if (value && typeof value === "object") walk(value, visit);
}

const LAZY_MODULE = "\0switchboard:lazy-schema";
const LAZY_FILE = path.join(import.meta.dirname, "lazy-schema.js");

/** The identifier a call chain starts from: \`z\` for \`z.string().min(1)\`. */
function chainRoot(node: Node | null | undefined): string | undefined {
  let current = node as (Node & { callee?: Node; object?: Node; name?: string }) | undefined;
  while (current) {
    if (current.type === "Identifier") return current.name;
    if (current.type === "CallExpression") current = current.callee as typeof current;
    else if (current.type === "MemberExpression") current = current.object as typeof current;
    else return undefined;
  }
  return undefined;
}

/** Where a property ends with the comma after it, so that removing it leaves a valid object. */
function afterComma(code: string, end: number): number {
  const next = /^\s*,/.exec(code.slice(end, end + 200));
  return next ? end + next[0].length : end;
}

/** Replaces ranges of the code; ranges do not overlap, except zero-length inserts at a range's ends. */
function applyEdits(code: string, edits: { start: number; end: number; text: string }[]): string {
  let out = code;
  const ordered = edits
    .map((edit, index) => ({ ...edit, index }))
    .sort((a, b) => b.start - a.start || b.end - a.end || b.index - a.index);
  for (const edit of ordered) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

/**
 * The web build's copy of the API package's route table (issue #23: total blocking time). Every route
 * carries zod schemas of its query, path, body and answer, built when its module loads: hundreds of
 * schemas, most of a signed-in page's script time on a phone. The browser only sends calls; it reads a
 * route's method, path and auth, and a few forms check their input against its body schema. So here a
 * route's query, params and response schemas are left out, and its body schema is built on first use.
 * The package's other top-level schemas become proxies built when first read (lazy-schema.js); its other
 * top-level calls (routes among them) stay eager. All are marked pure, so the ones the app does not use
 * drop out of the bundle: the bundler cannot tell that building a zod schema has no side effects.
 */
export function clientRouteSchemas(): Plugin {
  return {
    name: "switchboard:client-route-schemas",
    apply: "build",
    resolveId: (id) => (id === LAZY_MODULE ? id : null),
    load: (id) => (id === LAZY_MODULE ? readFileSync(LAZY_FILE, "utf8") : null),
    transform(code, id) {
      if (!API_FILE.test(id) || id.endsWith(".test.ts")) return null;
      const edits: { start: number; end: number; text: string }[] = [];
      const program = parseAst(code, { lang: "js" });
      let lazy = false;
      for (const statement of program.body as unknown as Node[]) {
        const declaration = (
          statement.type === "ExportNamedDeclaration" ? statement.declaration : statement
        ) as (Node & { declarations?: { init: Node | null }[] }) | null;
        if (declaration?.type !== "VariableDeclaration") continue;
        for (const { init } of declaration.declarations ?? []) {
          if (init?.type !== "CallExpression" && init?.type !== "MemberExpression") continue;
          const root = chainRoot(init);
          // A schema (a chain from z or from another schema) is built on first use; any other call
          // now, marked pure so that it drops out when unused.
          const schema = root === "z" || (root !== undefined && /Schema$/.test(root));
          if (!schema && init.type !== "CallExpression") continue;
          edits.push({
            start: init.start,
            end: init.start,
            text: schema ? "/* @__PURE__ */ __lazySchema(() => (" : "/* @__PURE__ */ (() => (",
          });
          edits.push({ start: init.end, end: init.end, text: schema ? "))" : "))()" });
          if (schema) lazy = true;
        }
      }
      if (lazy)
        edits.push({
          start: 0,
          end: 0,
          text: `import { lazySchema as __lazySchema } from "${LAZY_MODULE}";\n`,
        });
      if (!ROUTE_FILE.test(id)) return edits.length ? { code: applyEdits(code, edits), map: null } : null;
      walk(program, (node) => {
        const callee = node.callee as Node & { name?: string };
        const [route] = (node.arguments as Node[] | undefined) ?? [];
        if (
          node.type !== "CallExpression" ||
          callee?.name !== "defineRoute" ||
          route?.type !== "ObjectExpression"
        )
          return;
        for (const property of route.properties as (Node & {
          key: Node & { name?: string };
          value: Node;
        })[]) {
          const name = property.type === "Property" && !property.computed ? property.key.name : undefined;
          if (!name) continue;
          const value = code.slice(property.value.start, property.value.end);
          if (SERVER_ONLY.has(name))
            edits.push({ start: property.start, end: afterComma(code, property.end), text: "" });
          else if (name === "body")
            edits.push({
              start: property.start,
              end: property.end,
              text: `get body() { const value = (${value}); Object.defineProperty(this, "body", { value }); return value; }`,
            });
        }
      });
      return edits.length ? { code: applyEdits(code, edits), map: null } : null;
    },
  };
}
