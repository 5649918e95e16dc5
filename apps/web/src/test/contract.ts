import { errorResponseSchema, type RouteDefinition, routeTable } from "@switchboard/api";

/**
 * Fixture answers checked against the wire contract: a faked answer that drifts from the route's response
 * schema fails the test that uses it, instead of letting a test pass against an answer the server never
 * gives.
 */

const OFF_CONTRACT = Symbol("offContract");

/** An answer a test sends on purpose although the contract does not allow it (robustness of the client). */
export type OffContract = { [OFF_CONTRACT]: true; answer: unknown; why: string };

/** Marks an answer as deliberately outside the contract; `why` says what the test proves with it. */
export function offContract(answer: unknown, why: string): OffContract {
  return { [OFF_CONTRACT]: true, answer, why };
}

export function isOffContract(value: unknown): value is OffContract {
  return typeof value === "object" && value !== null && OFF_CONTRACT in value;
}

function pathPattern(path: string): RegExp {
  const escaped = path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[A-Za-z0-9_]+\\?\}/g, "[^/]+");
  return new RegExp(`^${escaped}$`);
}

/** The route of the table for `method pathname`; a literal path wins over one with `{params}`. */
export function routeFor(method: string, pathname: string): RouteDefinition | undefined {
  const matches = routeTable.filter(
    (route) => route.method === method.toUpperCase() && pathPattern(route.path).test(pathname),
  );
  return matches.sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0))[0];
}

/**
 * Throws unless `answer` is what `route` may answer with `status`: its response schema for a success, the
 * one error shape for a refusal. Routes without a JSON response schema (CSV, files) are not checked.
 */
export function checkFixture(route: RouteDefinition, answer: unknown, status = 200): void {
  const schema = status >= 200 && status < 300 ? route.response : errorResponseSchema;
  if (!schema) return;
  const result = schema.safeParse(answer);
  if (!result.success) {
    const problems = result.error.issues
      .map((issue) => `  ${issue.path.join(".") || "(answer)"}: ${issue.message}`)
      .join("\n");
    throw new Error(
      `Fixture for ${route.method} ${route.path} (${route.id}, status ${status}) does not match the contract:\n${problems}`,
    );
  }
}
